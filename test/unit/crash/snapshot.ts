/** Trees as the crash-state checker saves and compares them: a folder's entries, files with their bytes. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { stop } from './recorder';

/** One entry of a snapshot as the recording file holds it. */
export interface SavedEntry {
  readonly path: string;
  readonly kind: 'dir' | 'file' | 'link';
  readonly data?: string;
  readonly target?: string;
  readonly inode?: string;
}

export interface SavedRecording {
  readonly root: string;
  readonly pid: number;
  readonly initial: readonly SavedEntry[];
  readonly ops: ReturnType<typeof stop>;
  readonly old: readonly SavedEntry[];
  readonly new: readonly SavedEntry[];
  readonly setupIds: readonly string[];
  readonly editInMemoryBytes: number;
}

/** Every entry below `folder`, relative to it, files with their bytes; `skip` leaves names out. */
export function snapshotEntries(folder: string, skip: (name: string) => boolean = () => false): SavedEntry[] {
  const entries: SavedEntry[] = [];
  const visit = (directory: string, relative: string): void => {
    for (const name of fs.readdirSync(directory).sort()) {
      if (skip(name)) continue;
      const full = path.join(directory, name);
      const at = relative === '' ? name : `${relative}/${name}`;
      const stat = fs.lstatSync(full);
      const inode = `${stat.dev}:${stat.ino}`;
      if (stat.isSymbolicLink()) entries.push({ path: at, kind: 'link', target: fs.readlinkSync(full), inode });
      else if (stat.isDirectory()) {
        entries.push({ path: at, kind: 'dir', inode });
        visit(full, at);
      } else entries.push({ path: at, kind: 'file', data: fs.readFileSync(full).toString('base64'), inode });
    }
  };
  visit(folder, '');
  return entries;
}
