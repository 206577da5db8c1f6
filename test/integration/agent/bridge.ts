/**
 * The extension host's side of the agent-mode tests: the scripted model's API, one agent turn started the way a
 * person starts one, and the bridge to the page (see test/agent/protocol.ts) for what only the page shows.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { BridgeRequest, CardText, QuestionText, ToolRow } from '../../agent/protocol';
import type { Script, ScriptedModelApi, ScriptRun } from '../../agent/model/extension';
import { MARKER } from '../index';

const MODEL_EXTENSION = 'agentfs-test.scripted-model';
/** Copilot Chat, built into VS Code 1.139: the agent loop these tests drive. */
export const COPILOT_CHAT = 'GitHub.copilot-chat';

export async function scriptedModel(): Promise<ScriptedModelApi> {
  const found = vscode.extensions.getExtension<ScriptedModelApi>(MODEL_EXTENSION);
  assert.ok(found, `${MODEL_EXTENSION} is not loaded`);
  return found.activate();
}

let nextRequest = 0;

/** Asks the launcher to do or read something in the page; resolves with its answer. */
export async function ui<T>(request: BridgeRequest, timeoutMs = 90_000): Promise<T> {
  const dir = process.env.AGENTFS_AGENT_BRIDGE;
  assert.ok(dir, 'AGENTFS_AGENT_BRIDGE is set by the agent-mode launcher');
  const id = ++nextRequest;
  console.log(`${MARKER}UI ${JSON.stringify({ id, ...request })}`);
  const file = path.join(dir, `${id}.json`);
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the page did not answer ${request.action} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const reply = JSON.parse(fs.readFileSync(file, 'utf8')) as { ok: true; value: T } | { ok: false; error: string };
  if (!reply.ok) throw new Error(`the page could not ${request.action}: ${reply.error}`);
  return reply.value;
}

export const card = (timeoutMs?: number): Promise<CardText> => ui<CardText>({ action: 'card', timeoutMs });
export const click = (label: string): Promise<boolean> => ui<boolean>({ action: 'click', label });
export const rows = (): Promise<ToolRow[]> => ui<ToolRow[]>({ action: 'rows' });
export const notifications = (): Promise<string[]> => ui<string[]>({ action: 'notifications' });
export const shot = (name: string, readme = false): Promise<string> => ui<string>({ action: 'shot', name, readme });
export const question = (timeoutMs?: number): Promise<QuestionText> => ui<QuestionText>({ action: 'question', timeoutMs });
export const answer = (label: string): Promise<boolean> => ui<boolean>({ action: 'answer', label });

/** What workbench.action.chat.open answers with blockOnResponse: the turn's result, or the confirmation it stopped at. */
interface TurnStop {
  readonly type?: string;
  readonly kind?: string;
  readonly toolId?: string;
  readonly errorDetails?: { readonly message?: string };
}

export interface AgentTurn {
  readonly run: ScriptRun;
  /** Resolves when the turn first stops: done, or waiting at a confirmation. */
  readonly stopped: Promise<TurnStop>;
}

/**
 * Selects a custom agent in the chat's new session. The chat learns of custom agents a while after the window opens
 * and again for each new session, and a turn started before that runs in plain agent mode (with Copilot's file
 * tools) without a word: the agent is asked for until the chat's picker shows it.
 */
async function selectAgent(mode: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await vscode.commands.executeCommand('workbench.action.chat.open', { mode });
    const shown = await ui<string>({ action: 'mode' });
    if (shown === mode) return;
    if (Date.now() > deadline) assert.fail(`the chat did not offer the ${mode} agent within 60 s: it shows ${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Starts one agent turn in a new chat session (so no approval given in an earlier scenario carries over), with the
 * scripted model selected and the script installed. `mode` is 'agent' or a custom agent's name.
 */
export async function startTurn(script: Script, prompt: string, mode = 'agent'): Promise<AgentTurn> {
  const model = await scriptedModel();
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  if (mode !== 'agent') await selectAgent(mode);
  const run = model.run(script);
  const stopped = Promise.resolve(
    vscode.commands.executeCommand<TurnStop | undefined>('workbench.action.chat.open', {
      query: `${prompt} ${script.marker}`,
      mode,
      modelSelector: { vendor: model.vendor, id: model.id },
      blockOnResponse: true,
    }),
  ).then((stop) => stop ?? {});
  return { run, stopped };
}
