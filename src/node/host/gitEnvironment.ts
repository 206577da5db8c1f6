/**
 * Where git keeps its per-user settings, as git itself finds them from the environment: the system config
 * ($GIT_CONFIG_SYSTEM, /etc/gitconfig; none with $GIT_CONFIG_NOSYSTEM), the user's ($GIT_CONFIG_GLOBAL, else
 * $XDG_CONFIG_HOME/git/config then ~/.gitconfig), and the default global excludes file ($XDG_CONFIG_HOME/git/ignore,
 * else ~/.config/git/ignore). The core reads the files (core/ignore/sources.ts); this only says where they are.
 */
import * as os from 'node:os';
import type { GitEnvironment } from '../../core/ports/git';
import { toPosixPath } from '../fs/nativePaths';

/** git's reading of a boolean environment variable: set and not a false word. */
function envTrue(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

export function gitEnvironment(env: NodeJS.ProcessEnv = process.env): GitEnvironment {
  const homeNative = env.HOME ?? (process.platform === 'win32' ? env.USERPROFILE : undefined) ?? os.homedir();
  const home = homeNative ? toPosixPath(homeNative) : undefined;
  const xdg = env.XDG_CONFIG_HOME ? toPosixPath(env.XDG_CONFIG_HOME) : home === undefined ? undefined : `${home}/.config`;
  const system = envTrue(env.GIT_CONFIG_NOSYSTEM)
    ? []
    : env.GIT_CONFIG_SYSTEM
      ? [toPosixPath(env.GIT_CONFIG_SYSTEM)]
      : process.platform === 'win32'
        ? []
        : ['/etc/gitconfig'];
  const user =
    env.GIT_CONFIG_GLOBAL !== undefined
      ? env.GIT_CONFIG_GLOBAL === ''
        ? []
        : [toPosixPath(env.GIT_CONFIG_GLOBAL)]
      : [...(xdg === undefined ? [] : [`${xdg}/git/config`]), ...(home === undefined ? [] : [`${home}/.gitconfig`])];
  return { home, configFiles: [...system, ...user], defaultExcludesFile: xdg === undefined ? undefined : `${xdg}/git/ignore` };
}
