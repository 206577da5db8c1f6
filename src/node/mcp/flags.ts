/**
 * The MCP server's command line: its usage text, and its flags — those the runner shares (host/options.ts) and the
 * server's own: how it asks the person, and where and how it listens.
 */
import { TOKEN_FILE, TOKEN_VARIABLE } from './httpToken';
import { type HttpAddress, parseHttpAddress } from './httpAddress';
import { CONFIRM_MODES, type ConfirmMode } from './server';
import { type HostOptions, parseHostOptions } from '../host/options';

export const USAGE = `Usage: agent-fs-mcp [--root DIR]... [--read-only] [--max-read-bytes N] [--state DIR | --no-history] [--no-index] [--no-content-index]
                    [--durability full|fast] [--confirm elicit|never|require] [--http [HOST:]PORT [--token-file FILE] [--allow-remote]]
Serves the Agent FS tools to an MCP client over stdio (or HTTP), confined to DIR (default: the current directory;
several --root: a multi-root workspace). A client's roots narrow DIR over stdio; they never widen it.
  --read-only        list only the read tools; every tool that changes files answers READ_ONLY_MODE
  --max-read-bytes N the most file bytes one read returns (default 262144)
  --state DIR        keep the change history in DIR (the editor's, to share it); default: a folder per root under
                     $XDG_STATE_HOME/agent-fs or ~/.local/state/agent-fs
  --no-history       record nothing
  --history-max-bytes N  the most bytes of replaced content the history keeps (default 52428800)
  --history-max-age-days N  sessions whose last change is older than N days go (default 30)
  --durability MODE  full (default): each change is on the disk, synced, before its answer, in the workspace and in
                     the history; fast: nothing is synced (still atomic), for throwaway trees and tests
  --encoding NAME    read files without a BOM in NAME unless a guess says otherwise, and write new files in it
                     (default utf-8; VS Code's encoding names)
  --no-guess-encoding  do not guess the encoding of files without a BOM
  --no-index         keep no index of the roots' paths in memory: every listing and search walks the disk
                     (the index answers the same, faster, once built after the first call; Linux only)
  --no-content-index keep no index of the files' text: content searches read every file they reach (the index
                     answers the same, reading only the files that may match)
  --no-ignore-files  show what ignore files hide: read no .gitignore, .git/info/exclude or global excludes
  --no-ignore-global read no global excludes file (core.excludesFile, ~/.config/git/ignore)
  --no-ignore-parent read no .gitignore above a root (they count up to the repository's top)
  --confirm MODE     elicit (default): ask the person through the client before deleting or replacing anything,
                     where the client can ask, else leave it to the client's own approval; never: do not ask;
                     require: refuse such calls (CONFIRMATION_DECLINED) when the client cannot ask
  --http [HOST:]PORT serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (HOST default 127.0.0.1; PORT 0:
                     any free port). Every request needs Authorization: Bearer <token>; the token is generated once
                     into the state folder's ${TOKEN_FILE} (mode 0600) unless given
  --token-file FILE  take the token from FILE (or from $${TOKEN_VARIABLE})
  --allow-remote     let HOST be an address other machines reach (0.0.0.0, a LAN address): anyone there with the
                     token gets every tool on DIR
Logs go to stderr.`;

/** Reads `argv` (the arguments after the script); a string says what is wrong with them. */
export function parseServerFlags(
  argv: readonly string[],
):
  | { options: HostOptions; confirm: ConfirmMode; http: HttpAddress | undefined; tokenFile: string | undefined; allowRemote: boolean }
  | string {
  let confirm: ConfirmMode = 'elicit';
  let http: HttpAddress | undefined;
  let tokenFile: string | undefined;
  let allowRemote = false;
  const options = parseHostOptions(argv, (argument, flag, value) => {
    if (flag === '--http') {
      const address = parseHttpAddress(value() ?? '');
      if (typeof address === 'string') return address;
      http = address;
    } else if (flag === '--token-file') {
      tokenFile = value();
      if (tokenFile === undefined || tokenFile === '') return '--token-file needs a file';
    } else if (flag === '--allow-remote') {
      allowRemote = true;
    } else if (flag === '--confirm') {
      const mode = value();
      if (!CONFIRM_MODES.includes(mode as ConfirmMode)) return `--confirm needs one of ${CONFIRM_MODES.join(', ')}`;
      confirm = mode as ConfirmMode;
    } else return `unknown argument ${argument}`;
    return undefined;
  });
  return typeof options === 'string' ? options : { options, confirm, http, tokenFile, allowRemote };
}
