/**
 * The path-case table, in the style of Go's os.Root tests (src/os/root_test.go): every case is run through every
 * path parameter of every tool (the list comes from the definitions: a tool with a path parameter that has no slot
 * here fails the first test), and after each call the whole temporary tree (base, the `outside`
 * sibling, the prefix sibling `base2`) is compared with what it must be: unchanged for a refusal, changed exactly
 * as the operation says for a success. The table runs twice: with the base given by its real path, and with the
 * base reached through a symbolic link (`baselink => base`), where everything inside must still work.
 *
 * Fixture (relative to the temp dir):
 *   outside/secret.txt, outside/dir/inner.txt        what no call may touch
 *   base2/file.txt                                    the prefix sibling of base
 *   base/a.txt, base/dir/b.txt, base/dir/sub/c.txt, base/empty/, and names with spaces, unicode, ':' and '~'
 *   base/dir/rel-out          => ../../outside/secret.txt   (relative link out)
 *   base/link-in-file         => a.txt                      (inside, allowed)
 *   base/link-in-dir          => dir                        (inside, allowed)
 *   base/link-to-base         => .                          (inside, allowed)
 *   base/link-out-file        => <abs>/outside/secret.txt
 *   base/link-out-dir         => ../outside/dir
 *   base/link-chain           => link-chain-2 => dir/rel-out => ../../outside/secret.txt
 *   base/link-parent          => ..
 *   base/link-root            => /
 *   base/dangling             => does-not-exist
 *   base/link-loop            => link-loop
 *   base/transfer-src.txt, base/transfer-src-dir/{one.txt,nested/two.txt,link-out => outside}   fixed counterparts
 *   baselink                  => base
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope, FailureEnvelope } from '../../src/core/envelope';
import type { Session } from '../../src/core/invoke';
import { compareCodePoints } from '../../src/core/walk/listing';
import { OUTSIDE_CODE } from '../../src/core/confinement';
import { TOOL_DEFINITIONS } from '../../src/core/tools';
import { createNodeSession } from '../../src/node/host/session';
import {
  assertFields,
  call,
  describeSnapshot,
  edit,
  makeTempDir,
  nodeSession,
  removeTree,
  sameTree,
  type Snapshot,
  snapshot,
} from './helpers';

// ---------------------------------------------------------------------------------------------------------------
// The table

/** What an inside path names: an existing file or directory, the base itself, nothing, or a path below a file. */
type Kind = 'file' | 'dir' | 'base' | 'missing' | 'underfile';

interface InsideCase {
  readonly path: string;
  readonly kind: Kind;
  /** How results show the path (relative_path, path, source_path, destination_path). */
  readonly display: string;
  /** Where the entry itself physically is, relative to base ('' = base): intermediate links resolved, the last component not. */
  readonly loc: string;
  /** Where it leads with every link resolved; defaults to `loc`. */
  readonly real?: string;
}

interface RefusedCase {
  readonly path: string;
  /** outside: the slot's *_OUTSIDE_BASE code; symlink: SYMLINK_OUTSIDE_BASE; invalid: INVALID_INPUT. */
  readonly refused: 'outside' | 'symlink' | 'invalid';
}

type PathCase = (InsideCase | RefusedCase) & {
  readonly name?: string;
  /**
   * When the base is reached through a link, the session's root is the link's path and only paths under it are
   * inside: the base's real path, written out absolutely, is refused as outside (a conservative choice).
   */
  readonly inLinkMode?: RefusedCase['refused'];
};

const file = (path: string, display: string, loc: string, real?: string): InsideCase => ({ path, kind: 'file', display, loc, real });
const dir = (path: string, display: string, loc: string, real?: string): InsideCase => ({ path, kind: 'dir', display, loc, real });
const missing = (path: string, display: string, loc: string): InsideCase => ({ path, kind: 'missing', display, loc });
const base = (path: string): InsideCase => ({ path, kind: 'base', display: '.', loc: '' });
const outside = (path: string, name?: string): PathCase => ({ path, refused: 'outside', name });
const symlink = (path: string, name?: string): PathCase => ({ path, refused: 'symlink', name });
const invalid = (path: string, name?: string): PathCase => ({ path, refused: 'invalid', name });

