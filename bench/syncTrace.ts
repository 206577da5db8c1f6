/**
 * The durable sequence as the kernel sees it: `npm run trace:syncs` runs one call of every change path
 * (syncTraceCalls.ts, history on) under `strace -f -y`, and checks in the trace, call by call (between the markers
 * the process writes before the call and after its reply), what the crash-state checker (test/unit/crashStates.test.ts)
 * proves on a model of the disk:
 *
 * - every file renamed to a visible name was fsynced before the rename, and every file created under its own name
 *   before the reply;
 * - every folder that gained, lost or renamed an entry was fsynced after its last change and before the reply (one
 *   the call removed needs none: its parent's sync keeps that it went);
 * - the history's pack was fsynced before the first change to the workspace (the intent before the change).
 *
 * It runs the calls twice: with durability full, where every call must pass, and with durability fast (no syncs),
 * where every call must fail the check, which proves the check sees a missing sync. Exit code 1 otherwise. Needs
 * strace (Linux: `apt-get install strace`). The lock folder and the store's trash are left out: what is in them is not
 * data (locks.ts and store.ts say why).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** One system call that succeeded: where its line started and ended in the trace (a call can be cut by another thread's). */
interface Event {
  readonly name: string;
  readonly args: string;
  /** The quoted strings among its arguments (paths). */
  readonly strings: readonly string[];
  /** The path of its first argument, where that is a file descriptor (`strace -y`). */
  readonly fdPath: string | undefined;
  readonly start: number;
  readonly end: number;
}

interface CallTrace {
  readonly label: string;
  readonly events: Event[];
}

interface Verdict {
  readonly label: string;
  readonly problems: readonly string[];
  readonly fsyncs: number;
  /** Syncs of files it wrote (not the pack), of folders it changed, of the pack. */
  readonly files: number;
  readonly folders: number;
  readonly pack: number;
}

const TRACED = 'openat,write,pwrite64,fsync,fdatasync,rename,renameat,renameat2,mkdir,mkdirat,unlink,unlinkat,rmdir,link,linkat';
const STAGING = /^\..*\.agentfs-[a-z]+-[0-9a-z-]+$/;

/** Not under a staging name: a name another process (or a reader after a crash) could see. */
const visible = (file: string): boolean => !file.split('/').some((part) => STAGING.test(part));

