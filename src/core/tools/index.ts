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
import { historyGet } from './historyGet';
import { historyList } from './historyList';
import { listFiles } from './listFiles';
import { moveDirectory } from './moveDirectory';
import { moveFile } from './moveFile';
import { pathExists } from './pathExists';
import { readFile } from './readFile';
import { undoLast } from './undoLast';
import { undoOperation } from './undoOperation';
import { writeFile } from './writeFile';
import { createFile } from './createFile';
import { editFile } from './editFile';
import { replaceLines } from './replaceLines';
import { insertLines } from './insertLines';
import { deleteLines } from './deleteLines';
import { applyPatch } from './applyPatch';
import { readManyFiles } from './readManyFiles';
import { listDirectory } from './listDirectory';
import { directoryTree } from './directoryTree';
import { fileInfo } from './fileInfo';
import { searchFiles } from './searchFiles';
import { searchContent } from './searchContent';
import { workspaceInfo } from './workspaceInfo';

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
  readManyFiles,
  listDirectory,
  directoryTree,
  fileInfo,
  searchFiles,
  searchContent,
  workspaceInfo,
  createFile,
  editFile,
  replaceLines,
  insertLines,
  deleteLines,
  applyPatch,
  historyList,
  historyGet,
  undoOperation,
  undoLast,
];

export function findTool(operation: string): AnyToolDefinition | undefined {
  return TOOLS.find((tool) => tool.name === operation);
}