/** `{base}`: the base as the session was given it; `{tmp}`: the temp dir; `{outside}`: tmp/outside. */
const CASES: readonly PathCase[] = [
  // Plain relative paths inside.
  file('a.txt', 'a.txt', 'a.txt'),
  file('./a.txt', 'a.txt', 'a.txt'),
  file('dir/b.txt', 'dir/b.txt', 'dir/b.txt'),
  file('dir//b.txt', 'dir/b.txt', 'dir/b.txt'),
  file('dir/./sub/c.txt', 'dir/sub/c.txt', 'dir/sub/c.txt'),
  file('dir/../a.txt', 'a.txt', 'a.txt'),
  file('dir/sub/../../a.txt', 'a.txt', 'a.txt'),
  base('.'),
  base('./'),
  base('dir/..'),
  { ...base(' '), name: '" " (whitespace only: the code reads it as the base directory)' },
  dir('dir', 'dir', 'dir'),
  dir('dir/', 'dir', 'dir'),
  dir('dir/sub', 'dir/sub', 'dir/sub'),
  dir('empty', 'empty', 'empty'),
  missing('missing.txt', 'missing.txt', 'missing.txt'),
  missing('new/deep/x.txt', 'new/deep/x.txt', 'new/deep/x.txt'),
  missing('dir/sub/../new.txt', 'dir/new.txt', 'dir/new.txt'),
  missing('...', '...', '...'),
  missing('..foo', '..foo', '..foo'),
  missing('foo..', 'foo..', 'foo..'),
  missing('%2e%2e/x.txt', '%2e%2e/x.txt', '%2e%2e/x.txt'),
  { path: 'a.txt/x', kind: 'underfile', display: 'a.txt/x', loc: 'a.txt/x' },
  // Legitimate names: spaces, unicode, ':', '~' not at the start of a home path.
  file('name with spaces.txt', 'name with spaces.txt', 'name with spaces.txt'),
  file(' spaced .txt', ' spaced .txt', ' spaced .txt'),
  missing('new dir/new file.txt', 'new dir/new file.txt', 'new dir/new file.txt'),
  file('ünïcödé-文件.txt', 'ünïcödé-文件.txt', 'ünïcödé-文件.txt'),
  missing('日本語/новый.txt', '日本語/новый.txt', '日本語/новый.txt'),
  file('notes:v2.txt', 'notes:v2.txt', 'notes:v2.txt'),
  missing('ab:cd/x.txt', 'ab:cd/x.txt', 'ab:cd/x.txt'),
  file('~backup', '~backup', '~backup'),
  missing('~user/x.txt', '~user/x.txt', '~user/x.txt'),
  missing('dir/~', 'dir/~', 'dir/~'),
  // Backslashes are separators.
  file('dir\\b.txt', 'dir/b.txt', 'dir/b.txt'),
  file('dir\\..\\a.txt', 'a.txt', 'a.txt'),
  // Absolute paths and file: URIs inside.
  file('{base}/a.txt', 'a.txt', 'a.txt'),
  file('{base}/dir/../a.txt', 'a.txt', 'a.txt'),
  file('{base}\\dir\\b.txt', 'dir/b.txt', 'dir/b.txt'),
  base('{base}'),
  base('{base}/'),
  missing('{base}/new/x.txt', 'new/x.txt', 'new/x.txt'),
  { ...file('{tmp}/base/a.txt', 'a.txt', 'a.txt'), name: 'the real path of the base', inLinkMode: 'outside' },
  { ...file('{outside}/../base/a.txt', 'a.txt', 'a.txt'), inLinkMode: 'outside' },
  file('file://{base}/a.txt', 'a.txt', 'a.txt'),
  file('file://localhost{base}/a.txt', 'a.txt', 'a.txt'),
  file('FILE://{base}/dir/b.txt', 'dir/b.txt', 'dir/b.txt'),
  file('file://{base}/name%20with%20spaces.txt', 'name with spaces.txt', 'name with spaces.txt'),
  base('file://{base}'),
  // Links inside the base, to inside the base: allowed.
  file('link-in-file', 'link-in-file', 'link-in-file', 'a.txt'),
  dir('link-in-dir', 'link-in-dir', 'link-in-dir', 'dir'),
  file('link-in-dir/b.txt', 'link-in-dir/b.txt', 'dir/b.txt'),
  dir('link-in-dir/sub', 'link-in-dir/sub', 'dir/sub'),
  missing('link-in-dir/new.txt', 'link-in-dir/new.txt', 'dir/new.txt'),
  missing('link-in-dir/newsub/x.txt', 'link-in-dir/newsub/x.txt', 'dir/newsub/x.txt'),
  dir('link-to-base', 'link-to-base', 'link-to-base', ''),
  file('link-to-base/a.txt', 'link-to-base/a.txt', 'a.txt'),
  file('{base}/link-in-dir/sub/c.txt', 'link-in-dir/sub/c.txt', 'dir/sub/c.txt'),

  // Lexically outside: '..', absolute paths, home, drive letters, UNC, other schemes and hosts.
  outside('..'),
  outside('../'),
  outside('../outside/secret.txt'),
  outside('a/../../outside/secret.txt'),
  outside('dir/../../outside/secret.txt'),
  outside('dir/sub/../../../outside'),
  outside('../base2/file.txt', 'prefix sibling, relative'),
  outside('{tmp}/base2/file.txt', 'prefix sibling, absolute'),
  outside('{tmp}/base2', 'prefix sibling itself'),
  outside('{tmp}/base2/new.txt', 'prefix sibling, new file'),
  outside('{outside}/secret.txt'),
  outside('{outside}'),
  outside('{base}/../outside/secret.txt'),
  outside('{tmp}'),
  outside('/'),
  outside('/etc/passwd'),
  outside('/./'),
  outside('~'),
  outside('~/'),
  outside('~/x.txt'),
  outside('..\\..\\x'),
  outside('..\\outside\\secret.txt'),
  outside('dir\\..\\..\\outside\\secret.txt'),
  outside('C:\\x'),
  outside('C:/x'),
  outside('c:x'),
  outside('\\\\server\\share\\x'),
  outside('//server/share/x'),
  outside('\\\\?\\C:\\x'),
  outside('file://{outside}/secret.txt'),
  outside('file://{base}/../outside/secret.txt'),
  outside('file://{base}/%2e%2e/outside/secret.txt'),
  outside('file://{tmp}/base2/file.txt'),
  outside('file://host/x'),
  outside('file://server{base}/a.txt', 'file URI with a host, inside path'),
  outside('file:///C:/x'),
  outside('vscode-remote://ssh-remote+box{base}/a.txt'),
  outside('vscode-vfs://github/owner/repo/a.txt'),
  outside('http://example.com/a.txt'),
  outside('HTTPS://example.com/{base}/a.txt'),

  // Through symbolic links out of the base.
  symlink('link-out-file', 'link => <abs>/outside/secret.txt'),
  symlink('link-out-dir', 'link => ../outside/dir'),
  symlink('link-out-dir/inner.txt', 'link as intermediate component'),
  symlink('link-out-dir/new.txt', 'missing child through an outside link'),
  symlink('link-out-dir/newsub/x.txt', 'missing grandchild through an outside link'),
  symlink('dir/rel-out', 'link => ../../outside/secret.txt'),
  symlink('link-in-dir/rel-out', 'inside link, then a link out'),
  symlink('link-chain', 'chain of links ending outside'),
  symlink('link-parent', 'link => ..'),
  symlink('link-parent/outside/secret.txt'),
  symlink('link-parent/base2/file.txt'),
  symlink('link-root', 'link => /'),
  symlink('link-root/etc/passwd'),
  symlink('dangling', 'dangling link'),
  symlink('dangling/x.txt', 'below a dangling link'),
  symlink('link-loop', 'link => itself'),
  symlink('link-loop/x', 'below a link loop'),
  symlink('{base}/link-out-file', 'absolute path through a link'),
  symlink('file://{base}/link-out-dir/inner.txt', 'file URI through a link'),
  symlink('link-to-base/link-out-file', 'inside link to base, then a link out'),

  // NUL bytes and malformed URIs: refused as invalid input before any I/O.
  invalid('a.txt\0'),
  invalid('\0'),
  invalid('dir/\0/x'),
  invalid('\0../outside/secret.txt'),
  invalid('file://{base}/a%00.txt'),
  invalid('file://{base}/%E0%A4%A'),
  invalid(`${'d/'.repeat(2048)}x`, 'one character over the 4096 a path may have'),
];

