/**
 * A scripted language model for the agent-mode tests. Registered with VS Code's language model provider API
 * (stable since 1.104, declared in this folder's package.json), it is the model Copilot's agent loop talks to:
 * for the request that carries the active script's marker it answers with the script's next tool call, and once
 * the script has no more calls, with the script's closing text. Every other request (Copilot also asks its model
 * for titles and progress messages) gets a short text. It records what each main request offered (the tool
 * definitions) and, verbatim, what each tool result gave it.
 *
 * The same extension holds the notebook kernel the notebook scenarios run cells with (kernel.ts).
 *
 * The launcher copies this folder's compiled files next to its package.json into a folder of their own, so they
 * may import nothing at run time but `vscode` and each other: the tests reach them through the extension's exports.
 */
import * as vscode from 'vscode';
import { registerKernel, type TestKernelApi } from './kernel';

export const VENDOR = 'agentfs-test';
export const MODEL_ID = 'scripted';

/** One tool call the script makes. */
export interface ScriptedCall {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** What one tool result gave the model: its parts as they arrived, and their text joined. */
export interface ReceivedResult {
  readonly callId: string;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** The text parts' values joined: for an Agent FS tool, the envelope's JSON exactly as the model read it. */
  readonly text: string;
  /**
   * Each part's class and text (undefined when it had none), the content of one that is not text as JSON, and its
   * `isError` flag where VS Code set one.
   */
  readonly parts: readonly { readonly kind: string; readonly text?: string; readonly content?: string; readonly isError?: boolean }[];
}

export interface OfferedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
}

export interface RecordedRequest {
  /** True for the agent's own requests for this script (the marker is there and tools are offered). */
  readonly main: boolean;
  readonly tools: readonly OfferedTool[];
  /** Characters of text in all messages: enough to tell an agent prompt from a title request in a report. */
  readonly textLength: number;
  /** The text of all messages, for main requests: what the agent told the model besides the tools. */
  readonly text?: string;
}

export interface Script {
  /** Text in the user's prompt that identifies the scenario inside Copilot's much longer agent prompt. */
  readonly marker: string;
  /**
   * The next call given the results so far, or undefined to end the turn with `final`; it may first wait for what
   * the person does between two calls.
   */
  next(results: readonly ReceivedResult[]): ScriptedCall | undefined | Promise<ScriptedCall | undefined>;
  readonly final: string;
}

export interface ScriptRun {
  readonly results: readonly ReceivedResult[];
  readonly calls: readonly ScriptedCall[];
  /** The first request of this script's turn: what the agent offered the model. */
  readonly firstRequest: RecordedRequest | undefined;
  /** Resolves once `count` results have arrived. */
  waitForResults(count: number): Promise<void>;
  /** Resolves once the model has answered with the closing text. */
  readonly finished: Promise<void>;
  /** Set when the script threw: the model answers with the error's text so the turn ends. */
  readonly failure: string | undefined;
}

export interface ScriptedModelApi {
  readonly vendor: string;
  readonly id: string;
  /** Installs a script for the next agent turn whose prompt carries its marker. */
  run(script: Script): ScriptRun;
  /** Every request the model has answered, main or not. */
  readonly requests: readonly RecordedRequest[];
  readonly kernel: TestKernelApi;
}

// The provider API arrived in VS Code 1.104; the repository's @types/vscode is the engines floor (1.100), so the
// shapes this file uses are written out here from the stable vscode.d.ts.
interface ChatInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
  /** Not in the stable typings; Copilot's model picker lists a model only with it. */
  readonly isUserSelectable?: boolean;
}

interface RequestMessage {
  readonly role: vscode.LanguageModelChatMessageRole;
  readonly content: readonly unknown[];
}

interface ResponseOptions {
  readonly tools?: readonly vscode.LanguageModelChatTool[];
}

interface ChatProvider {
  provideLanguageModelChatInformation(options: { readonly silent: boolean }, token: vscode.CancellationToken): ChatInformation[];
  provideLanguageModelChatResponse(
    model: ChatInformation,
    messages: readonly RequestMessage[],
    options: ResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>,
    token: vscode.CancellationToken,
  ): Promise<void>;
  provideTokenCount(model: ChatInformation, text: string | RequestMessage, token: vscode.CancellationToken): Promise<number>;
}

interface LmWithProviders {
  registerLanguageModelChatProvider(vendor: string, provider: ChatProvider): vscode.Disposable;
}

const MODEL: ChatInformation = {
  id: MODEL_ID,
  name: 'Agent FS scripted model',
  family: 'scripted',
  version: '1',
  // Large enough that Copilot never summarises or trims the conversation of a scenario.
  maxInputTokens: 1_000_000,
  maxOutputTokens: 16_000,
  capabilities: { toolCalling: true, imageInput: false },
  isUserSelectable: true,
};

function textOf(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  if ('value' in part && typeof part.value === 'string') return part.value;
  return undefined;
}

/**
 * What a part that is not plain text holds, as JSON: Copilot's own tools answer with prompt-tsx parts (a tree whose
 * text pieces are what the model reads), an image with a data part. Undefined for a text part.
 */
function contentOf(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null || textOf(part) !== undefined) return undefined;
  if ('value' in part) return JSON.stringify(part.value);
  if ('mimeType' in part && typeof part.mimeType === 'string') return JSON.stringify({ mimeType: part.mimeType });
  return undefined;
}

