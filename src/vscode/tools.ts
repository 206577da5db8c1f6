/**
 * Registers every tool with vscode.lm.registerTool, under the name its manifest entry was generated with. Each invocation takes the core's one path
 * (invokeOperation); this file only translates between VS Code's types and the core's.
 */
import * as vscode from 'vscode';
import type { Envelope } from '../core/envelope';
import { CancelledError } from '../core/errors';
import { invokeOperation, prepareOperation, type Session } from '../core/invoke';
import { toolNameOf } from '../core/manifest';
import { TOOL_DEFINITIONS } from '../core/tools';
import type { Preparation } from '../core/tool';
import type { CallLog } from './log';

export class ToolHost {
  constructor(
    private readonly session: Session,
    private readonly log: CallLog,
    /** Called after every call that finished, so views can refresh. */
    private readonly onDidInvoke: (operation: string, envelope: Envelope) => void = () => undefined,
  ) {}

  register(): vscode.Disposable[] {
    return TOOL_DEFINITIONS.map((tool) => {
      const operation = tool.name;
      return vscode.lm.registerTool<unknown>(toolNameOf(operation), {
        prepareInvocation: async (options) => toPrepared(await this.prepare(operation, options.input)),
        invoke: async (options, token) => {
          const envelope = await this.invoke(operation, options.input, token);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(envelope))]);
        },
      });
    });
  }

  prepare(operation: string, input: unknown): Promise<Preparation> {
    return prepareOperation(operation, input, this.session);
  }

  /** A call exactly as a model's, minus VS Code's confirmation UI; throws vscode.CancellationError on cancel. */
  async invoke(operation: string, input: unknown, token?: vscode.CancellationToken): Promise<Envelope> {
    const startedAt = performance.now();
    if (token?.isCancellationRequested) throw new vscode.CancellationError();
    try {
      const envelope = await invokeOperation(operation, input, this.session, () => token?.isCancellationRequested ?? false);
      this.log.record(operation, startedAt, envelope);
      this.onDidInvoke(operation, envelope);
      return envelope;
    } catch (error) {
      if (error instanceof CancelledError) {
        this.log.record(operation, startedAt, 'cancelled');
        throw new vscode.CancellationError();
      }
      throw error;
    }
  }
}

function toPrepared(preparation: Preparation): vscode.PreparedToolInvocation {
  const { invocationMessage, confirmation } = preparation;
  if (!confirmation) return { invocationMessage };
  return {
    invocationMessage,
    confirmationMessages: { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) },
  };
}
