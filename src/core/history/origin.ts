/**
 * Where a recorded change came from: the host that ran it, the agent that asked for it and the session it belongs to.
 *
 * What each part is worth: the host is the process that recorded it (true by construction). The session is minted
 * by that host, one per MCP connection or chat session (a random id the agent never sees before its first change and
 * cannot choose), except the runner's, which is the caller's --session value under a prefix of its own. The agent is
 * what the client says it is (MCP clientInfo) and the label is whatever the caller sent: both are for finding
 * changes, never for deciding anything. Undoing a session goes by its id alone.
 *
 * `outside` is no host: it marks a change Agent FS did not make (a formatter, a shell command, `git checkout`, the
 * person), seen at the next recorded call on the file (recording/outside.ts). Each such record is a session of its
 * own, so pruning and a session's undo take it alone.
 */

export type OriginHost = 'editor' | 'mcp' | 'runner' | 'outside';

export interface Origin {
  readonly host: OriginHost;
  /** The agent's name as its client gives it ("claude-code"), or how the editor knows it ("VS Code chat"). */
  readonly agent: string;
  readonly agent_version?: string;
  /** One per MCP connection, per chat session in the editor, per --session value (or process) in the runner. */
  readonly session: string;
  /** A caller-given label (Filekeeper's actor / task_id): a filter, never authority. */
  readonly label?: string;
}

/** Session ids, and the form a runner's --session value must have (it becomes part of one). */
export const SESSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,79}$/;
const TEXT_MAX = 120;

/** A fresh session id for a host that mints its own: `<host>-<random>`. */
export function newSessionId(host: OriginHost): string {
  let token = '';
  while (token.length < 10) token += Math.random().toString(36).slice(2);
  return `${host}-${token.slice(0, 10)}`;
}

/** Who made a change seen made outside Agent FS: nobody it can name. */
export function outsideOrigin(): Origin {
  return { host: 'outside', agent: 'outside Agent FS', session: newSessionId('outside') };
}

/** Text from a client (a name, a version, a label), kept short and printable; undefined when there is none. */
export function clientText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Control characters (and the line breaks among them) cannot reach a log line or a list.
  const text = value.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return text === '' ? undefined : text.slice(0, TEXT_MAX);
}

/** "claude-code 2.1.0", or "unknown agent" for a record written before origins were kept. */
export function agentText(origin: Origin | undefined): string {
  if (!origin) return 'unknown agent';
  return origin.agent_version === undefined ? origin.agent : `${origin.agent} ${origin.agent_version}`;
}

/** Whether a record's origin matches an `agent` filter: its agent (name or "name version") or its label, any case. */
export function matchesAgent(origin: Origin | undefined, wanted: string): boolean {
  const want = wanted.trim().toLowerCase();
  if (!origin) return want === 'unknown';
  return [origin.agent, agentText(origin), origin.label ?? ''].some((each) => each.toLowerCase() === want);
}
