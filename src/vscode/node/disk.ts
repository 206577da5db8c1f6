/**
 * The local disk as the desktop extension lends it to the workspace.fs port (fileSystem.ts, `LocalDisk`): the Node
 * port's reads, cross-process locks in the per-user directory the runner and the MCP server use, streamed writes,
 * hard links and native hashing, each on the `file:` path of a core path.
 */
import * as vscode from 'vscode';
import { NodeLocks, trackStaging } from '../../node/fs/locks';
import { NodeFileSystem } from '../../node/fs/nodeFileSystem';
import { defaultLockDirectory } from '../../node/host/stateDirectory';
import type { LocalDisk } from '../fileSystem';

export const nodeLocalDisk: LocalDisk = (uriOf, { diskReads }) => {
  const disk = new NodeFileSystem();
  const native = (path: string): string => uriOf(path).fsPath;
  return {
    lock: NodeLocks.shared(defaultLockDirectory()).lock,
    appendFile: (path, content) => disk.appendFile(native(path), content),
    setMode: (path, mode) => disk.setMode(native(path), mode),
    openWriter: (path) => disk.openWriter(native(path)),
    link: (from, to) => disk.link(native(from), native(to)),
    replace: (from, to) => disk.rename(native(from), native(to), { overwrite: true }),
    overwrite: (path, content, offset) => disk.overwrite(native(path), content, offset),
    truncate: (path, size) => disk.truncate(native(path), size),
    sync: (path, kind) => disk.sync(native(path), kind),
    createFile: (path, content) => disk.createFile(native(path), content),
    createHash: () => disk.createHash(),
    realPath: async (path) => {
      const real = await disk.realPath(native(path)).catch(() => undefined);
      return real === undefined ? undefined : vscode.Uri.file(real).path;
    },
    readRange: (path, offset, length) => disk.readRange(native(path), offset, length),
    readInto: (path, offset, buffer) => disk.readInto(native(path), offset, buffer),
    ...(diskReads
      ? {
          reads: {
            stat: (path: string) => disk.stat(native(path)),
            readDirectory: (path: string) => disk.readDirectory(native(path)),
            readFile: (path: string) => disk.readFile(native(path)),
          },
        }
      : {}),
    announceStaging: (path) => trackStaging(native(path)),
  };
};
