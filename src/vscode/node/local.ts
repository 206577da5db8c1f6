/**
 * What the local disk offers the editor's session on the desktop (session.ts, `LocalServices`): the ripgrep inside
 * VS Code's installation, the window's path index and content index over node:fs (src/node/indexes/), saved in the
 * extension's global storage, and git's per-user files.
 */
import * as vscode from 'vscode';
import { nextTurn } from '../../node/host/foreground';
import { gitEnvironment } from '../../node/host/gitEnvironment';
import { NodeContentIndex } from '../../node/indexes/contentIndex';
import { editorIndexOptions, NodePathIndex } from '../../node/indexes/pathIndex';
import { bundledRipgrep, RipgrepSearcher } from '../../node/search/ripgrep';
import type { LocalServices } from '../session';

/** The ripgrep inside VS Code's installation: looked up once; null when this build has none. */
let bundledRipgrepPath: string | null | undefined;

/**
 * The window's path index (src/node/indexes/pathIndex.ts), made on first use: watched within its share of the per-user
 * inotify limit, which it shares with VS Code's own file watcher, and verified past it (editorIndexOptions).
 */
let editorIndex: NodePathIndex | undefined;
/** Where the window's index is saved and started from (src/node/indexes/savedIndex.ts): the extension's global storage. */
let editorIndexFolder: string | undefined;
/** The window's content index over the path index (src/node/indexes/contentIndex.ts), made on first use. */
let editorContentIndex: NodeContentIndex | undefined;

/** Saves the window's path index in `folder` from now on (extension.ts, on activation); undefined: not saved. */
export function savePathIndexIn(folder: string | undefined): void {
  editorIndexFolder = folder;
}

/** Forgets the window's path and content indexes (the extension deactivating). */
export function closePathIndex(): void {
  editorContentIndex?.close();
  editorContentIndex = undefined;
  editorIndex?.close();
  editorIndex = undefined;
}

function pathIndex(): NodePathIndex {
  editorIndex ??= new NodePathIndex({
    ...editorIndexOptions(),
    ...(editorIndexFolder === undefined ? {} : { saveTo: editorIndexFolder }),
  });
  return editorIndex;
}

export const nodeLocalServices: LocalServices = {
  contentSearcher() {
    if (bundledRipgrepPath === undefined) bundledRipgrepPath = bundledRipgrep(vscode.env.appRoot) ?? null;
    return bundledRipgrepPath === null ? undefined : new RipgrepSearcher(bundledRipgrepPath);
  },
  pathIndex,
  contentIndex() {
    editorContentIndex ??= new NodeContentIndex(pathIndex());
    return editorContentIndex;
  },
  gitEnvironment,
  turn: nextTurn,
};
