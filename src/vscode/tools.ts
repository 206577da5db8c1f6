/**
 * Registers every tool with vscode.lm.registerTool, under the editor's name for it (EDITOR_NAMING, as its manifest entry
 * was generated with). Each invocation takes the core's one path (invokeForReply), whose messages the session renders
 * with the same naming; this file only translates between VS Code's types and the core's.
 */
import * as vscode from 'vscode';
import type { Envelope, Reply } from '../core/envelope';
import { CancelledError } from '../core/errors';
import { invokeForReply, prepareOperation, refusalLine, type Session } from '../core/invoke';
import { EDITOR_NAMING } from '../core/naming';
import { contentHash } from '../core/files/hashing';
import { newSessionId, type Origin } from '../core/history/origin';
import { findTool, TOOL_DEFINITIONS } from '../core/tools';
import type { Preparation } from '../core/tool';
import { imagePart } from './images';
import type { CallLog } from './log';
import { type ChangePreviews, type ShownPreview } from './preview';
import { DiagnosticsWatch, problemsAfter, problemsMode, watchWrites, type WrittenFile } from './problems';

/** Calls prepared but not yet invoked, remembered until their invoke: whether the chat already showed a refusal. */
const PENDING_LIMIT = 64;

export class ToolHost {
  private readonly prepared = new Map<string, boolean>();

  constructor(
    private readonly session: Session,
    private readonly log: CallLog,
    /** Where a confirmation's whole change is shown before the person answers (preview.ts). */
    private readonly previews: ChangePreviews,
    /** Called after every call that finished, so views can refresh. */
    private readonly onDidInvoke: (operation: string, envelope: Envelope) => void = () => undefined,
  ) {}

