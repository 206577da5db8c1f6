/**
 * One policy for every agent on a workspace. The editor publishes what it enforces — its base directory, read-only
 * mode and trust, the protected, hidden and exclude patterns, and the files open with unsaved changes — into the
 * state folder it shares with the agents "Connect Another Agent…" connects (the history folder their server gets as
 * --state). The MCP server and the runner read it on every call and apply it on top of their own flags.
 *
 *   <state>/policy.json   { "format": "agent-fs-policy/1", "written": ISO time, "policy": {…}, "sha256": hex }
 *
 * Invariants:
 *  - A published policy only narrows: roots are the overlap of the host's and the editor's, read-only and untrusted
 *    are either side's, patterns are the union of both. No file, whatever it says, makes a host looser than its flags.
 *  - A file that is there but is not exactly what an editor writes — unreadable, not JSON, another format, a missing,
 *    extra or mistyped field, or a digest that does not match its content — is refused whole (PolicyFileError), and
 *    the host then refuses every call: it fails closed rather than guess which part still holds.
 *
 * What the digest is for: it catches a file cut short, corrupted, or edited by hand or by a program that did not
 * recompute it. It is no signature: any process running as the user can read what it covers and write a matching
 * one. The agent cannot, through these tools (the state folder lies outside every root); an agent with a shell of
 * its own could, and then gets at most back to the host's own flags, since a policy only narrows.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { isWithin } from '../paths';
import type { Policy, PolicyWording } from '../settings';

export const POLICY_FILE_NAME = 'policy.json';
const POLICY_FORMAT = 'agent-fs-policy/1';

/** What the editor enforces, as another host needs it. Paths are the core's absolute POSIX paths. */
export interface PublishedPolicy {
  /** The base directories the editor's tools reach (agentFs.baseDirectory applied); empty when it has none. */
  readonly roots: readonly string[];
  /** Why the editor has no base directory (its DIR_NOT_SET or DIR_NOT_AVAILABLE message), when `roots` is empty. */
  readonly unavailable: string | null;
  readonly readOnly: boolean;
  readonly trusted: boolean;
  readonly protectedPaths: readonly string[];
  readonly hiddenPaths: readonly string[];
  readonly exclude: readonly string[];
  readonly searchExclude: readonly string[];
  /** Files open in an editor with unsaved changes: no tool may change them (FILE_DIRTY_IN_EDITOR). */
  readonly dirtyEditors: readonly string[];
}

const FIELDS: Readonly<Record<keyof PublishedPolicy, 'strings' | 'boolean' | 'message'>> = {
  roots: 'strings',
  unavailable: 'message',
  readOnly: 'boolean',
  trusted: 'boolean',
  protectedPaths: 'strings',
  hiddenPaths: 'strings',
  exclude: 'strings',
  searchExclude: 'strings',
  dirtyEditors: 'strings',
};

/** Why a policy file cannot be used, as a clause: "is not valid JSON", "does not match its digest", … */
export class PolicyFileError extends Error {}

function digest(format: string, written: string, policy: PublishedPolicy): string {
  return bytesToHex(sha256(new TextEncoder().encode(JSON.stringify({ format, written, policy }))));
}

/** The policy in the order and shape the digest covers, whatever order the caller built it in. */
function canonical(policy: PublishedPolicy): PublishedPolicy {
  return {
    roots: [...policy.roots],
    unavailable: policy.unavailable,
    readOnly: policy.readOnly,
    trusted: policy.trusted,
    protectedPaths: [...policy.protectedPaths],
    hiddenPaths: [...policy.hiddenPaths],
    exclude: [...policy.exclude],
    searchExclude: [...policy.searchExclude],
    dirtyEditors: [...policy.dirtyEditors],
  };
}

/** The file's text for `policy`, written at `written`. */
export function policyFileText(policy: PublishedPolicy, written: Date): string {
  const body = canonical(policy);
  const time = written.toISOString();
  return `${JSON.stringify({ format: POLICY_FORMAT, written: time, policy: body, sha256: digest(POLICY_FORMAT, time, body) }, null, 2)}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function exactKeys(value: Record<string, unknown>, keys: readonly string[], what: string): void {
  const extra = Object.keys(value).filter((key) => !keys.includes(key));
  const missing = keys.filter((key) => !(key in value));
  if (extra.length > 0)
    throw new PolicyFileError(`has ${what} field${extra.length > 1 ? 's' : ''} an editor never writes (${extra.join(', ')})`);
  if (missing.length > 0) throw new PolicyFileError(`lacks ${what} field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
}

