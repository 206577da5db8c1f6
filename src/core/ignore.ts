/**
 * Which entries the listing and search tools leave out, and how many they left out.
 *
 * An entry is skipped as *ignored* (counted, and shown again with `include_ignored: true`) when it is
 *  - a `.git` directory or file, at any depth;
 *  - matched by a .gitignore file in its directory or any directory above it up to the root (nested files, with
 *    git's precedence: the deepest file that has an opinion decides; `!negations` work within a file);
 *  - matched by a glob of `policy.exclude` (VS Code's files.exclude and agentFs.exclude), or, for the search tools,
 *    of `policy.searchExclude` (search.exclude).
 * An entry matched by `policy.hiddenPaths` is skipped always, whatever `include_ignored` says, and is not counted:
 * those are secrets (policy.ts), not clutter.
 *
 * The exclude and hidden globs are path rules of glob.ts, so one pattern means the same in every setting and in a
 * walk as in a check of one path.
 *
 * Walks check each entry once, when they meet it: a skipped directory is not descended, so everything inside it is
 * skipped with it and the directory counts as one ignored entry.
 *
 * Over 300 lines: one rule set, with the caches that make it cheap per entry beside the rules they cache.
 */
import ignore, { type Ignore } from 'ignore';
import type { DirEntry } from './fs';
import { type GlobList, globList } from './glob';
import { holdListing, internKey, isHeldListing } from './memo';
import { dirname, isWithin, relativeTo } from './paths';
import type { Root } from './confinement';
import type { ToolContext } from './context';

export interface IgnoreOptions {
  /** `include_ignored`: show what .git, .gitignore and the exclude settings would hide (hiddenPaths still apply). */
  readonly includeIgnored: boolean;
  /** Apply search.exclude too (the search tools). */
  readonly search: boolean;
}

interface Gitignore {
  readonly rules: Ignore;
  /**
   * No rule has a '/' before its end, so every rule matches a name at any depth: testing the entry's name alone is
   * the same as testing its path, and far cheaper (`ignore` re-checks every parent of a path it has not seen).
   */
  readonly byName: boolean;
  /** Answers by name, for byName files: names repeat across directories far more than paths do. */
  readonly answers: Map<string, { readonly ignored: boolean; readonly unignored: boolean }>;
  /**
   * A regex source (case-insensitive, as `ignore` is by default) matching every name some rule could match, for
   * byName files whose rules are plain enough to translate with certainty; undefined otherwise.
   */
  readonly nameFilter: string | undefined;
}

/** A name-only rule body this module can translate: ASCII name characters and the wildcards `*` and `?`. */
const PLAIN_RULE = /^[A-Za-z0-9._\-*?+@%,=~]+$/;

/**
 * A superset of the names a byName .gitignore can match: each rule as an anchored regex where `*` and `?` match any
 * characters (a negation or a trailing '/' only narrows what a rule matches, so both are dropped). Undefined as soon
 * as one rule holds anything else (escapes, classes, spaces, non-ASCII): those keep the exact path only.
 */