function kindOf(part: unknown): string {
  return typeof part === 'object' && part !== null ? part.constructor.name : typeof part;
}

interface ResultPart {
  readonly callId: string;
  readonly content: readonly unknown[];
}

function isResultPart(part: unknown): part is ResultPart {
  return (
    typeof part === 'object' &&
    part !== null &&
    'callId' in part &&
    typeof part.callId === 'string' &&
    'content' in part &&
    Array.isArray(part.content)
  );
}

function isErrorFlag(part: unknown): boolean | undefined {
  return typeof part === 'object' && part !== null && 'isError' in part && typeof part.isError === 'boolean' ? part.isError : undefined;
}

function allText(messages: readonly RequestMessage[]): string {
  const pieces: string[] = [];
  const visit = (part: unknown): void => {
    const text = textOf(part);
    if (text !== undefined) pieces.push(text);
    else if (isResultPart(part)) part.content.forEach(visit);
  };
  for (const message of messages) message.content.forEach(visit);
  return pieces.join('\n');
}

class ActiveRun implements ScriptRun {
  readonly results: ReceivedResult[] = [];
  readonly calls: ScriptedCall[] = [];
  firstRequest: RecordedRequest | undefined;
  failure: string | undefined;
  readonly finished: Promise<void>;
  private finish: () => void = () => undefined;
  private readonly waiters: { count: number; resolve: () => void }[] = [];
  /** A prefix no other run shares, so results of an earlier scenario in the same chat are never mistaken for ours. */
  readonly prefix: string;

  constructor(
    readonly script: Script,
    serial: number,
  ) {
    this.prefix = `afs${serial}c`;
    this.finished = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  waitForResults(count: number): Promise<void> {
    if (this.results.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Takes in the results the conversation now holds for this run's calls, in call order. */
  absorb(messages: readonly RequestMessage[]): void {
    for (const message of messages) {
      for (const part of message.content) {
        if (!isResultPart(part) || !part.callId.startsWith(this.prefix)) continue;
        const index = Number.parseInt(part.callId.slice(this.prefix.length), 10);
        const call = this.calls[index];
        if (call === undefined || index !== this.results.length) continue;
        this.results.push({
          callId: part.callId,
          tool: call.tool,
          input: call.input,
          text: part.content
            .map(textOf)
            .filter((text): text is string => text !== undefined)
            .join(''),
          parts: part.content.map((each) => ({
            kind: kindOf(each),
            text: textOf(each),
            content: contentOf(each),
            isError: isErrorFlag(part) ?? isErrorFlag(each),
          })),
        });
      }
    }
    for (const waiter of [...this.waiters]) {
      if (this.results.length >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  /** The reply to a main request: the next call, or the closing text (once every call made has its result). */
  async reply(): Promise<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> {
    if (this.results.length < this.calls.length) {
      // The agent asked again before the last call's result came back: repeat that call.
      const pending = this.calls[this.calls.length - 1];
      if (pending)
        return new vscode.LanguageModelToolCallPart(`${this.prefix}${this.calls.length - 1}`, pending.tool, { ...pending.input });
    }
    let next: ScriptedCall | undefined;
    try {
      next = await this.script.next(this.results);
    } catch (error) {
      this.failure = error instanceof Error ? (error.stack ?? error.message) : String(error);
      next = undefined;
    }
    if (next === undefined) {
      this.finish();
      return new vscode.LanguageModelTextPart(this.failure === undefined ? this.script.final : `The script failed: ${this.failure}`);
    }
    this.calls.push(next);
    return new vscode.LanguageModelToolCallPart(`${this.prefix}${this.calls.length - 1}`, next.tool, { ...next.input });
  }
}

export function activate(context: vscode.ExtensionContext): ScriptedModelApi {
  const requests: RecordedRequest[] = [];
  let active: ActiveRun | undefined;
  let serial = 0;
  const provider: ChatProvider = {
    provideLanguageModelChatInformation: () => [MODEL],
    provideTokenCount: (_model, text) => Promise.resolve(Math.ceil((typeof text === 'string' ? text : allText([text])).length / 4)),
    provideLanguageModelChatResponse: async (_model, messages, options, progress) => {
      const text = allText(messages);
      const offered = options.tools ?? [];
      const run = active;
      const main = run !== undefined && offered.length > 0 && text.includes(run.script.marker);
      const record: RecordedRequest = {
        main,
        tools: offered.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema ?? {} })),
        textLength: text.length,
        text: main ? text : undefined,
      };
      requests.push(record);
      if (!main || run === undefined) {
        progress.report(new vscode.LanguageModelTextPart('Agent FS scenario'));
        return;
      }
      run.firstRequest ??= record;
      run.absorb(messages);
      progress.report(await run.reply());
    },
  };
  const lm = vscode.lm as unknown as LmWithProviders;
  context.subscriptions.push(lm.registerLanguageModelChatProvider(VENDOR, provider));
  return {
    vendor: VENDOR,
    id: MODEL_ID,
    requests,
    kernel: registerKernel(context),
    run: (script) => {
      active = new ActiveRun(script, ++serial);
      return active;
    },
  };
}

export function deactivate(): void {}