// ---------------------------------------------------------------------------------------------------------------
// The fixture

const TEXT: Readonly<Record<string, string>> = {
  'a.txt': 'alpha\n',
  'dir/b.txt': 'beta\n',
  'dir/sub/c.txt': 'gamma\n',
  '~backup': 'backup',
  'name with spaces.txt': 'spaces',
  ' spaced .txt': 'leading space',
  'ünïcödé-文件.txt': 'unicode ✓',
  'notes:v2.txt': 'colon',
  'transfer-src.txt': 'transfer source',
  'transfer-src-dir/one.txt': 'one',
  'transfer-src-dir/nested/two.txt': 'two',
};
const NEW_CONTENT = 'NEW CONTENT\n';

function buildFixture(tmp: string): void {
  for (const name of fs.readdirSync(tmp)) removeTree(path.join(tmp, name));
  const at = (relative: string): string => path.join(tmp, relative);
  fs.mkdirSync(at('outside/dir'), { recursive: true });
  fs.writeFileSync(at('outside/secret.txt'), 'outside secret');
  fs.writeFileSync(at('outside/dir/inner.txt'), 'outside inner');
  fs.mkdirSync(at('base2'));
  fs.writeFileSync(at('base2/file.txt'), 'prefix sibling');
  fs.mkdirSync(at('base/empty'), { recursive: true });
  for (const [relative, content] of Object.entries(TEXT)) {
    fs.mkdirSync(path.dirname(at(`base/${relative}`)), { recursive: true });
    fs.writeFileSync(at(`base/${relative}`), content);
  }
  const links: readonly [string, string][] = [
    ['base/dir/rel-out', '../../outside/secret.txt'],
    ['base/link-in-file', 'a.txt'],
    ['base/link-in-dir', 'dir'],
    ['base/link-to-base', '.'],
    ['base/link-out-file', at('outside/secret.txt')],
    ['base/link-out-dir', '../outside/dir'],
    ['base/link-chain', 'link-chain-2'],
    ['base/link-chain-2', 'dir/rel-out'],
    ['base/link-parent', '..'],
    ['base/link-root', '/'],
    ['base/dangling', 'does-not-exist'],
    ['base/link-loop', 'link-loop'],
    ['base/transfer-src-dir/link-out', at('outside/secret.txt')],
    ['baselink', 'base'],
  ];
  for (const [link, target] of links) fs.symlinkSync(target, at(link));
}

/** Puts the fixture back as `pristine` after a call changed it, touching only what differs (fast). */
function restoreFixture(tmp: string, pristine: Snapshot, now: Snapshot): void {
  const same = (a: ReturnType<Snapshot['get']>, b: ReturnType<Snapshot['get']>): boolean => JSON.stringify(a) === JSON.stringify(b);
  const byDepth = (a: string, b: string): number => a.split('/').length - b.split('/').length || compareCodePoints(a, b);
  const removed: string[] = [];
  for (const key of [...now.keys()].sort(byDepth)) {
    if (removed.some((gone) => key.startsWith(`${gone}/`))) continue;
    const want = pristine.get(key);
    const have = now.get(key);
    if (want === undefined || want.type !== have?.type || (want.type === 'link' && !same(want, have))) {
      fs.rmSync(path.join(tmp, key), { recursive: true, force: true });
      removed.push(key);
    }
  }
  for (const key of [...pristine.keys()].sort(byDepth)) {
    const want = pristine.get(key);
    const have = removed.some((gone) => key === gone || key.startsWith(`${gone}/`)) ? undefined : now.get(key);
    if (want === undefined || same(want, have)) continue;
    const full = path.join(tmp, key);
    if (want.type === 'dir') fs.mkdirSync(full);
    else if (want.type === 'file') fs.writeFileSync(full, Buffer.from(want.bytes, 'base64'));
    else if (want.type === 'link') fs.symlinkSync(want.target, full);
  }
  // No check here: a wrong restore makes the next call's whole-tree comparison fail.
}

// ---------------------------------------------------------------------------------------------------------------
// The slots: every path parameter of every tool, with what each kind of path must give.

interface Env {
  readonly tmp: string;
  /** The base as the session was given it (the real directory, or the link to it). */
  readonly root: string;
  readonly before: Snapshot;
}

type Expectation =
  | { readonly code: string }
  | {
      readonly data: Record<string, unknown>;
      readonly after: Snapshot;
      /** More to check in the data than equal fields: a problem, or undefined. */
      readonly check?: (data: Record<string, unknown>) => string | undefined;
    };

interface Slot {
  readonly name: string;
  readonly operation: string;
  /** The path parameter the case goes into; its definition's slot names the *_OUTSIDE_BASE code. */
  readonly parameter: string;
  /** Run with a session that keeps a history (the history tools need one). */
  readonly history?: boolean;
  /** The input; `testCase` is undefined for a path that must be refused. */
  input(path: string, testCase: InsideCase | undefined, env: Env): Record<string, unknown>;
  expect(testCase: InsideCase, env: Env): Expectation;
  /** For tools whose result holds one entry per path (read_many_files): that entry, as an envelope of its own. */
  unwrap?(data: Record<string, unknown>): Envelope;
}

