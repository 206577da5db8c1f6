/** A temporary tree with a path index over it, and the two sessions every index test compares: indexed and walking. */
import * as assert from 'node:assert/strict';
import { invokeOperation, type Session } from '../../../../src/core/invoke';
import { NodePathIndex, type NodePathIndexOptions } from '../../../../src/node/indexes/pathIndex';
import { createNodeSession } from '../../../../src/node/host/session';
import { writeTree } from '../../../shared/tree';
import { makeTempDir, removeTree } from '../../helpers';
import { checkEnvelope } from '../../../shared/results';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface Setup {
  readonly root: string;
  readonly index: NodePathIndex;
  readonly indexed: Session;
  readonly walking: Session;
}

export async function withIndex(
  tree: Record<string, string>,
  options: NodePathIndexOptions,
  body: (setup: Setup) => Promise<void>,
): Promise<void> {
  const root = makeTempDir('agentfs-index-');
  const index = new NodePathIndex(options);
  try {
    writeTree(root, tree);
    const setup = {
      root,
      index,
      indexed: createNodeSession(root, {}, { ripgrep: false, index }),
      walking: createNodeSession(root, {}, { ripgrep: false }),
    };
    await index.whenReady(root);
    await body(setup);
  } finally {
    index.close();
    removeTree(root);
  }
}

export type Data = Record<string, unknown>;

/** The call through the index, checked to equal a fresh walk's; its data. */
export async function same({ indexed, walking }: Setup, operation: string, input: object): Promise<Data> {
  const fromIndex = await invokeOperation(operation, input, indexed);
  const fromWalk = await invokeOperation(operation, input, walking);
  checkEnvelope(fromWalk);
  assert.deepEqual(fromIndex, fromWalk, `${operation} ${JSON.stringify(input)}`);
  assert.ok(fromIndex.ok, JSON.stringify(fromIndex));
  return fromIndex.data as Data;
}

export function listed(data: Data): string[] {
  return data.files as string[];
}
