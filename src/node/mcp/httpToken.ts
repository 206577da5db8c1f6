/**
 * The bearer token of the MCP server over HTTP. One per state folder, so the editor's "Connect Another Agent…" and
 * every server started on that folder agree on it without being told: made once, readable only by its owner.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';

/** Where the token is kept in the state folder. */
export const TOKEN_FILE = 'mcp-http-token';
/** The environment variable a token may come from instead. */
export const TOKEN_VARIABLE = 'AGENT_FS_MCP_TOKEN';
/** Shorter tokens are refused: a guessable token would guard nothing. */
const MIN_TOKEN_LENGTH = 16;

export interface TokenSource {
  readonly token: string;
  /** Where it came from, for the log: the file, the variable, or the state file. */
  readonly from: string;
}

/**
 * The state folder's token, made if there is none. Written under another name and linked into place, so a server
 * starting at the same moment never reads a half-written file, and the first link wins for both.
 */
export function stateToken(stateDirectory: string): TokenSource | string {
  const file = nodePath.join(stateDirectory, TOKEN_FILE);
  try {
    fs.mkdirSync(stateDirectory, { recursive: true, mode: 0o700 });
    if (!fs.existsSync(file)) {
      const staged = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      fs.writeFileSync(staged, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
      try {
        fs.linkSync(staged, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      } finally {
        fs.rmSync(staged, { force: true });
      }
    }
    const token = fs.readFileSync(file, 'utf8').trim();
    if (token.length < MIN_TOKEN_LENGTH) return `the token file ${file} holds no token; delete it and start again`;
    return { token, from: file };
  } catch (error) {
    return `cannot keep a token in ${file}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The server's token: from --token-file, else the environment variable, else the state folder's. */
export function httpToken(tokenFile: string | undefined, stateDirectory: string | undefined): TokenSource | string {
  if (tokenFile !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(tokenFile, 'utf8');
    } catch (error) {
      return `--token-file ${tokenFile} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
    }
    const token = text.trim();
    if (token.length < MIN_TOKEN_LENGTH) return `--token-file ${tokenFile} must hold a token of at least ${MIN_TOKEN_LENGTH} characters`;
    return { token, from: tokenFile };
  }
  const variable = process.env[TOKEN_VARIABLE]?.trim();
  if (variable !== undefined && variable !== '') {
    if (variable.length < MIN_TOKEN_LENGTH) return `${TOKEN_VARIABLE} must hold a token of at least ${MIN_TOKEN_LENGTH} characters`;
    return { token: variable, from: `$${TOKEN_VARIABLE}` };
  }
  if (stateDirectory === undefined)
    return `--http with --no-history needs --token-file FILE or $${TOKEN_VARIABLE}: there is no state folder to keep a token in`;
  return stateToken(stateDirectory);
}