/** Snapshot key of a path relative to base. */
const B = (relative: string): string => (relative === '' ? 'base' : `base/${relative}`);
const realOf = (testCase: InsideCase): string => testCase.real ?? testCase.loc;
const baseName = (display: string, env: Env): string =>
  display === '.' ? path.basename(env.root) : display.slice(display.lastIndexOf('/') + 1);
const unchanged = (env: Env): Snapshot => edit.clone(env.before);

function changed(env: Env, change: (snap: Snapshot) => void): Snapshot {
  const snap = edit.clone(env.before);
  change(snap);
  return snap;
}

function entryAt(env: Env, key: string): ReturnType<typeof edit.fileEntry> {
  const entry = env.before.get(key);
  assert.ok(entry, `fixture has no ${key}`);
  return entry;
}

/** What list_files must list under a directory: its files, and links to files inside the base; links are not descended. */
function expectedListing(testCase: InsideCase, env: Env): string[] {
  const start = B(realOf(testCase));
  const realBase = fs.realpathSync(path.join(env.tmp, 'base'));
  const files: string[] = [];
  for (const [key, entry] of env.before) {
    if (!key.startsWith(`${start}/`)) continue;
    const relative = key.slice(start.length + 1);
    let listed = entry.type === 'file';
    if (entry.type === 'link') {
      try {
        const target = fs.realpathSync(path.join(env.tmp, key));
        listed = fs.statSync(target).isFile() && (target === realBase || target.startsWith(`${realBase}/`));
      } catch {
        listed = false;
      }
    }
    if (listed) files.push(testCase.display === '.' ? relative : `${testCase.display}/${relative}`);
  }
  return files.sort(compareCodePoints);
}

const TRANSFER_FILE = 'transfer-src.txt';
const TRANSFER_DIR = 'transfer-src-dir';

function fileTransferSlots(operation: 'copy_file' | 'move_file'): Slot[] {
  const copy = operation === 'copy_file';
  const flag = copy ? 'copied' : 'moved';
  const sourceSlot: Slot = {
    name: `${operation}.source_path`,
    operation,
    parameter: 'source_path',
    input: (p) => ({ source_path: p, destination_path: 'slot-out/target.txt' }),
    expect(c, env) {
      switch (c.kind) {
        case 'file':
          return {
            data: { source_path: c.display, destination_path: 'slot-out/target.txt', [flag]: true, overwritten: false },
            after: changed(env, (s) => {
              if (copy) edit.setFile(s, 'base/slot-out/target.txt', entryAt(env, B(realOf(c))));
              else edit.move(s, B(c.loc), 'base/slot-out/target.txt');
            }),
          };
        case 'dir':
        case 'base':
          return { code: 'SOURCE_NOT_FILE' };
        default:
          return { code: 'SOURCE_FILE_NOT_FOUND' };
      }
    },
  };
  const destinationSlot = (overwrite: boolean): Slot => ({
    name: `${operation}.destination_path${overwrite ? ' (overwrite)' : ''}`,
    operation,
    parameter: 'destination_path',
    input: (p) => ({ source_path: TRANSFER_FILE, destination_path: p, ...(overwrite ? { overwrite: true } : {}) }),
    expect(c, env) {
      switch (c.kind) {
        case 'missing':
        case 'file': {
          if (c.kind === 'file' && !overwrite) return { code: 'DESTINATION_EXISTS' };
          return {
            data: { source_path: TRANSFER_FILE, destination_path: c.display, [flag]: true, overwritten: c.kind === 'file' },
            // The entry at the destination is replaced (a link there is replaced, never written through).
            after: changed(env, (s) => {
              if (copy) edit.setFile(s, B(c.loc), entryAt(env, B(TRANSFER_FILE)));
              else edit.move(s, B(TRANSFER_FILE), B(c.loc));
            }),
          };
        }
        case 'dir':
        case 'base':
          return { code: 'DESTINATION_IS_DIRECTORY' };
        case 'underfile':
          return { code: 'DESTINATION_NOT_DIRECTORY' };
      }
    },
  });
  return [sourceSlot, destinationSlot(false), destinationSlot(true)];
}

function directoryTransferSlots(operation: 'copy_directory' | 'move_directory'): Slot[] {
  const copy = operation === 'copy_directory';
  const flag = copy ? 'copied' : 'moved';
  const sourceSlot: Slot = {
    name: `${operation}.source_path`,
    operation,
    parameter: 'source_path',
    input: (p) => ({ source_path: p, destination_path: 'slot-out/target-dir' }),
    expect(c, env) {
      switch (c.kind) {
        case 'dir':
          // A copy reads what a link leads to: copying a link to the base copies the base into itself.
          if (copy && realOf(c) === '') return { code: 'DESTINATION_INSIDE_SOURCE' };
          return {
            data: { source_path: c.display, destination_path: 'slot-out/target-dir', [flag]: true, overwritten: false },
            after: changed(env, (s) => {
              if (copy) edit.copyDir(s, B(realOf(c)), 'base/slot-out/target-dir');
              else edit.move(s, B(c.loc), 'base/slot-out/target-dir');
            }),
          };
        case 'base':
          return { code: 'DESTINATION_INSIDE_SOURCE' };
        case 'file':
          return { code: 'SOURCE_NOT_DIRECTORY' };
        default:
          return { code: 'SOURCE_DIRECTORY_NOT_FOUND' };
      }
    },
  };
  const destinationSlot = (overwrite: boolean): Slot => ({
    name: `${operation}.destination_path${overwrite ? ' (overwrite)' : ''}`,
    operation,
    parameter: 'destination_path',
    input: (p) => ({ source_path: TRANSFER_DIR, destination_path: p, ...(overwrite ? { overwrite: true } : {}) }),
    expect(c, env) {
      switch (c.kind) {
        case 'missing':
        case 'dir': {
          if (c.kind === 'dir' && !overwrite) return { code: 'DESTINATION_EXISTS' };
          return {
            data: { source_path: TRANSFER_DIR, destination_path: c.display, [flag]: true, overwritten: c.kind === 'dir' },
            // A replaced directory goes as a whole; a link at the destination is replaced as a link.
            after: changed(env, (s) => {
              if (copy) {
                edit.remove(s, B(c.loc));
                edit.copyDir(s, B(TRANSFER_DIR), B(c.loc));
              } else edit.move(s, B(TRANSFER_DIR), B(c.loc));
            }),
          };
        }
        case 'base':
          // The base contains the source, so it can never be replaced by it.
          return { code: 'DESTINATION_EXISTS' };
        case 'file':
          return { code: overwrite ? 'DESTINATION_NOT_DIRECTORY' : 'DESTINATION_EXISTS' };
        case 'underfile':
          return { code: 'DESTINATION_NOT_DIRECTORY' };
      }
    },
  });
  return [sourceSlot, destinationSlot(false), destinationSlot(true)];
}