/** Reads a policy file's text; throws PolicyFileError saying why it is not one an editor wrote. */
export function readPolicyFile(text: string): { readonly policy: PublishedPolicy; readonly written: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PolicyFileError('is not valid JSON');
  }
  if (!isObject(parsed)) throw new PolicyFileError('is not a JSON object');
  if (parsed.format !== POLICY_FORMAT) throw new PolicyFileError(`is not in the format ${POLICY_FORMAT}`);
  exactKeys(parsed, ['format', 'written', 'policy', 'sha256'], 'a top-level');
  const { written, policy, sha256: claimed } = parsed;
  if (typeof written !== 'string' || Number.isNaN(Date.parse(written))) throw new PolicyFileError('has no valid "written" time');
  if (typeof claimed !== 'string') throw new PolicyFileError('has no digest');
  if (!isObject(policy)) throw new PolicyFileError('has no "policy" object');
  exactKeys(policy, Object.keys(FIELDS), 'a policy');
  for (const [key, kind] of Object.entries(FIELDS)) {
    const value = policy[key];
    const fits =
      kind === 'boolean'
        ? typeof value === 'boolean'
        : kind === 'message'
          ? value === null || typeof value === 'string'
          : Array.isArray(value) && value.every((each) => typeof each === 'string');
    if (!fits)
      throw new PolicyFileError(
        `has a "${key}" that is not ${kind === 'boolean' ? 'true or false' : kind === 'message' ? 'a message or null' : 'a list of strings'}`,
      );
  }
  const checked = policy as unknown as PublishedPolicy;
  if (digest(POLICY_FORMAT, written, checked) !== claimed)
    throw new PolicyFileError('does not match its digest (it was changed after the editor wrote it)');
  if (checked.roots.some((root) => !root.startsWith('/')) || checked.dirtyEditors.some((file) => !file.startsWith('/')))
    throw new PolicyFileError('names a path that is not absolute');
  return { policy: checked, written };
}

/** How refusals that come from a published setting name it: the editor's setting, which this host follows. */
function sharedWording(own: PolicyWording, ownPolicy: Policy, published: PublishedPolicy, host: string): PolicyWording {
  const follows = `which this ${host} follows`;
  return {
    readOnly: ownPolicy.readOnly || !published.readOnly ? own.readOnly : `VS Code's setting agentFs.readOnly, ${follows}`,
    maxReadBytes: own.maxReadBytes,
    protectedPaths: `VS Code's agentFs.protectedPaths, ${follows} (with its own defaults)`,
    hiddenPaths: `VS Code's agentFs.hiddenPaths, ${follows} (with its own defaults)`,
    pathRuleRemedy: `only the user can change these settings, in VS Code's user settings; the ${host} then follows them`,
    history: own.history,
  };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** The host's own policy made as strict as the editor's: never looser than `own` in any respect. */
export function narrowedPolicy(own: Policy, published: PublishedPolicy, host: string): Policy {
  return {
    ...own,
    readOnly: own.readOnly || published.readOnly,
    trusted: own.trusted && published.trusted,
    protectedPaths: union(own.protectedPaths, published.protectedPaths),
    hiddenPaths: union(own.hiddenPaths, published.hiddenPaths),
    exclude: union(own.exclude, published.exclude),
    searchExclude: union(own.searchExclude, published.searchExclude),
    wording: sharedWording(own.wording, own, published, host),
  };
}

/**
 * Compares paths as the platform's disks usually do: case-insensitively where `caseInsensitive` (Windows, macOS,
 * where VS Code also writes a drive letter in lower case whatever the folder was opened as).
 */
function pathKey(path: string, caseInsensitive: boolean): string {
  return caseInsensitive ? path.toLowerCase() : path;
}

/**
 * The host's directories narrowed to the editor's roots: a directory inside one of them stays; one that holds some
 * of them is replaced by those; one that shares nothing with them is dropped. Returns indexes into `own` or
 * published roots, so the caller can keep its own form of each path. Empty when nothing is left.
 */
export function narrowedRoots(
  own: readonly string[],
  published: PublishedPolicy,
  caseInsensitive: boolean,
): readonly ({ readonly own: number } | { readonly published: number })[] {
  const key = (path: string): string => pathKey(path, caseInsensitive);
  const out: ({ own: number } | { published: number })[] = [];
  const taken = new Set<string>();
  const add = (path: string, entry: { own: number } | { published: number }): void => {
    if (taken.has(key(path))) return;
    taken.add(key(path));
    out.push(entry);
  };
  for (const [index, directory] of own.entries()) {
    if (published.roots.some((root) => isWithin(key(root), key(directory)))) {
      add(directory, { own: index });
      continue;
    }
    for (const [inner, root] of published.roots.entries()) if (isWithin(key(directory), key(root))) add(root, { published: inner });
  }
  return out;
}

/** Whether the editor has `absolute` open with unsaved changes. */
export function isDirtyInEditor(published: PublishedPolicy, absolute: string, caseInsensitive: boolean): boolean {
  const wanted = pathKey(absolute, caseInsensitive);
  return published.dirtyEditors.some((file) => pathKey(file, caseInsensitive) === wanted);
}
