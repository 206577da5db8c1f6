/**
 * Which entries the listing and search tools leave out, and how many they left out.
 *
 * An entry is skipped as *ignored* (counted, and shown again with `include_ignored: true`) when it is
 *  - a `.git` directory or file, at any depth;
 *  - ignored by git's rules, with git's sources and precedence: the .gitignore files from the root down (and, up to the
 *    top of the repository's work tree, those above it), then the repository's info/exclude, then the user's global
 *    excludes file — a deeper file and a later line winning, and nothing re-included below an ignored directory
 *    (sources.ts finds the sources, ignoreFile.ts reads them, wildmatch.ts matches their patterns);
 *  - matched by a glob of `policy.exclude` (VS Code's files.exclude and agentFs.exclude), or, for the search tools,
 *    of `policy.searchExclude` (search.exclude).
 * An entry matched by `policy.hiddenPaths` is skipped always, whatever `include_ignored` says, and is not counted:
 * those are secrets (policy.ts), not clutter.
 *
 * The exclude and hidden globs are path rules of glob.ts, so one pattern means the same in every setting and in a
 * walk as in a check of one path.
 *
 * Walks check each entry once, when they meet it: a skipped directory is not descended, so everything inside it is
 * skipped with it and the directory counts as one ignored entry — which is how git keeps a negation from
 * re-including anything below an ignored directory.
 *
 * Over 300 lines: one rule set, with the caches that make it cheap per entry beside the rules they cache.
 */
import type { DirEntry } from '../../ports/fs';
import { type GlobList, globList } from '../../policy/glob';
import { holdListing, internKey, isHeldListing } from '../memo';
import { dirname, isWithin, relativeTo } from '../../paths';
import type { Root } from '../../confinement';
import type { ToolContext } from '../../context';
import type { IgnoreFile } from './ignoreFile';
import { NO_GIT_ENVIRONMENT } from '../../ports/git';
import { GITIGNORE, gitignorePath, type IgnoreBase, loadIgnoreBase, readRuleFile, type RuleLink } from './sources';

export interface IgnoreOptions {
  /** `include_ignored`: show what .git, the ignore files and the exclude settings would hide (hiddenPaths still apply). */
  readonly includeIgnored: boolean;
  /** Apply search.exclude too (the search tools). */
  readonly search: boolean;
}

/** The rule files a path is asked, lowest precedence first: the sources beside the root, then .gitignore files root-down. */
type RuleChain = readonly RuleLink[];

/** A listing entry that knows its absolute path (the path index keeps them so). */
interface PathedEntry extends DirEntry {
  readonly absolute: string;
}

/**
 * What `visibleEntries` found for one listing, by the rules in force: a listing the path index hands out is the same
 * array for as long as its directory is unchanged, so a walk over the index decides each entry once per set of
 * rules, not once per call. Pure memoisation: the key holds everything a decision depends on (the root, the options,
 * the globs, the rule files in force, dot files), and a listing's entry goes with its array.
 */
const visibleByListing = new WeakMap<
  readonly DirEntry[],
  Map<string, { readonly entries: readonly DirEntry[]; readonly ignored: number }>
>();
/** Rule sets remembered per listing: more than a session switches between (include_ignored, search or not, dot files). */
export const RULE_SETS_KEPT = 8;
/** Whether a listing holds a .gitignore file, by listing (the same reasoning). */
const gitignoreInListing = new WeakMap<readonly DirEntry[], boolean>();
/** A number per rule file, for the memo keys (files are shared by content, so equal texts share one). */
const ruleFileIds = new WeakMap<IgnoreFile, number>();
let nextRuleFileId = 0;