const SLOTS: readonly Slot[] = [
  {
    name: 'read_file.file_name',
    operation: 'read_file',
    parameter: 'file_name',
    input: (p) => ({ file_name: p }),
    expect(c, env) {
      if (c.kind === 'file') {
        const entry = entryAt(env, B(realOf(c)));
        assert.equal(entry.type, 'file');
        const content = entry.type === 'file' ? Buffer.from(entry.bytes, 'base64').toString('utf8') : '';
        return { data: { file_name: baseName(c.display, env), relative_path: c.display, content }, after: unchanged(env) };
      }
      return { code: c.kind === 'dir' || c.kind === 'base' ? 'FILE_NOT_FILE' : 'FILE_NOT_FOUND' };
    },
  },
  // The symbol tools: the fixture's files are .txt, in no language, so a file that is reached answers that.
  ...['read_outline', 'edit_symbol', 'find_references'].map((operation): Slot => ({
    name: `${operation}.path`,
    operation,
    parameter: 'path',
    input: (p) => ({
      path: p,
      ...(operation === 'read_outline' ? {} : { symbol: 'main' }),
      ...(operation === 'edit_symbol' ? { action: 'replace', text: NEW_CONTENT } : {}),
    }),
    expect: (c) => ({
      code: c.kind === 'file' ? 'LANGUAGE_UNSUPPORTED' : c.kind === 'dir' || c.kind === 'base' ? 'FILE_NOT_FILE' : 'FILE_NOT_FOUND',
    }),
  })),
  {
    name: 'write_file.file_name',
    operation: 'write_file',
    parameter: 'file_name',
    input: (p) => ({ file_name: p, content: NEW_CONTENT }),
    expect(c, env) {
      switch (c.kind) {
        case 'file':
          // Through a link inside the base, the link's target is written and the link stays.
          return {
            data: { file_name: baseName(c.display, env), relative_path: c.display, created: false, updated: true },
            after: changed(env, (s) => edit.setFile(s, B(realOf(c)), NEW_CONTENT)),
          };
        case 'missing':
          return {
            data: { file_name: baseName(c.display, env), relative_path: c.display, created: true, updated: false },
            after: changed(env, (s) => edit.setFile(s, B(c.loc), NEW_CONTENT)),
          };
        case 'underfile':
          return { code: 'DIRECTORY_NOT_DIRECTORY' };
        default:
          return { code: 'FILE_NOT_FILE' };
      }
    },
  },
  {
    name: 'delete_file.file_name',
    operation: 'delete_file',
    parameter: 'file_name',
    input: (p) => ({ file_name: p }),
    expect(c, env) {
      if (c.kind === 'file') {
        // A link is deleted as a link: its target stays.
        return {
          data: { file_name: baseName(c.display, env), relative_path: c.display, deleted: true },
          after: changed(env, (s) => edit.remove(s, B(c.loc))),
        };
      }
      return { code: c.kind === 'dir' || c.kind === 'base' ? 'FILE_NOT_FILE' : 'FILE_NOT_FOUND' };
    },
  },
  ...fileTransferSlots('copy_file'),
  ...fileTransferSlots('move_file'),
  {
    name: 'create_directory.directory_name',
    operation: 'create_directory',
    parameter: 'directory_name',
    input: (p) => ({ directory_name: p }),
    expect(c, env) {
      const data = (created: boolean): Record<string, unknown> => ({
        directory_name: baseName(c.display, env),
        relative_path: c.display,
        created,
      });
      switch (c.kind) {
        case 'missing':
          return { data: data(true), after: changed(env, (s) => edit.addDir(s, B(c.loc))) };
        case 'dir':
        case 'base':
          return { data: data(false), after: unchanged(env) };
        default:
          return { code: 'DIRECTORY_NOT_DIRECTORY' };
      }
    },
  },
  {
    name: 'delete_directory.directory_path (recursive)',
    operation: 'delete_directory',
    parameter: 'directory_path',
    input: (p) => ({ directory_path: p, recursive: true }),
    expect(c, env) {
      switch (c.kind) {
        case 'dir':
          // Links inside the tree go as links; a link given as the target goes alone.
          return {
            data: { directory_name: baseName(c.display, env), relative_path: c.display, deleted: true, recursive: true },
            after: changed(env, (s) => edit.remove(s, B(c.loc))),
          };
        case 'base':
          return { code: 'INVALID_INPUT' };
        case 'file':
          return { code: 'DIRECTORY_NOT_DIRECTORY' };
        default:
          return { code: 'DIRECTORY_NOT_FOUND' };
      }
    },
  },
  ...directoryTransferSlots('copy_directory'),
  ...directoryTransferSlots('move_directory'),
  {
    name: 'list_files.path',
    operation: 'list_files',
    parameter: 'path',
    input: (p) => ({ path: p }),
    expect(c, env) {
      switch (c.kind) {
        case 'dir':
        case 'base': {
          const files = expectedListing(c, env);
          return { data: { count: files.length, recursive: true, files }, after: unchanged(env) };
        }
        case 'file':
          return { code: 'DIRECTORY_NOT_DIRECTORY' };
        default:
          return { code: 'DIRECTORY_NOT_FOUND' };
      }
    },
  },
  {
    name: 'path_exists.path',
    operation: 'path_exists',
    parameter: 'path',
    input: (p) => ({ path: p }),
    expect(c, env) {
      const type = c.kind === 'file' ? 'file' : c.kind === 'dir' || c.kind === 'base' ? 'directory' : 'missing';
      return { data: { path: c.display, exists: type !== 'missing', path_type: type }, after: unchanged(env) };
    },
  },
  ...readManyFilesSlots(),
  replaceInFilesSlot(),
  ...directoryReadSlots(),
  {
    name: 'file_info.path',
    operation: 'file_info',
    parameter: 'path',
    input: (p) => ({ path: p }),
    expect(c, env) {
      if (c.kind === 'missing' || c.kind === 'underfile') return { code: 'FILE_NOT_FOUND' };
      // Through a link inside the base, the link's target is described (type and size), under the link's name.
      return { data: { relative_path: c.display, type: c.kind === 'file' ? 'file' : 'directory' }, after: unchanged(env) };
    },
  },
  {
    name: 'history_list.path',
    operation: 'history_list',
    parameter: 'path',
    history: true,
    input: (p) => ({ path: p }),
    // Nothing is recorded in this session, and any path inside the base may be asked about, existing or not.
    expect: (_c, env) => ({ data: { count: 0, total: 0, operations: [] }, after: unchanged(env) }),
  },
  {
    name: 'create_file.path',
    operation: 'create_file',
    parameter: 'path',
    input: (p) => ({ path: p, content: NEW_CONTENT }),
    expect(c, env) {
      switch (c.kind) {
        case 'missing':
          return { data: { path: c.display, created: true }, after: changed(env, (s) => edit.setFile(s, B(c.loc), NEW_CONTENT)) };
        case 'underfile':
          return { code: 'DIRECTORY_NOT_DIRECTORY' };
        default:
          // Whatever is there (a file, a directory, a link to either) stays: create_file never replaces.
          return { code: 'ALREADY_EXISTS' };
      }
    },
  },
  ...lineEditSlots(),
  {
    // The fixture's files are text, not notebooks: reaching one is a notebook refusal, never a path one. A delete,
    // since inserts into a missing path would make a notebook there.
    name: 'edit_notebook.path',
    operation: 'edit_notebook',
    parameter: 'path',
    input: (p) => ({ path: p, edits: [{ action: 'delete', cell: 0 }] }),
    expect(c) {
      switch (c.kind) {
        case 'file':
          return { code: 'NOTEBOOK_INVALID' };
        case 'dir':
        case 'base':
          return { code: 'FILE_NOT_FILE' };
        default:
          return { code: 'FILE_NOT_FOUND' };
      }
    },
  },
];