  register(): vscode.Disposable[] {
    return TOOL_DEFINITIONS.map((tool) => {
      const operation = tool.name;
      const effect = tool.effect;
      return vscode.lm.registerTool<unknown>(EDITOR_NAMING.toolName(operation), {
        prepareInvocation: async (options) => {
          const { preparation, preview } = await this.prepareInvocation(operation, options.input);
          return toPrepared(preparation, preview);
        },
        invoke: async (options, token) => {
          const shownAsRefused = this.recall(operation, options.input);
          const origin =
            options.toolInvocationToken === undefined && this.byPerson(operation)
              ? this.windowOrigin('person')
              : this.chatOrigin(options.toolInvocationToken);
          const { envelope, image } = await this.invokeForReply(operation, options.input, token, origin);
          // The chat shows only what prepareInvocation said ("Writing a.txt"); a change refused during the call would
          // pass for one that happened, so the person is told here. A read changes nothing either way, and calls from
          // outside a chat answer their caller.
          if (!envelope.ok && !shownAsRefused && effect !== 'read' && options.toolInvocationToken !== undefined) {
            void vscode.window.showWarningMessage(`Agent FS: ${refusalLine(operation, envelope.error.code, envelope.error.message)}`);
          }
          const result = new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(envelope))]);
          // The session refuses images where imagePart is missing, so an image here always has its part. (1.100's
          // constructor is typed for text parts only; its `content` takes any part.)
          if (image && imagePart) result.content.push(imagePart(image));
          return result;
        },
      });
    });
  }

  private static key(operation: string, input: unknown): string {
    return `${operation} ${JSON.stringify(input)}`;
  }

  private remember(operation: string, input: unknown, refused: boolean): void {
    this.prepared.set(ToolHost.key(operation, input), refused);
    // Bounded: a prepare that is never followed by its invoke (the person skipped it) must not pile up.
    for (const key of this.prepared.keys()) {
      if (this.prepared.size <= PENDING_LIMIT) break;
      this.prepared.delete(key);
    }
  }

  /**
   * Calls the person is about to make through vscode.lm.invokeTool (Run Tool…), by operation: recorded as the
   * person's. By operation alone, since VS Code may hand the tool an input it completed (defaults filled in).
   */
  private readonly personCalls = new Map<string, number>();

  /** The next invocation of `operation` outside a chat is the person's own (Run Tool…). */
  expectPerson(operation: string): void {
    this.personCalls.set(operation, Math.min(PENDING_LIMIT, (this.personCalls.get(operation) ?? 0) + 1));
  }

  /** Whether an invocation outside a chat is one the person started; it counts once. */
  private byPerson(operation: string): boolean {
    const waiting = this.personCalls.get(operation) ?? 0;
    if (waiting === 0) return false;
    if (waiting === 1) this.personCalls.delete(operation);
    else this.personCalls.set(operation, waiting - 1);
    return true;
  }

  private recall(operation: string, input: unknown): boolean {
    const key = ToolHost.key(operation, input);
    const refused = this.prepared.get(key) ?? false;
    this.prepared.delete(key);
    return refused;
  }

  prepare(operation: string, input: unknown): Promise<Preparation> {
    return prepareOperation(operation, input, this.session);
  }

  /**
   * What the registered tool's prepareInvocation does: the preparation, and for a confirmation that carries the whole
   * change, that change opened in the multi-file diff editor before the card shows (a preview that cannot open leaves
   * the card's own diff to decide by).
   */
  async prepareInvocation(operation: string, input: unknown): Promise<{ preparation: Preparation; preview?: ShownPreview }> {
    const preparation = await this.prepare(operation, input);
    this.remember(operation, input, preparation.refusal !== undefined);
    if (!preparation.confirmation || !preparation.preview) return { preparation };
    const preview = await this.previews.show(preparation.preview).then(
      (shown) => shown,
      () => undefined,
    );
    return preview ? { preparation, preview } : { preparation };
  }

  /**
   * A call exactly as a model's, minus VS Code's confirmation UI; throws vscode.CancellationError on cancel. Its
   * changes are recorded as the person's (the commands call this), in this window's session.
   */
  async invoke(operation: string, input: unknown, token?: vscode.CancellationToken): Promise<Envelope> {
    return (await this.invokeForReply(operation, input, token, this.windowOrigin('person'))).envelope;
  }

  /** This window's own sessions: the person's commands, and the tools other extensions invoke outside any chat. */
  private readonly windowSessions = { person: newSessionId('editor'), 'another extension': newSessionId('editor') };

  private windowOrigin(agent: 'person' | 'another extension'): Origin {
    return { host: 'editor', agent, session: this.windowSessions[agent] };
  }

  /**
   * Who invoked a tool. All a published extension learns of the chat is the opaque toolInvocationToken (which
   * participant or agent asked is proposed API); VS Code hands the same token content to every call of one chat
   * session (it names the session), so a digest of it tells the sessions apart. No token: invoked outside a chat.
   */
  private chatOrigin(token: unknown): Origin {
    if (token === undefined) return this.windowOrigin('another extension');
    let text: string;
    try {
      text = JSON.stringify(token) ?? '';
    } catch {
      // A token that cannot be written out tells no session apart: the window's.
      return this.windowOrigin('another extension');
    }
    const digest = contentHash(new TextEncoder().encode(text)).replace(/^sha256:/, '');
    return { host: 'editor', agent: 'VS Code chat', agent_version: vscode.version, session: `chat-${digest.slice(0, 12)}` };
  }

  private async invokeForReply(
    operation: string,
    input: unknown,
    token: vscode.CancellationToken | undefined,
    origin: Origin,
  ): Promise<Reply> {
    const startedAt = performance.now();
    if (token?.isCancellationRequested) throw new vscode.CancellationError();
    try {
      // A call that may change files is watched, so its result can say what problems the change caused.
      const mode = findTool(operation)?.effect === 'read' ? 'off' : problemsMode(vscode.workspace.workspaceFolders?.[0]?.uri);
      const watch = mode === 'off' ? undefined : new DiagnosticsWatch();
      try {
        const written: WrittenFile[] = [];
        const session = watch === undefined ? this.session : watchWrites(this.session, (file) => written.push(file));
        const reply = await invokeForReply(operation, input, session, () => token?.isCancellationRequested ?? false, undefined, origin);
        const { envelope } = reply;
        this.log.record(operation, startedAt, envelope);
        this.onDidInvoke(operation, envelope);
        if (watch === undefined || !envelope.ok || written.length === 0) return reply;
        const problems = await problemsAfter(written, watch, mode, token);
        if (problems === undefined) return reply;
        return { ...reply, envelope: { ...envelope, data: { ...(envelope.data as Record<string, unknown>), problems } } };
      } finally {
        watch?.dispose();
      }
    } catch (error) {
      if (error instanceof CancelledError) {
        this.log.record(operation, startedAt, 'cancelled');
        throw new vscode.CancellationError();
      }
      throw error;
    }
  }
}

/**
 * VS Code's chat shows a completed call with the same check mark whatever its result, and stable API offers no
 * way to change the line after the call: a refusal known beforehand is marked in the line itself.
 */
function toPrepared(preparation: Preparation, preview?: ShownPreview): vscode.PreparedToolInvocation {
  const { confirmation, refusal } = preparation;
  const invocationMessage = refusal
    ? new vscode.MarkdownString('$(error) ', true).appendText(preparation.invocationMessage)
    : preparation.invocationMessage;
  if (!confirmation) return { invocationMessage };
  const message = new vscode.MarkdownString(confirmation.message);
  if (preview) message.appendMarkdown('\n\n').appendText(vscode.l10n.t('Every change is shown in the editor "{0}".', preview.title));
  return { invocationMessage, confirmationMessages: { title: confirmation.title, message } };
}
