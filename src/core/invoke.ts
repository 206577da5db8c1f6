/**
 * The one path every call takes, from the editor, the runner and the tests: validate → policy → workspace → caps,
 * input checks and paths (tool.ts, `bind`) → run → envelope. The envelope is built here and nowhere else.
 */
import { type Envelope, failure, type Reply, success, WithImage } from './envelope';
import { CancelledError, describeError, type ErrorCode, ToolError } from './errors';
import { type EncodingHost, PLAIN_ENCODING_HOST } from './encoding/host';
import { isFsError } from './ports/fs';
import { HashMemo } from './files/hashing';
import { recordedFailure, runRecorded } from './recording/record';
import type { Origin } from './history/origin';
import type { HistoryStore } from './history/store';
import type { GitEnvironment } from './ports/git';
import type { PathIndex } from './ports/pathIndex';
import type { ContentIndex } from './ports/contentIndex';
import { PathResolver, type Workspace } from './confinement';
import type { ContentSearcher } from './ports/searcher';
import type { Policy } from './settings';
import type { EditorState, HostInfo, ToolContext } from './context';
import { breathing, type Progress, timerTurn } from './signals';
import type { Preparation, Tool, ToolCall } from './tool';
import { findTool } from './tools';
import type { NotebookEditors } from './ports/notebooks';
import type { GrammarSource } from './ports/grammars';
import type { ReferenceProvider } from './ports/references';
import { type HostNaming, renderText, RUNNER_NAMING, toolRef } from './naming';
import { ENGLISH, type Localizer } from './ports/l10n';

/** Where a call gets its workspace and policy; the editor reads settings, the runner its flags. */
export interface Session {
  /** Throws ToolError DIR_NOT_SET or DIR_NOT_AVAILABLE when there is no usable base directory. */
  workspace(): Promise<Workspace>;
  policy(): Policy;
  /** Open editors (the editor layer only); mutating tools refuse to overwrite unsaved changes. */
  readonly editors?: EditorState;
  /** The editor's open notebooks (the editor layer only): edit_notebook changes an open one through the editor. */
  readonly notebooks?: NotebookEditors;
  /** ripgrep where the workspace is on the local disk (src/node/search/ripgrep.ts); absent: search_content scans. */
  readonly contentSearcher?: ContentSearcher;
  /** The warm path index of a long-lived host (the editor, the MCP server); absent: every listing walks the disk. */
  readonly index?: PathIndex;
  /** The warm content index of such a host; absent: search_content reads every file it reaches. */
  readonly contentIndex?: ContentIndex;
  /** What workspace_info reports about the host. */
  readonly host?: HostInfo;
  /** Where mutating calls are recorded for history and undo; absent: nothing is recorded. */
  readonly history?: HistoryStore;
  /** How this host names the tools in the messages it answers with (naming.ts); absent: the runner's bare names. */
  readonly naming?: HostNaming;
  /** The person's language for invocation messages and confirmations (ports/l10n.ts); absent: English. */
  readonly l10n?: Localizer;
  /** The host's encoding settings and codec; absent: UTF-8 unless a BOM says otherwise, no guessing. */
  readonly encodings?: EncodingHost;
  /** Where the parsers' WebAssembly comes from; absent: only Markdown is outlined. */
  readonly grammars?: GrammarSource;
  /** The editor's reference provider; absent: find_references matches whole words. */
  readonly references?: ReferenceProvider;
  /** Where git's per-user config and excludes file are, as the host's environment says; absent: none is read. */
  readonly git?: GitEnvironment;
  /**
   * One turn of the host's event loop, which a long call awaits every BREATH_MS (signals.ts) so that the host reads
   * what came meanwhile (a cancellation, another call); absent: a zero-delay timer.
   */
  readonly turn?: () => Promise<void>;
}

function namingOf(session: Session): HostNaming {
  return session.naming ?? RUNNER_NAMING;
}

/** The refusal as the session's host says it: every message goes out through here or through prepareOperation. */
function refusal(
  session: Session,
  operation: string,
  code: ErrorCode,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): Envelope {
  return failure(operation, code, renderText(message, namingOf(session)), details);
}

/** A call's envelope alone: for callers that pass on no image (a host that can pass one calls invokeForReply). */
export async function invokeOperation(
  operation: string,
  input: unknown,
  session: Session,
  isCancelled: () => boolean = () => false,
  progress?: (progress: Progress) => void,
  origin?: Origin,
): Promise<Envelope> {
  return (await invokeForReply(operation, input, session, isCancelled, progress, origin)).envelope;
}

/**
 * A call's envelope and the image that goes beside it (read_file of an image, on a host whose HostInfo allows it).
 * `origin` says who calls, for the history (history/origin.ts).
 */