/** The fixture's content of an inside file case, as the editing tools' inputs need it. */
function contentOf(testCase: InsideCase | undefined, env: Env): string {
  if (testCase?.kind !== 'file') return 'x';
  const entry = entryAt(env, B(realOf(testCase)));
  return entry.type === 'file' ? Buffer.from(entry.bytes, 'base64').toString('utf8') : 'x';
}

/**
 * The tools that edit an existing text file, each with an edit whose result is known for the fixture's one-line
 * files: through a link inside the base, the link's target is edited and the link stays.
 */
function lineEditSlots(): Slot[] {
  const edits: readonly {
    readonly operation: string;
    readonly input: (p: string, testCase: InsideCase | undefined, env: Env) => Record<string, unknown>;
    readonly result: (before: string) => string;
  }[] = [
    {
      operation: 'edit_file',
      input: (p, c, env) => ({ path: p, old_string: contentOf(c, env), new_string: NEW_CONTENT }),
      result: () => NEW_CONTENT,
    },
    // The replaced line keeps its line ending (or its lack of one).
    {
      operation: 'replace_lines',
      input: (p) => ({ path: p, start_line: 1, end_line: 1, content: 'NEW' }),
      result: (before) => (before.endsWith('\n') ? 'NEW\n' : 'NEW'),
    },
    {
      operation: 'insert_lines',
      input: (p) => ({ path: p, position: 'before', line: 1, content: NEW_CONTENT }),
      result: (before) => NEW_CONTENT + before,
    },
    { operation: 'delete_lines', input: (p) => ({ path: p, start_line: 1, end_line: 1 }), result: () => '' },
  ];
  return edits.map(({ operation, input, result }): Slot => ({
    name: `${operation}.path`,
    operation,
    parameter: 'path',
    input,
    expect(c, env) {
      switch (c.kind) {
        case 'file':
          return {
            data: { path: c.display, changed: true },
            after: changed(env, (s) => edit.setFile(s, B(realOf(c)), result(contentOf(c, env)))),
          };
        case 'dir':
        case 'base':
          return { code: 'FILE_NOT_FILE' };
        default:
          return { code: 'FILE_NOT_FOUND' };
      }
    },
  }));
}