function nameFilterOf(text: string): string | undefined {
  const alternatives: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    const body = line.replace(/^!/, '').replace(/\/+$/, '');
    if (!PLAIN_RULE.test(body)) return undefined;
    alternatives.push(body.replace(/[.+]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.'));
  }
  return alternatives.length === 0 ? '(?!)' : `^(?:${alternatives.join('|')})$`;
}

/**
 * Parsed .gitignore files by their text. The answers depend on the text alone, so calls share them (a repository's
 * .gitignore files rarely change between two listings): pure memoisation, bounded, no state of any one call.
 */
const parsedGitignores = new Map<string, Gitignore>();
const PARSED_GITIGNORES_KEPT = 256;
/** Names remembered per .gitignore: more than a large repository has distinct names. */
const ANSWERS_KEPT = 200_000;

function parseGitignore(text: string): Gitignore {
  const known = parsedGitignores.get(text);
  if (known) return known;
  const byName = text.split(/\r?\n/).every((line) => {
    const rule = line.trim();
    return rule === '' || rule.startsWith('#') || !rule.replace(/^!/, '').replace(/\/+$/, '').includes('/');
  });
  const parsed: Gitignore = {
    rules: ignore({ allowRelativePaths: true }).add(text),
    byName,
    answers: new Map(),
    nameFilter: byName ? nameFilterOf(text) : undefined,
  };
  if (parsedGitignores.size >= PARSED_GITIGNORES_KEPT) parsedGitignores.clear();
  parsedGitignores.set(text, parsed);
  return parsed;
}

/** [directory, its .gitignore] from the root down to one directory. */
type GitignoreChain = readonly (readonly [string, Gitignore])[];

/** A listing entry that knows its absolute path (the path index keeps them so). */
interface PathedEntry extends DirEntry {
  readonly absolute: string;
}

/**
 * What `visibleEntries` found for one listing, by the rules in force: a listing the path index hands out is the same
 * array for as long as its directory is unchanged, so a walk over the index decides each entry once per set of
 * rules, not once per call. Pure memoisation: the key holds everything a decision depends on (the root, the options,
 * the globs, the .gitignore files from the root down, dot files), and a listing's entry goes with its array.
 */
const visibleByListing = new WeakMap<
  readonly DirEntry[],
  Map<string, { readonly entries: readonly DirEntry[]; readonly ignored: number }>
>();
/** Rule sets remembered per listing: more than a session switches between (include_ignored, search or not, dot files). */
export const RULE_SETS_KEPT = 8;
/** Whether a listing holds a .gitignore file, by listing (the same reasoning). */
const gitignoreInListing = new WeakMap<readonly DirEntry[], boolean>();
/** A number per parsed .gitignore, for the memo keys (parsed files are shared by text, so equal texts share one). */
const gitignoreIds = new WeakMap<Gitignore, number>();
let nextGitignoreId = 0;

export const GITIGNORE = '.gitignore';

/** Whether a listing holds a .gitignore file (remembered by listing). */
export function holdsGitignore(entries: readonly DirEntry[]): boolean {
  let holds = gitignoreInListing.get(entries);
  if (holds === undefined) {
    holds = entries.some((entry) => entry.name === GITIGNORE && entry.kind === 'file');
    gitignoreInListing.set(entries, holds);
  }
  return holds;
}

/** The rules for one walk (or one result check) under one root. Built per call; keeps the count of skipped entries. */
export class IgnoreRules {
  /** Entries skipped as ignored so far (a skipped directory counts once). */
  ignoredCount = 0;
  private readonly exclude: GlobList;
  private readonly hidden: GlobList;
  private readonly chains = new Map<string, GitignoreChain>();
  private readonly loading = new Map<string, Promise<GitignoreChain>>();
  /**
   * The chain every entry of the current walk shares while no directory below its start has a .gitignore of its
   * own (the common case): saves a path slice and a map lookup per entry. Cleared by the first nested one.
   */
  private walkChain: GitignoreChain | undefined;
  /** Per chain in force: the one regex every name that some rule could skip matches; null where there is none. */
  private readonly quickChecks = new Map<GitignoreChain | undefined, RegExp | null>();
  /** The directory whose entries `skips` saw last, and its quick check: a walk checks a directory's entries in a row. */
  private lastParent: string | undefined;
  private lastQuick: RegExp | null = null;
  /** ruleKey's answers per chain in force, without and with dot files. */
  private readonly ruleKeys = new Map<GitignoreChain | undefined, string>();
  private readonly ruleKeysWithDotFiles = new Map<GitignoreChain | undefined, string>();

  constructor(
    private readonly context: ToolContext,
    readonly root: Root,
    readonly options: IgnoreOptions,
  ) {
    const { policy } = context;
    this.exclude = globList(options.search ? [...policy.exclude, ...policy.searchExclude] : policy.exclude);
    this.hidden = globList(policy.hiddenPaths);
  }

  /** The exclude globs in force (normalised), for an engine that applies them itself; empty with include_ignored. */
  get excludeGlobs(): readonly string[] {
    return this.options.includeIgnored ? [] : this.exclude.globs;
  }

  get hiddenGlobs(): readonly string[] {
    return this.hidden.globs;
  }

  /**
   * Loads the .gitignore files of `directory` and every directory above it up to the root, so a walk that starts
   * below the root still honours them. Call before walking from `directory`.
   */
  async prepare(directory: string): Promise<void> {
    if (this.options.includeIgnored) return;
    this.walkChain = await this.chainFor(directory);
  }

  /**
   * For walkTree's `enterDirectory`: loads the directory's own .gitignore before its entries are checked. `parent`
   * is its parent directory, for a caller that has it at hand.
   */
  enterDirectory = (directory: string, entries: readonly DirEntry[], parent = dirname(directory)): Promise<void> | undefined => {
    if (this.options.includeIgnored || this.chains.has(directory)) return undefined;
    const known = this.chains.get(parent) ?? (directory === this.root.path ? [] : undefined);
    const hasOwn = holdsGitignore(entries);
    // The common case, a directory without a .gitignore under one already entered, needs no I/O: no promise either.
    if (known && !hasOwn) {
      this.chains.set(directory, known);
      return undefined;
    }
    return (async () => {
      const above = known ?? (await this.chainFor(parent));
      const own = hasOwn ? await this.loadGitignore(directory) : undefined;
      if (own) this.walkChain = undefined;
      this.chains.set(directory, own ? [...above, [directory, own]] : above);
    })();
  };

  /**
   * Whether a walk must skip this entry (its directory's rules are loaded, its ancestors already passed).
   * Counts it when it is skipped as ignored.
   */
  skips(absolute: string, name: string, isDirectory: boolean, parent: string): boolean {
    if (parent !== this.lastParent) {
      this.lastParent = parent;
      this.lastQuick = this.quickCheck(this.walkChain ?? this.chains.get(parent));
    }
    // Nearly every entry of a walk matches no rule at all: one regex test on its name says so.
    if (this.lastQuick !== null && !this.lastQuick.test(name)) return false;
    // Most patterns look at the name only; the relative path is built only for those that do not.
    const relative = this.hidden.needsPath || this.exclude.needsPath ? relativeTo(this.root.path, absolute) : '';
    if (this.hidden.matchesEntry(relative, name, isDirectory)) return true;
    if (this.options.includeIgnored) return false;
    if (
      name === '.git' ||
      this.exclude.matchesEntry(relative, name, isDirectory) ||
      this.gitignored(absolute, name, isDirectory, this.walkChain)
    ) {
      this.ignoredCount++;
      return true;
    }
    return false;
  }

  /**
   * The entries of `parent`'s listing a walk shows — `skips` said no to each, and dot files are left out unless
   * `includeDotFiles` — counting the ignored ones as `skips` does. Its directory's rules must be loaded (as for
   * `skips`). Memoised by listing and rules (see visibleByListing), so pass the same array for the same listing.
   */
  visibleEntries<T extends PathedEntry>(parent: string, entries: readonly T[], includeDotFiles: boolean): readonly T[] {
    const key = this.ruleKey(this.walkChain ?? this.chains.get(parent), includeDotFiles);
    let byRules = visibleByListing.get(entries);
    const known = byRules?.get(key);
    if (known) {
      this.ignoredCount += known.ignored;
      return known.entries as readonly T[];
    }
    const before = this.ignoredCount;
    const kept: T[] = [];
    for (const entry of entries) {
      if (!includeDotFiles && entry.name.startsWith('.')) continue;
      if (this.skips(entry.absolute, entry.name, entry.kind === 'directory' && !entry.isSymlink, parent)) continue;
      kept.push(entry);
    }
    // A listing read from the disk for this call alone: nothing to remember it by.
    if (!isHeldListing(entries)) return kept;
    holdListing(kept);
    if (!byRules || byRules.size >= RULE_SETS_KEPT) {
      byRules = new Map();
      visibleByListing.set(entries, byRules);
    }
    byRules.set(key, { entries: kept, ignored: this.ignoredCount - before });
    return kept;
  }

  /**
   * The key of the rules that decide the entries of `directory` and, as far as the rules above it go, of everything
   * below it (ruleKey): for a memo of whole subtrees (listing.ts). Call after enterDirectory(directory).
   */
  keyFor(directory: string, includeDotFiles: boolean): string {
    return this.ruleKey(this.walkChain ?? this.chains.get(directory), includeDotFiles);
  }

  /**
   * The .gitignore of `directory` that these rules read (enterDirectory loaded it), or undefined where none loaded:
   * an opaque value, the same one for the same text (parsedGitignores). A memo that must learn whether a .gitignore
   * below its top changed compares it with readGitignore's at a later call.
   */
  ownGitignore(directory: string): object | undefined {
    const link = this.chains.get(directory)?.at(-1);
    return link?.[0] === directory ? link[1] : undefined;
  }

  /** The .gitignore of `directory` as it reads now, as ownGitignore gives it. */
  readGitignore(directory: string): Promise<object | undefined> {
    return this.loadGitignore(directory);
  }

  /** Everything a `skips` decision depends on besides the entry, as one string (per chain, computed once a call). */
  private ruleKey(chain: GitignoreChain | undefined, includeDotFiles: boolean): string {
    const keys = includeDotFiles ? this.ruleKeysWithDotFiles : this.ruleKeys;
    let known = keys.get(chain);
    if (known === undefined) {
      const chainKey =
        chain === undefined
          ? '-'
          : chain
              .map(([directory, gitignore]) => {
                let id = gitignoreIds.get(gitignore);
                if (id === undefined) {
                  id = nextGitignoreId++;
                  gitignoreIds.set(gitignore, id);
                }
                return `${directory}\u0001${id}`;
              })
              .join('\u0002');
      known = internKey(
        [
          includeDotFiles ? 'dot files' : 'no dot files',
          this.root.path,
          this.options.includeIgnored ? 'all' : 'rules',
          this.hidden.globs.join('\u0001'),
          this.options.includeIgnored ? '' : this.exclude.globs.join('\u0001'),
          chainKey,
        ].join('\u0000'),
      );
      keys.set(chain, known);
    }
    return known;
  }

  private quickCheck(chain: GitignoreChain | undefined): RegExp | null {
    let known = this.quickChecks.get(chain);
    if (known === undefined) {
      known = this.buildQuickCheck(chain);
      this.quickChecks.set(chain, known);
    }
    return known;
  }

  /**
   * One case-insensitive regex that matches every name which hiddenPaths, the exclude globs, `.git` or a .gitignore
   * of `chain` could skip, or null when some rule needs more than the name (or cannot be translated with certainty):
   * then every entry takes the full check. It may match more names than are skipped (the full check decides those),
   * never fewer.
   */
  private buildQuickCheck(chain: GitignoreChain | undefined): RegExp | null {
    const sources: (readonly string[] | undefined)[] = [this.hidden.nameSources];
    if (!this.options.includeIgnored) {
      if (!chain) return null;
      sources.push(
        ['^\\.git$'],
        this.exclude.nameSources,
        ...chain.map(([, gitignore]) => (gitignore.nameFilter === undefined ? undefined : [gitignore.nameFilter])),
      );
    }
    const all: string[] = [];
    for (const each of sources) {
      if (each === undefined) return null;
      all.push(...each);
    }
    return new RegExp(all.length === 0 ? '(?!)' : all.map((source) => `(?:${source})`).join('|'), 'i');
  }

  /** The full check, ancestors included, for a path that did not come from this walk (a ripgrep result). */
  async excludesPath(absolute: string, isDirectory: boolean): Promise<boolean> {
    const relative = relativeTo(this.root.path, absolute);
    if (relative === '') return false;
    if (this.hidden.matchesPath(relative, isDirectory)) return true;
    if (this.options.includeIgnored) return false;
    const segments = relative.split('/');
    if (segments.includes('.git') || this.exclude.matchesPath(relative, isDirectory)) return true;
    // Each ancestor against the rules of the directories above it, then the path itself.
    let path = this.root.path;
    for (let index = 0; index < segments.length; index++) {
      path = path === '/' ? `/${segments[index] ?? ''}` : `${path}/${segments[index] ?? ''}`;
      const last = index === segments.length - 1;
      await this.chainFor(dirname(path));
      if (this.gitignored(path, segments[index] ?? '', last ? isDirectory : true)) return true;
    }
    return false;
  }

  private gitignored(absolute: string, name: string, isDirectory: boolean, known?: GitignoreChain): boolean {
    const chain = known ?? this.chains.get(dirname(absolute));
    if (!chain) return false;
    // The deepest .gitignore with an opinion decides, as in git.
    for (let index = chain.length - 1; index >= 0; index--) {
      const link = chain[index];
      if (!link) continue;
      const [directory, gitignore] = link;
      let result;
      if (gitignore.byName) {
        const key = isDirectory ? `${name}/` : name;
        result = gitignore.answers.get(key);
        if (!result) {
          result = gitignore.rules.test(key);
          if (gitignore.answers.size >= ANSWERS_KEPT) gitignore.answers.clear();
          gitignore.answers.set(key, result);
        }
      } else {
        const relative = relativeTo(directory, absolute);
        result = gitignore.rules.test(isDirectory ? `${relative}/` : relative);
      }
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }

  private chainFor(directory: string): Promise<GitignoreChain> {
    const known = this.chains.get(directory);
    if (known) return Promise.resolve(known);
    let pending = this.loading.get(directory);
    if (!pending) {
      pending = (async () => {
        const parent = directory === this.root.path || !isWithin(this.root.path, directory) ? [] : await this.chainFor(dirname(directory));
        const own = isWithin(this.root.path, directory) ? await this.loadGitignore(directory) : undefined;
        const chain: GitignoreChain = own ? [...parent, [directory, own]] : parent;
        this.chains.set(directory, chain);
        return chain;
      })();
      this.loading.set(directory, pending);
    }
    return pending;
  }

  private async loadGitignore(directory: string): Promise<Gitignore | undefined> {
    const path = directory === '/' ? `/${GITIGNORE}` : `${directory}/${GITIGNORE}`;
    const { fs } = this.context.workspace;
    try {
      const stat = await fs.stat(path);
      // A .gitignore that is a link is not followed: its target might be outside the base.
      if (stat?.kind !== 'file' || stat.isSymlink) return undefined;
      return parseGitignore(new TextDecoder().decode(await fs.readFile(path)));
    } catch {
      // An unreadable .gitignore hides nothing; the listing itself reports real I/O failures.
      return undefined;
    }
  }
}
