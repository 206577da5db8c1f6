/**
 * Every operation, listed explicitly. Adding a tool: one file in this folder, one line here, and its manifest
 * entry in package.json (a unit test checks the two lists agree).
 */
import type { AnyToolDefinition } from '../tool';
import { copyDirectory } from './copyDirectory';
import { copyFile } from './copyFile';
import { createDirectory } from './createDirectory';
import { deleteDirectory } from './deleteDirectory';
import { deleteFile } from './deleteFile';
import { findFile } from './findFile';
import { listFiles } from './listFiles';
import { moveDirectory } from './moveDirectory';
import { moveFile } from './moveFile';
import { pathExists } from './pathExists';
import { readFile } from './readFile';
import { writeFile } from './writeFile';

export const TOOLS: readonly AnyToolDefinition[] = [
  readFile,
  writeFile,
  deleteFile,
  copyFile,
  moveFile,
  createDirectory,
  deleteDirectory,
  copyDirectory,
  moveDirectory,
  listFiles,
  pathExists,
  findFile,
];

export function findTool(operation: string): AnyToolDefinition | undefined {
  return TOOLS.find((tool) => tool.name === operation);
}