function readManyFilesSlots(): Slot[] {
  return [
    {
      name: 'read_many_files.paths',
      operation: 'read_many_files',
      parameter: 'paths',
      input: (p) => ({ paths: [p] }),
      // The call succeeds; the one entry says what read_file would.
      unwrap(data) {
        const [entry] = data.files as { readonly ok: boolean; readonly data?: unknown; readonly error?: FailureEnvelope['error'] }[];
        if (entry?.ok === true) return { ok: true, operation: 'read_many_files', data: entry.data };
        return {
          ok: false,
          operation: 'read_many_files',
          error: entry?.error ?? { code: 'READ_FAILED', message: `no entry with an error: ${JSON.stringify(data).slice(0, 300)}` },
        };
      },
      expect(c, env) {
        if (c.kind === 'file') {
          return {
            data: { file_name: baseName(c.display, env), relative_path: c.display, content: contentOf(c, env) },
            after: unchanged(env),
          };
        }
        return { code: c.kind === 'dir' || c.kind === 'base' ? 'FILE_NOT_FILE' : 'FILE_NOT_FOUND' };
      },
    },
  ];
}

/**
 * replace_in_files' `paths`: a file (through a link inside the base, its target) has its line replaced; a directory is
 * searched; anything else is refused, and a path refused on its own refuses the call.
 */
function replaceInFilesSlot(): Slot {
  const ABSENT = 'zz-nowhere-zz';
  const lineOf = (c: InsideCase | undefined, env: Env): string => contentOf(c, env).split('\n')[0] ?? '';
  return {
    name: 'replace_in_files.paths',
    operation: 'replace_in_files',
    parameter: 'paths',
    input: (p, c, env) => ({
      paths: [p],
      query: c?.kind === 'file' && lineOf(c, env) !== '' ? lineOf(c, env) : ABSENT,
      replacement: 'NEW',
    }),
    expect(c, env) {
      switch (c.kind) {
        case 'file': {
          const line = lineOf(c, env);
          if (line === '') return { data: { replacements: 0 }, after: unchanged(env) };
          const before = contentOf(c, env);
          return {
            data: { files_changed: 1 },
            after: changed(env, (s) => edit.setFile(s, B(realOf(c)), before.split(line).join('NEW'))),
          };
        }
        case 'dir':
        case 'base':
          return { data: { replacements: 0, files_changed: 0 }, after: unchanged(env) };
        default:
          return { code: 'FILE_NOT_FOUND' };
      }
    },
  };
}

/** Paths a listing or search result shows must be the directory's own, under the name it was given by. */
function under(display: string, paths: readonly unknown[]): string | undefined {
  const outside = paths.filter(
    (each) => typeof each !== 'string' || (display !== '.' && each !== display && !each.startsWith(`${display}/`)),
  );
  return outside.length === 0 ? undefined : `paths not under ${display}: ${JSON.stringify(outside.slice(0, 5))}`;
}