/** A string as strace quotes it: `\n`, `\t`, `\"` and `\\` escaped. */
function unquote(text: string): string {
  return text.replace(/\\([nt"\\])/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped));
}

/** The successful calls of an `strace -f -y` log, each with its start and end, in the order they ended. */
function parse(log: string): Event[] {
  const pending = new Map<string, { head: string; start: number }>();
  const events: Event[] = [];
  log.split('\n').forEach((raw, line) => {
    const match = /^(\d+) +(.*)$/.exec(raw);
    if (!match) return;
    const [, pid = '', text = ''] = match;
    if (text.endsWith('<unfinished ...>')) {
      pending.set(pid, { head: text.slice(0, -'<unfinished ...>'.length), start: line });
      return;
    }
    let whole = text;
    let start = line;
    const resumed = /^<\.\.\. (\w+) resumed>(.*)$/.exec(text);
    if (resumed) {
      const head = pending.get(pid);
      pending.delete(pid);
      whole = (head?.head ?? `${resumed[1] ?? ''}(`) + (resumed[2] ?? '');
      start = head?.start ?? line;
    }
    const call = /^(\w+)\((.*)\)\s+=\s+(-?\d+)/.exec(whole);
    if (!call || Number(call[3]) < 0) return;
    const [, name = '', args = ''] = call;
    const strings = [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((found) => unquote(found[1] ?? ''));
    const fdPath = /^\d+<([^>]*)>/.exec(args)?.[1];
    events.push({ name, args, strings, fdPath, start, end: line });
  });
  return events;
}

/** The events of each call, between its BEGIN and ACK markers (written to `markers`). */
function split(events: readonly Event[], markers: string): CallTrace[] {
  const calls: CallTrace[] = [];
  let current: CallTrace | undefined;
  for (const event of events) {
    if (event.name === 'write' && event.fdPath === markers) {
      const marker = /^(BEGIN|ACK) (.*)\n$/.exec(event.strings[0] ?? '');
      if (marker?.[1] === 'BEGIN') current = { label: marker[2] ?? '', events: [] };
      else if (marker?.[1] === 'ACK' && current) {
        calls.push(current);
        current = undefined;
      }
    } else current?.events.push(event);
  }
  return calls;
}

function check(call: CallTrace, root: string): Verdict {
  const base = `${root}/base/`;
  const inScope = (file: string | undefined): file is string =>
    file !== undefined && (file === root || file.startsWith(`${root}/`)) && !file.startsWith(`${root}/locks`) && !file.includes('/trash');
  const written = new Set<string>();
  /** Files created under a visible name, which must be synced before the reply. */
  const createdVisible = new Set<string>();
  const folderChanged = new Map<string, number>();
  const syncs = call.events.filter((event) => (event.name === 'fsync' || event.name === 'fdatasync') && inScope(event.fdPath));
  const problems: string[] = [];
  let firstVisible: number | undefined;
  const changeFolder = (file: string, at: number): void => {
    folderChanged.set(path.dirname(file), at);
    if (file.startsWith(base)) firstVisible ??= at;
  };
  for (const event of call.events) {
    const [first, second] = event.strings;
    if (event.name === 'openat' && /O_CREAT/.test(event.args) && inScope(first)) {
      written.add(first);
      // The pack is created once and appended to after; its folder's sync is the first call's, not each one's.
      if (visible(first) && path.basename(first) !== 'pack') {
        createdVisible.add(first);
        changeFolder(first, event.end);
      }
    } else if ((event.name === 'write' || event.name === 'pwrite64') && inScope(event.fdPath)) {
      written.add(event.fdPath);
    } else if (event.name.startsWith('rename') && (inScope(first) || inScope(second)) && first !== undefined && second !== undefined) {
      if (visible(first) || visible(second)) {
        changeFolder(first, event.end);
        changeFolder(second, event.end);
      }
      if (written.has(first) && visible(second) && !syncs.some((sync) => sync.fdPath === first && sync.end < event.start))
        problems.push(`${path.relative(root, second)} was renamed into place before its bytes were synced`);
      createdVisible.delete(first);
    } else if (['mkdir', 'mkdirat', 'unlink', 'unlinkat', 'rmdir', 'link', 'linkat'].includes(event.name)) {
      const file = event.name.startsWith('link') ? second : first;
      if (inScope(file) && visible(file)) changeFolder(file, event.end);
    }
  }
  for (const file of createdVisible)
    if (!syncs.some((sync) => sync.fdPath === file)) problems.push(`${path.relative(root, file)} was created and never synced`);
  const removed = (folder: string, after: number): boolean =>
    call.events.some(
      (event) =>
        event.start > after &&
        (event.name === 'rmdir' || (event.name === 'unlinkat' && /AT_REMOVEDIR/.test(event.args))) &&
        event.strings[0] === folder,
    );
  let folders = 0;
  for (const [folder, at] of folderChanged) {
    if (syncs.some((sync) => sync.fdPath === folder && sync.start > at)) folders++;
    else if (!removed(folder, at)) problems.push(`${path.relative(root, folder) || '.'} changed and was not synced after`);
  }
  const packSyncs = syncs.filter((sync) => sync.fdPath?.endsWith('/pack'));
  if (firstVisible !== undefined && !packSyncs.some((sync) => sync.end < (firstVisible ?? 0)))
    problems.push('the workspace changed before the history pack was synced');
  return {
    label: call.label,
    problems,
    fsyncs: syncs.length,
    files: syncs.filter((sync) => sync.fdPath !== undefined && written.has(sync.fdPath) && !sync.fdPath.endsWith('/pack')).length,
    folders,
    pack: packSyncs.length,
  };
}

function trace(durability: 'full' | 'fast'): Verdict[] {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-sync-trace-')));
  try {
    const log = path.join(root, 'strace.log');
    const markers = path.join(root, 'markers.txt');
    const markerFd = fs.openSync(markers, 'w');
    const calls = path.join(__dirname, 'syncTraceCalls.js');
    const run = spawnSync(
      'strace',
      ['-f', '-y', '-qq', '-s', '4096', '-e', `trace=${TRACED}`, '-o', log, process.execPath, calls, root, durability],
      {
        stdio: ['ignore', 'inherit', 'inherit', markerFd],
      },
    );
    fs.closeSync(markerFd);
    if (run.error) throw new Error(`strace could not start (${run.error.message}): install it (apt-get install strace)`);
    if (run.status !== 0) throw new Error(`the traced calls failed (exit ${String(run.status)})`);
    return split(parse(fs.readFileSync(log, 'utf8')), markers).map((call) => check(call, root));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function main(): void {
  let failed = false;
  const full = trace('full');
  process.stdout.write('durability full: every change path, each fsync it made before its reply\n\n');
  process.stdout.write('| call | fsyncs | files written | folders changed | pack | verdict |\n|---|---:|---:|---:|---:|---|\n');
  for (const verdict of full) {
    process.stdout.write(
      `| ${verdict.label} | ${verdict.fsyncs} | ${verdict.files} | ${verdict.folders} | ${verdict.pack} | ${verdict.problems.length === 0 ? 'synced' : verdict.problems.join('; ')} |\n`,
    );
    if (verdict.problems.length > 0) failed = true;
  }
  const fast = trace('fast');
  const missed = fast.filter((verdict) => verdict.problems.length === 0).map((verdict) => verdict.label);
  process.stdout.write(
    `\ndurability fast (no syncs), which every call must fail: ${fast.length - missed.length} of ${fast.length} failed${missed.length > 0 ? `; passed: ${missed.join(', ')}` : ''}\n`,
  );
  if (missed.length > 0 || fast.length !== full.length || full.length === 0) failed = true;
  process.stdout.write(failed ? 'FAILED\n' : 'every change path synced what it changed before its reply\n');
  process.exitCode = failed ? 1 : 0;
}

main();