export async function invokeForReply(
  operation: string,
  input: unknown,
  session: Session,
  isCancelled: () => boolean = () => false,
  progress?: (progress: Progress) => void,
  origin?: Origin,
): Promise<Reply> {
  const tool = findTool(operation);
  if (!tool) return { envelope: failure(operation, 'INVALID_INPUT', `Unknown operation "${operation}".`) };
  try {
    const { call, context } = await createContext(tool, input, session, isCancelled, progress, origin);
    const result = await runRecorded(tool, call, context);
    if (result instanceof WithImage) return { envelope: success(tool.name, result.data), image: result.image };
    return { envelope: success(tool.name, result) };
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    // A failed call that changed something anyway is recorded (record.ts): its refusal names the record.
    const recorded = recordedFailure(error);
    const refuse = (code: ErrorCode, message: string, details?: Readonly<Record<string, unknown>>): Reply => ({
      envelope:
        recorded === undefined
          ? refusal(session, tool.name, code, message, details)
          : refusal(
              session,
              tool.name,
              code,
              `${message} What it changed before it failed is recorded as operation ${recorded}; ${toolRef('undo_operation')} with that id puts it back.`,
              { ...details, recorded_operation_id: recorded },
            ),
    });
    if (error instanceof ToolError) return refuse(error.code, error.message, error.details);
    if (isFsError(error, 'cross-device'))
      return refuse('CROSS_DEVICE_MOVE_UNSUPPORTED', `The move crosses file systems, which is not supported: ${describeError(error)}`);
    return refuse(tool.failureCode, `${toolRef(tool.name)} failed: ${describeError(error)}`);
  }
}

/** What the editor shows before a call. A refusal the call would give is shown as the invocation message. */
export async function prepareOperation(operation: string, input: unknown, session: Session): Promise<Preparation> {
  const tool = findTool(operation);
  if (!tool) return { invocationMessage: `Unknown Agent FS operation ${operation}` };
  try {
    const { call, context } = await createContext(tool, input, session, () => false);
    const preparation = await call.prepare(context);
    const render = (text: string): string => renderText(text, context.naming);
    const { confirmation } = preparation;
    return session.policy().confirmDestructive && confirmation
      ? {
          invocationMessage: render(preparation.invocationMessage),
          confirmation: { title: render(confirmation.title), message: render(confirmation.message) },
          ...(preparation.preview ? { preview: preparation.preview } : {}),
        }
      : { invocationMessage: render(preparation.invocationMessage) };
  } catch (error) {
    // The call itself will answer with the refusal; nothing to confirm for a call that changes nothing.
    if (error instanceof ToolError) {
      const message = renderText(error.message, namingOf(session));
      return { invocationMessage: refusalLine(operation, error.code, message), refusal: { code: error.code, message } };
    }
    return { invocationMessage: `Agent FS ${labelOf(operation)}` };
  }
}

function labelOf(operation: string): string {
  return findTool(operation)?.title ?? operation;
}

/**
 * "Read File refused: File does not exist: notes/a.md. (FILE_NOT_FOUND)": what a person sees for a call that will
 * not run. Only the first sentence of the message (the rest tells the model what to do instead), hashes shortened.
 */
export function refusalLine(operation: string, code: ErrorCode, message: string): string {
  const sentence = (/^.*?[.!?](?=\s|$)/s.exec(message)?.[0] ?? message).replace(/\b(sha256:)?([0-9a-f]{8})[0-9a-f]{56}\b/g, '$1$2…');
  const short = sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence;
  return `${labelOf(operation)} refused: ${short} (${code})`;
}

async function createContext(
  tool: Tool,
  input: unknown,
  session: Session,
  isCancelled: () => boolean,
  progress?: (progress: Progress) => void,
  origin?: Origin,
): Promise<{ call: ToolCall; context: ToolContext }> {
  const accepted = tool.accept(input);
  const policy = session.policy();
  if (tool.effect !== 'read') {
    if (!policy.trusted) {
      throw new ToolError(
        'WORKSPACE_UNTRUSTED',
        `${toolRef(tool.name)} changes files, which Agent FS does not do in an untrusted workspace. Trust the workspace to allow it.`,
      );
    }
    if (policy.readOnly) {
      throw new ToolError('READ_ONLY_MODE', `${toolRef(tool.name)} changes files, and Agent FS is read-only (${policy.wording.readOnly}).`);
    }
  }
  const workspace = await session.workspace();
  const context: ToolContext = {
    workspace,
    paths: new PathResolver(workspace),
    policy,
    editors: session.editors,
    ...(session.notebooks ? { notebooks: session.notebooks } : {}),
    contentSearcher: session.contentSearcher,
    ...(session.index ? { index: session.index } : {}),
    ...(session.contentIndex ? { contentIndex: session.contentIndex } : {}),
    host: session.host,
    history: session.history,
    ...(origin ? { origin } : {}),
    naming: namingOf(session),
    l10n: session.l10n ?? ENGLISH,
    encodings: session.encodings ?? PLAIN_ENCODING_HOST,
    ...(session.git ? { git: session.git } : {}),
    ...(session.grammars ? { grammars: session.grammars } : {}),
    ...(session.references ? { references: session.references } : {}),
    hashes: new HashMemo(),
    isCancelled,
    ...(progress ? { progress } : {}),
    breathe: breathing(session.turn ?? timerTurn, isCancelled),
  };
  return { call: await accepted.bind(context), context };
}