/** Any character outside ASCII: the pre-check's regexes are exact for ASCII names only, so such a name takes the full check. */
const NON_ASCII = '[^\\x00-\\x7f]';

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
  /** The sources beside the root's own .gitignore files, loaded by `prepare`. */
  private base: IgnoreBase | undefined;
  private readonly chains = new Map<string, RuleChain>();
  private readonly loading = new Map<string, Promise<RuleChain>>();
  /**
   * The chain every entry of the current walk shares while no directory below its start has a .gitignore of its
   * own (the common case): saves a path slice and a map lookup per entry. Cleared by the first nested one.
   */
  private walkChain: RuleChain | undefined;
  /** Per chain in force: the one regex every name that some rule could skip matches; null where there is none. */
  private readonly quickChecks = new Map<RuleChain | undefined, RegExp | null>();
  /** The directory whose entries `skips` saw last, and its quick check: a walk checks a directory's entries in a row. */
  private lastParent: string | undefined;
  private lastQuick: RegExp | null = null;
  /** ruleKey's answers per chain in force, without and with dot files. */
  private readonly ruleKeys = new Map<RuleChain | undefined, string>();
  private readonly ruleKeysWithDotFiles = new Map<RuleChain | undefined, string>();

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

  /** Whether any ignore file counts (the editor's search.useIgnoreFiles); the exclude settings apply either way. */
  get readsIgnoreFiles(): boolean {
    return !this.options.includeIgnored && this.context.policy.ignoreFiles.enabled;
  }

  /**
   * Loads the sources beside the root (sources.ts) and the .gitignore files of `directory` and every directory above
   * it up to the root, so a walk that starts below the root still honours them. Call before walking from
   * `directory`, or checking a path (excludesPath).
   */
  async prepare(directory: string): Promise<void> {
    if (this.options.includeIgnored) return;
    this.base = await loadIgnoreBase(
      this.context.workspace.fs,
      this.root.path,
      this.context.git ?? NO_GIT_ENVIRONMENT,
      this.context.policy.ignoreFiles,
    );
    this.walkChain = await this.chainFor(directory);
  }

  /**
   * For walkTree's `enterDirectory`: loads the directory's own .gitignore before its entries are checked. `parent`
   * is its parent directory, for a caller that has it at hand.
   */
  enterDirectory = (directory: string, entries: readonly DirEntry[], parent = dirname(directory)): Promise<void> | undefined => {
    if (this.options.includeIgnored || this.chains.has(directory)) return undefined;
    const known = this.chains.get(parent) ?? (directory === this.root.path ? this.prepared().links : undefined);
    const hasOwn = holdsGitignore(entries) && this.context.policy.ignoreFiles.enabled;
    // The common case, a directory without a .gitignore under one already entered, needs no I/O: no promise either.
    if (known && !hasOwn) {
      this.chains.set(directory, known);
      return undefined;
    }
    return (async () => {
      const above = known ?? (await this.chainFor(parent));
      const own = hasOwn ? await this.loadGitignore(directory) : undefined;
      if (own) this.walkChain = undefined;
      this.chains.set(directory, own ? [...above, { directory, file: own, inRoot: true }] : above);
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
   * an opaque value, the same one for the same text (ignoreFile.ts). A memo that must learn whether a .gitignore
   * below its top changed compares it with readGitignore's at a later call.
   */
  ownGitignore(directory: string): object | undefined {
    const link = this.chains.get(directory)?.at(-1);
    return link?.inRoot && link.directory === directory ? link.file : undefined;
  }

  /** The .gitignore of `directory` as it reads now, as ownGitignore gives it. */
  readGitignore(directory: string): Promise<object | undefined> {
    return this.loadGitignore(directory);
  }

  /** Everything a `skips` decision depends on besides the entry, as one string (per chain, computed once a call). */
  private ruleKey(chain: RuleChain | undefined, includeDotFiles: boolean): string {
    const keys = includeDotFiles ? this.ruleKeysWithDotFiles : this.ruleKeys;
    let known = keys.get(chain);
    if (known === undefined) {
      const chainKey =
        chain === undefined
          ? '-'
          : chain
              .map(({ directory, file }) => {
                let id = ruleFileIds.get(file);
                if (id === undefined) {
                  id = nextRuleFileId++;
                  ruleFileIds.set(file, id);
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

  private quickCheck(chain: RuleChain | undefined): RegExp | null {
    let known = this.quickChecks.get(chain);
    if (known === undefined) {
      known = this.buildQuickCheck(chain);
      this.quickChecks.set(chain, known);
    }
    return known;
  }

  /**
   * One case-insensitive regex that matches every name which hiddenPaths, the exclude globs, `.git` or a rule file of
   * `chain` could skip, and every name outside ASCII; or null when some rule needs more than the name (or cannot be
   * translated with certainty): then every entry takes the full check. It may match more names than are skipped
   * (the full check decides those), never fewer. The rule files' filters are exact over byte strings, which an
   * ASCII name is; ignoring case only widens them.
   */
  private buildQuickCheck(chain: RuleChain | undefined): RegExp | null {
    const sources: (readonly string[] | undefined)[] = [this.hidden.nameSources];
    if (!this.options.includeIgnored) {
      if (!chain) return null;
      sources.push(
        ['^\\.git$'],
        this.exclude.nameSources,
        ...chain.map(({ file }) => (file.nameFilter === undefined ? undefined : [file.nameFilter])),
      );
    }
    const all: string[] = [];
    for (const each of sources) {
      if (each === undefined) return null;
      all.push(...each);
    }
    return new RegExp([...all.map((source) => `(?:${source})`), NON_ASCII].join('|'), 'i');
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

  /** What the rule files in force say of the path: the deepest with a verdict decides, as in git. */
  private gitignored(absolute: string, name: string, isDirectory: boolean, known?: RuleChain): boolean {
    const chain = known ?? this.chains.get(dirname(absolute));
    if (!chain) return false;
    for (let index = chain.length - 1; index >= 0; index--) {
      const link = chain[index];
      if (!link) continue;
      const verdict = link.file.verdict(() => relativeTo(link.directory, absolute), name, isDirectory);
      if (verdict !== undefined) return verdict === 'ignored';
    }
    return false;
  }

  private prepared(): IgnoreBase {
    if (!this.base) throw new Error('IgnoreRules: prepare() was not called');
    return this.base;
  }

  private chainFor(directory: string): Promise<RuleChain> {
    const known = this.chains.get(directory);
    if (known) return Promise.resolve(known);
    let pending = this.loading.get(directory);
    if (!pending) {
      pending = (async () => {
        const inside = isWithin(this.root.path, directory);
        const parent = directory === this.root.path || !inside ? this.prepared().links : await this.chainFor(dirname(directory));
        const own = inside ? await this.loadGitignore(directory) : undefined;
        const chain: RuleChain = own ? [...parent, { directory, file: own, inRoot: true }] : parent;
        this.chains.set(directory, chain);
        return chain;
      })();
      this.loading.set(directory, pending);
    }
    return pending;
  }

  private async loadGitignore(directory: string): Promise<IgnoreFile | undefined> {
    if (!this.context.policy.ignoreFiles.enabled) return undefined;
    return readRuleFile(this.context.workspace.fs, gitignorePath(directory), this.prepared().casefold, false);
  }
}