/** The tools that list or search one directory: a directory (or the base) is listed, anything else refused. */
function directoryReadSlots(): Slot[] {
  const tools: readonly {
    readonly operation: string;
    readonly input: (p: string) => Record<string, unknown>;
    readonly shown: (data: Record<string, unknown>) => readonly unknown[];
  }[] = [
    {
      operation: 'list_directory',
      input: (p) => ({ path: p, recursive: true }),
      shown: (data) => (data.entries as { relative_path: unknown }[]).map((entry) => entry.relative_path),
    },
    { operation: 'directory_tree', input: (p) => ({ path: p }), shown: () => [] },
    {
      operation: 'search_files',
      input: (p) => ({ path: p, pattern: '*.txt' }),
      shown: (data) => (data.matches as { relative_path: unknown }[]).map((match) => match.relative_path),
    },
    {
      operation: 'search_content',
      input: (p) => ({ path: p, query: 'a' }),
      shown: (data) => (data.matches as { path: unknown }[]).map((match) => match.path),
    },
  ];
  return tools.map(({ operation, input, shown }): Slot => ({
    name: `${operation}.path`,
    operation,
    parameter: 'path',
    input,
    expect(c, env) {
      switch (c.kind) {
        case 'dir':
        case 'base':
          return { data: { path: c.display }, after: unchanged(env), check: (data) => under(c.display, shown(data)) };
        case 'file':
          return { code: 'DIRECTORY_NOT_DIRECTORY' };
        default:
          return { code: 'DIRECTORY_NOT_FOUND' };
      }
    },
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// The runner

function expand(template: string, tmp: string, root: string): string {
  return template.replaceAll('{base}', root).replaceAll('{tmp}', tmp).replaceAll('{outside}', path.join(tmp, 'outside'));
}

function caseTitle(testCase: PathCase): string {
  const shown =
    testCase.path.length > 80
      ? `${JSON.stringify(testCase.path.slice(0, 20))}… (${testCase.path.length} characters)`
      : JSON.stringify(testCase.path);
  if (testCase.name !== undefined) return `${shown} (${testCase.name})`;
  return 'refused' in testCase ? `${shown} → ${testCase.refused}` : `${shown} → ${testCase.kind} ${testCase.display}`;
}

function describeEnvelope(envelope: Envelope): string {
  return envelope.ok ? `ok ${JSON.stringify(envelope.data).slice(0, 300)}` : `${envelope.error.code}: ${envelope.error.message}`;
}

/**
 * Runs one case through one slot; returns what went wrong (or undefined) and the tree afterwards. With `checkTree`
 * false (refusals, checked together afterwards) the tree is not read and `tree` is undefined.
 */
async function runSlot(
  slot: Slot,
  testCase: InsideCase | RefusedCase,
  env: Env,
  sessions: { readonly plain: Session; readonly withHistory: Session },
  checkTree: boolean,
): Promise<{ problem: string | undefined; tree: Snapshot | undefined }> {
  const input = slot.input(expand(testCase.path, env.tmp, env.root), 'refused' in testCase ? undefined : testCase, env);
  let envelope: Envelope;
  try {
    envelope = await call(slot.history === true ? sessions.withHistory : sessions.plain, slot.operation, input);
    if (slot.unwrap && envelope.ok) envelope = slot.unwrap(envelope.data as Record<string, unknown>);
  } catch (error) {
    return {
      problem: `${slot.name}: threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      tree: snapshot(env.tmp),
    };
  }
  const expectation: Expectation =
    'refused' in testCase
      ? {
          code:
            testCase.refused === 'outside'
              ? outsideCodeOf(slot)
              : testCase.refused === 'symlink'
                ? 'SYMLINK_OUTSIDE_BASE'
                : 'INVALID_INPUT',
        }
      : slot.expect(testCase, env);
  const problems: string[] = [];
  if (envelope.operation !== slot.operation) problems.push(`operation is ${envelope.operation}`);
  let expectedTree: Snapshot;
  if ('code' in expectation) {
    // A refusal changes nothing, inside the base or out.
    expectedTree = env.before;
    if (envelope.ok || envelope.error.code !== expectation.code)
      problems.push(`expected ${expectation.code}, got ${describeEnvelope(envelope)}`);
  } else {
    expectedTree = expectation.after;
    if (!envelope.ok) problems.push(`expected ok, got ${describeEnvelope(envelope)}`);
    else {
      try {
        assertFields(envelope.data as Record<string, unknown>, expectation.data);
        const problem = expectation.check?.(envelope.data as Record<string, unknown>);
        if (problem !== undefined) problems.push(`data: ${problem}`);
      } catch (error) {
        problems.push(`data: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  const actual = checkTree || problems.length > 0 ? snapshot(env.tmp) : undefined;
  if (actual && !sameTree(actual, expectedTree)) problems.push(`disk differs: ${treeDifference(expectedTree, actual)}`);
  return { problem: problems.length === 0 ? undefined : `${slot.name}: ${problems.join(' | ')}`, tree: actual };
}

/** The code the slot's definition gives for a path outside the base. */
function outsideCodeOf(slot: Slot): string {
  const pathSlot = TOOL_DEFINITIONS.find((tool) => tool.name === slot.operation)?.pathParameters[slot.parameter];
  assert.ok(pathSlot, `${slot.name}: ${slot.operation} has no path parameter ${slot.parameter}`);
  return OUTSIDE_CODE[pathSlot];
}

function treeDifference(expected: Snapshot, actual: Snapshot): string {
  const want = describeSnapshot(expected);
  const got = describeSnapshot(actual);
  const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])].filter((key) => want[key] !== got[key]).sort();
  return keys.map((key) => `${key}: expected ${want[key] ?? 'absent'}, found ${got[key] ?? 'absent'}`).join('; ');
}

for (const mode of ['base given by its real path', 'base reached through a symbolic link'] as const) {
  describe(`path cases × every path slot (${mode})`, function () {
    let tmp = '';
    let root = '';
    let pristine: Snapshot = new Map();
    let sessions: { plain: Session; withHistory: Session };
    let state = '';

    before(function () {
      tmp = makeTempDir('agentfs-paths-');
      state = makeTempDir('agentfs-paths-state-');
      buildFixture(tmp);
      pristine = snapshot(tmp);
      root = path.join(tmp, mode === 'base given by its real path' ? 'base' : 'baselink');
      sessions = { plain: nodeSession(root), withHistory: createNodeSession(root, {}, { stateDirectory: state }) };
    });
    after(function () {
      removeTree(tmp);
      removeTree(state);
    });

    it('has a table of at least 60 cases and a slot for every path parameter of every tool', function () {
      assert.ok(CASES.length >= 60, `only ${CASES.length} cases`);
      const parameters = TOOL_DEFINITIONS.flatMap((tool) =>
        Object.keys(tool.pathParameters).map((parameter) => `${tool.name}.${parameter}`),
      );
      const covered = new Set(SLOTS.map((slot) => `${slot.operation}.${slot.parameter}`));
      assert.deepEqual(
        parameters.filter((each) => !covered.has(each)),
        [],
        'path parameters without a slot',
      );
      for (const slot of SLOTS) outsideCodeOf(slot);
      for (const operation of [
        'read_file',
        'write_file',
        'delete_file',
        'copy_file',
        'move_file',
        'create_directory',
        'delete_directory',
        'copy_directory',
        'move_directory',
        'list_files',
        'path_exists',
      ]) {
        assert.ok(
          covered.has(
            `${operation}.${Object.keys(TOOL_DEFINITIONS.find((tool) => tool.name === operation)?.pathParameters ?? {})[0] ?? ''}`,
          ),
          operation,
        );
      }
    });

    for (const tableCase of CASES) {
      const linkMode = mode === 'base reached through a symbolic link';
      const testCase: InsideCase | RefusedCase =
        linkMode && tableCase.inLinkMode !== undefined ? { path: tableCase.path, refused: tableCase.inLinkMode } : tableCase;
      it(caseTitle({ ...testCase, name: tableCase.name }), async function () {
        const env: Env = { tmp, root, before: pristine };
        const refusal = 'refused' in testCase;
        const run = async (checkEachTree: boolean): Promise<string[]> => {
          const failures: string[] = [];
          for (const slot of SLOTS) {
            const { problem, tree } = await runSlot(slot, testCase, env, sessions, checkEachTree);
            if (problem !== undefined) failures.push(problem);
            // Put the fixture back whenever the call changed it (successes, or a failure that wrote something).
            if (tree && !sameTree(tree, pristine)) restoreFixture(tmp, pristine, tree);
          }
          return failures;
        };
        // Refusals change nothing, so the tree is read once after all slots; should it differ, the slots run again
        // one by one with the tree checked after each, to name the culprit.
        let failures = await run(!refusal);
        if (refusal) {
          const tree = snapshot(tmp);
          if (!sameTree(tree, pristine)) {
            const difference = treeDifference(pristine, tree);
            restoreFixture(tmp, pristine, tree);
            failures = [...(await run(true)), `after all slots: disk differs: ${difference}`];
          }
        }
        if (failures.length > 0) assert.fail(`${failures.length} problem(s):\n${failures.join('\n')}`);
      });
    }
  });
}
