/**
 * A virtual file system, as vscode.dev's GitHub and Azure Repos workspaces are one: a FileSystemProvider under its
 * own scheme (`agentfs-mem:`), in memory, in the browser's extension host. The web launch (test/launcher/web.ts)
 * opens its folder `/project`, so Agent FS finds no `file:` folder and nothing of the local disk; the suite registers
 * it first thing, in the extension host Agent FS runs in (a window's launch payload takes one development extension,
 * so it cannot be an extension of its own). `snapshot()` is the suite's view of what the provider holds: it does not
 * go through workspace.fs, the way Agent FS reads and writes.
 */
import * as vscode from 'vscode';

export const SCHEME = 'agentfs-mem';

/** What the folder holds when the window opens. */
export const SEED: Readonly<Record<string, string>> = {
  '/project/notes.txt': 'first line\nsecond line\n',
  '/project/src/app.ts': 'export const answer = 42;\n',
  '/project/docs/readme.md': '# Demo\n\nA virtual workspace.\n',
};

interface Entry {
  readonly type: vscode.FileType;
  data: Uint8Array;
  mtime: number;
  ctime: number;
}

class MemoryFileSystem implements vscode.FileSystemProvider {
  private readonly entries = new Map<string, Entry>();
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  constructor(seed: Readonly<Record<string, string>>) {
    this.entries.set('/', this.entry(vscode.FileType.Directory));
    for (const [path, text] of Object.entries(seed)) {
      const parts = path.split('/').filter(Boolean);
      for (let i = 1; i < parts.length; i++) {
        const dir = `/${parts.slice(0, i).join('/')}`;
        if (!this.entries.has(dir)) this.entries.set(dir, this.entry(vscode.FileType.Directory));
      }
      this.entries.set(path, this.entry(vscode.FileType.File, new TextEncoder().encode(text)));
    }
  }

  private entry(type: vscode.FileType, data = new Uint8Array()): Entry {
    const now = Date.now();
    return { type, data, mtime: now, ctime: now };
  }

  private static parent(path: string): string {
    const cut = path.lastIndexOf('/');
    return cut <= 0 ? '/' : path.slice(0, cut);
  }

  private get(uri: vscode.Uri): Entry {
    const found = this.entries.get(uri.path);
    if (!found) throw vscode.FileSystemError.FileNotFound(uri);
    return found;
  }

  private requireParent(uri: vscode.Uri): void {
    const parent = this.entries.get(MemoryFileSystem.parent(uri.path));
    if (!parent) throw vscode.FileSystemError.FileNotFound(uri.with({ path: MemoryFileSystem.parent(uri.path) }));
    if (parent.type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotADirectory(uri);
  }

  private fire(type: vscode.FileChangeType, uri: vscode.Uri): void {
    this.changes.fire([{ type, uri }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.get(uri);
    return { type: entry.type, size: entry.data.length, mtime: entry.mtime, ctime: entry.ctime };
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    if (this.get(uri).type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotADirectory(uri);
    const prefix = uri.path === '/' ? '/' : `${uri.path}/`;
    return [...this.entries]
      .filter(([path]) => path !== uri.path && path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
      .map(([path, entry]) => [path.slice(prefix.length), entry.type]);
  }

  createDirectory(uri: vscode.Uri): void {
    if (this.entries.has(uri.path)) throw vscode.FileSystemError.FileExists(uri);
    this.requireParent(uri);
    this.entries.set(uri.path, this.entry(vscode.FileType.Directory));
    this.fire(vscode.FileChangeType.Created, uri);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const entry = this.get(uri);
    if (entry.type === vscode.FileType.Directory) throw vscode.FileSystemError.FileIsADirectory(uri);
    return entry.data.slice();
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): void {
    const existing = this.entries.get(uri.path);
    if (existing?.type === vscode.FileType.Directory) throw vscode.FileSystemError.FileIsADirectory(uri);
    if (!existing && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    if (existing && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    this.requireParent(uri);
    if (existing) {
      existing.data = content.slice();
      existing.mtime = Date.now();
      this.fire(vscode.FileChangeType.Changed, uri);
    } else {
      this.entries.set(uri.path, this.entry(vscode.FileType.File, content.slice()));
      this.fire(vscode.FileChangeType.Created, uri);
    }
  }

  delete(uri: vscode.Uri, options: { readonly recursive: boolean }): void {
    this.get(uri);
    const inside = [...this.entries.keys()].filter((path) => path.startsWith(`${uri.path}/`));
    if (inside.length > 0 && !options.recursive) throw vscode.FileSystemError.NoPermissions(`${uri.path} is not empty`);
    for (const path of [uri.path, ...inside]) this.entries.delete(path);
    this.fire(vscode.FileChangeType.Deleted, uri);
  }

  rename(from: vscode.Uri, to: vscode.Uri, options: { readonly overwrite: boolean }): void {
    this.get(from);
    if (this.entries.has(to.path) && !options.overwrite) throw vscode.FileSystemError.FileExists(to);
    this.requireParent(to);
    const moved = [...this.entries].filter(([path]) => path === from.path || path.startsWith(`${from.path}/`));
    for (const [path] of moved) this.entries.delete(path);
    for (const [path, entry] of moved) this.entries.set(to.path + path.slice(from.path.length), entry);
    this.fire(vscode.FileChangeType.Deleted, from);
    this.fire(vscode.FileChangeType.Created, to);
  }

  /** Every file's text, by path: what the provider holds, read without workspace.fs. */
  snapshot(): Record<string, string> {
    const files: Record<string, string> = {};
    for (const [path, entry] of this.entries) if (entry.type === vscode.FileType.File) files[path] = new TextDecoder().decode(entry.data);
    return files;
  }
}

/** Registers the file system, seeded, for the window's lifetime; returns its snapshot. */
export function registerMemoryFileSystem(): () => Record<string, string> {
  const provider = new MemoryFileSystem(SEED);
  vscode.workspace.registerFileSystemProvider(SCHEME, provider, { isCaseSensitive: true });
  return () => provider.snapshot();
}
