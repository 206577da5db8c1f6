/**
 * Where git keeps what decides what it ignores outside the workspace (its config files, the global excludes file):
 * the host knows (src/node/host/gitEnvironment.ts), the ignore rules read them (walk/ignore/sources.ts).
 */

/** Where git keeps, outside any repository, what decides what it ignores, as the host finds it (its environment). */
export interface GitEnvironment {
  /** The user's home folder, for `~/` in core.excludesFile; undefined where there is none. */
  readonly home: string | undefined;
  /** The config files git reads before a repository's own, lowest precedence first: the system's, then the user's. */
  readonly configFiles: readonly string[];
  /** The excludes file git reads while core.excludesFile is not set ($XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore). */
  readonly defaultExcludesFile: string | undefined;
}

/** A host without a user environment (a browser, a virtual workspace): only the files inside the workspace count. */
export const NO_GIT_ENVIRONMENT: GitEnvironment = { home: undefined, configFiles: [], defaultExcludesFile: undefined };
