/**
 * One agent-mode scenario: a folder of files, a script of tool calls the scripted model makes in one agent turn,
 * what the person does at each confirmation card, and what must hold afterwards. `runScenario`:
 *
 * 1. lays out the folder and keeps a copy of it outside the workspace, then opens what the scenario has open;
 * 2. runs the turn in a new chat session; at every call that should ask, it reads the card in the page (title and
 *    message checked), and answers it as the step says (Allow Once, Allow in this Session, Skip);
 * 3. records what the model received for each call, and the folder as the turn left it; checks what the editors
 *    hold and closes them;
 * 4. puts the folder back as it was, replays the same calls (same inputs, worked out from the replay's own earlier
 *    results) through vscode.lm.invokeTool on it, and requires that every call answered the model exactly what it
 *    answers invokeTool — operation ids and times aside — and that both left the same files.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import type { CardText, ToolRow } from '../../agent/protocol';
import type { OfferedTool, ReceivedResult, ScriptRun } from '../../agent/model/extension';
import { callTool, snapshot, TOOL_PREFIX, workspaceRoot } from '../helpers';
import { checkEnvelope } from '../../shared/results';
import { writeTree } from '../../shared/tree';
import { MARKER } from '../index';
import { type AgentTurn, card, click, notifications, rows, scriptedModel, shot, startTurn, ui } from './bridge';

/** What VS Code hands the model after the person chose Skip on a card. */
export const SKIPPED = 'The user chose to skip the tool call, they want to proceed without running it';

/** A card's button: Agent FS's cards offer the first three; the terminal's primary button is Allow. */
type Answer = 'Allow Once' | 'Allow in this Session' | 'Allow' | 'Skip';

/** What a step's call gave, for the inputs of later steps: its envelope (undefined when skipped or not Agent FS). */
interface Outcome {
  readonly envelope: Envelope | undefined;
}

interface Step {
  readonly tool: string;
  readonly input: (earlier: readonly Outcome[]) => Record<string, unknown>;
  /** The card this call shows and how the person answers it; absent: the call must run without one. */
  readonly confirm?: { readonly answer: Answer; readonly title: string; readonly message: readonly (string | RegExp)[] };
  /** Done while the card is showing (and before the replay's call): a change behind the agent's back. */
  readonly meanwhile?: () => void;
  /** What the person does once the previous result came back and before the model makes this call (and the replay's). */
  readonly before?: () => Promise<void>;
  /**
   * Checks of what the model received: `text` is the result's text parts verbatim, `content` everything it held
   * (non-text parts as JSON too: Copilot's tools answer with prompt-tsx trees).
   */
  readonly expect?: (text: string, envelope: Envelope | undefined, content: string) => void;
  /**
   * `data` fields the comparison with invokeTool leaves out: what depends on the whole history rather than on the
   * files (history_list's `total` counts the agent turn's records too when the replay lists).
   */
  readonly replayOmits?: readonly string[];
  /** Name of a screenshot to take while the card shows; `readme` copies it for the README (--readme-shots). */
  readonly shotAtCard?: { readonly name: string; readonly readme?: boolean };
}

export interface Scenario {
  /** Unique, short: the marker, the folder name and the call ids derive from it. */
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
  readonly steps: readonly Step[];
  /** 'agent' or a custom agent's name. */
  readonly mode?: string;
  /** Steps whose results depend on the session (history), compared only in shape: replay skips them. */
  readonly noReplay?: readonly number[];
  /** Done once the folder is laid out, before the turn: what the person has open in the window when they ask. */
  readonly setUp?: (root: string) => Promise<void>;
  /**
   * Checks of the window as the turn left it (what only the editors hold), and closing what `setUp` opened: the
   * replay then puts the folder back under no open editor.
   */
  readonly afterTurn?: () => Promise<void>;
}

export interface ScenarioResult {
  readonly run: ScriptRun;
  readonly results: readonly ReceivedResult[];
  readonly envelopes: readonly (Envelope | undefined)[];
  readonly cards: readonly (CardText | undefined)[];
  /** The scenario's folder as the agent turn left it. */
  readonly after: Record<string, string>;
  /** The chat's tool rows once the turn ended, steps expanded. */
  readonly rows: readonly ToolRow[];
  readonly notifications: readonly string[];
  readonly firstTools: readonly OfferedTool[];
  readonly folder: string;
}

export function say(...parts: unknown[]): void {
  console.log(MARKER + parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
}

/** The folder a scenario works in, relative to the base directory (what the script's paths start with). */
export function folderOf(name: string): string {
  return `scn-${name}`;
}

function layOut(root: string, files: Readonly<Record<string, string>>): void {
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  writeTree(root, files);
}

function envelopeOf(tool: string, text: string): Envelope | undefined {
  if (!tool.startsWith(TOOL_PREFIX) || text === SKIPPED) return undefined;
  let envelope: Envelope;
  try {
    envelope = JSON.parse(text) as Envelope;
  } catch {
    return undefined;
  }
  checkEnvelope(envelope);
  return envelope;
}

/**
 * What may differ between two runs of the same calls on the same files: operation ids (time, counter, random) and
 * times. Ids are numbered by first appearance, so the same id twice stays the same number.
 */
export function normalise(envelopes: readonly (Envelope | undefined)[]): unknown[] {
  const ids = new Map<string, string>();
  return envelopes.map((envelope) => {
    if (envelope === undefined) return undefined;
    const text = JSON.stringify(envelope)
      .replace(/\b[0-9a-z]{8,12}-[0-9a-z]{4}-[0-9a-z]{4}\b/g, (id) => {
        if (!ids.has(id)) ids.set(id, `<op${ids.size + 1}>`);
        return ids.get(id) ?? id;
      })
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      // Who made a change differs between a chat's turn and its replay (another agent and session, or none).
      .replace(/,"host":"(editor|mcp|runner)","agent":"[^"]*","session":"[^"]*"(,"label":"[^"]*")?/g, '');
    return JSON.parse(text) as unknown;
  });
}

function matches(text: string, pattern: string | RegExp): boolean {
  return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
}

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'late'> =>
  Promise.race([promise, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms))]);

/**
 * Waits for `count` results. If none comes, says why: a card nobody expected holding the turn, or the model not
 * being asked at all (what it was asked last is in the report).
 */
async function awaitResult(run: ScriptRun, count: number, tool: string): Promise<void> {
  // The script ending early (it threw, or ran out of steps) means no result is coming.
  const done = Promise.race([
    run.waitForResults(count),
    run.finished.then(() => assert.fail(`the script ended before call ${count} (${tool}): ${run.failure ?? 'no more steps'}`)),
  ]);
  if ((await within(done, 20_000)) !== 'late') return;
  const unexpected = await card(2_000).catch(() => undefined);
  if (unexpected) assert.fail(`${tool} showed a confirmation nobody expected: ${JSON.stringify(unexpected)}`);
  if ((await within(done, 60_000)) !== 'late') return;
  await shot(`stuck-${tool}`);
  const asked = (await scriptedModel()).requests
    .slice(-3)
    .map((request) => ({ main: request.main, tools: request.tools.length, textLength: request.textLength }));
  assert.fail(
    `no result for ${tool} (call ${count}) within 80 s; the model's last requests: ${JSON.stringify(asked)}; calls made: ${run.calls.length}`,
  );
}

/** Plays the turn step by step: at each card, checks it and answers as the step says; waits for each result. */
async function playTurn(scenario: Scenario, turn: AgentTurn, outcomes: Outcome[], cards: (CardText | undefined)[]): Promise<void> {
  for (const [index, step] of scenario.steps.entries()) {
    if (step.confirm) {
      const shown = await card();
      cards.push(shown);
      assert.equal(shown.title, step.confirm.title, `the card of step ${index} (${step.tool})`);
      for (const pattern of step.confirm.message)
        assert.ok(matches(shown.message, pattern), `the card of step ${index} (${step.tool}) says ${String(pattern)}: ${shown.message}`);
      if (step.shotAtCard) await shot(step.shotAtCard.name, step.shotAtCard.readme);
      step.meanwhile?.();
      await click(step.confirm.answer);
    } else cards.push(undefined);
    await awaitResult(turn.run, index + 1, step.tool);
    const result = turn.run.results[index];
    assert.ok(result, `a result for step ${index}`);
    outcomes.push({ envelope: envelopeOf(step.tool, result.text) });
  }
  if ((await within(turn.run.finished, 60_000)) === 'late') assert.fail('the model was not asked for its closing answer');
  assert.equal(turn.run.failure, undefined, 'the script ran to its end');
  const stop = await turn.stopped;
  assert.ok(stop.errorDetails === undefined, `the turn ended without an error: ${JSON.stringify(stop.errorDetails)}`);
}

/** `shotAfterTurn`: a screenshot of the chat once the turn ended, its steps expanded. */
export async function runScenario(
  scenario: Scenario,
  prompt: string,
  shotAfterTurn?: { readonly name: string; readonly readme?: boolean },
): Promise<ScenarioResult> {
  const folder = folderOf(scenario.name);
  const root = path.join(workspaceRoot(), folder);
  const pristine = path.join(workspaceRoot(), '..', 'pristine', folder);
  layOut(root, scenario.files);
  fs.rmSync(pristine, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(pristine), { recursive: true });
  fs.cpSync(root, pristine, { recursive: true, preserveTimestamps: true });

  await scenario.setUp?.(root);

  const outcomes: Outcome[] = [];
  const turn = await startTurn(
    {
      marker: `[Agent FS scenario: ${scenario.name}]`,
      // The inputs come from what the model itself received so far, as a real model's would.
      next: async (results) => {
        const step = scenario.steps[results.length];
        await step?.before?.();
        const earlier = results.map((result, index) => ({ envelope: envelopeOf(scenario.steps[index]?.tool ?? '', result.text) }));
        return step ? { tool: step.tool, input: step.input(earlier) } : undefined;
      },
      final: `Scenario ${scenario.name} is done.`,
    },
    prompt,
    scenario.mode,
  );
  const cards: (CardText | undefined)[] = [];
  try {
    await playTurn(scenario, turn, outcomes, cards);
  } catch (error) {
    // Leave no turn waiting at a card for the next scenario: stop this one.
    await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
    throw error;
  }
  const results = turn.run.results;
  const envelopes = results.map((result, index) => envelopeOf(scenario.steps[index]?.tool ?? '', result.text));
  for (const [index, step] of scenario.steps.entries()) {
    const result = results[index];
    assert.ok(result);
    // An Agent FS call gives one text part: the envelope's JSON exactly as Agent FS wrote it (or VS Code's own note
    // for a skip). Copilot's own tools answer in their own shapes.
    if (step.tool.startsWith(TOOL_PREFIX)) assert.equal(result.parts.length, 1, `step ${index} (${step.tool}) gave the model one part`);
    if (envelopes[index] !== undefined)
      assert.equal(result.text, JSON.stringify(envelopes[index]), `step ${index} (${step.tool}) gave the model the envelope verbatim`);
    step.expect?.(result.text, envelopes[index], result.parts.map((part) => part.text ?? part.content ?? '').join('\n'));
  }
  const after = snapshot(root);
  await ui<boolean>({ action: 'expand' });
  const shownRows = await rows();
  if (shotAfterTurn) await shot(shotAfterTurn.name, shotAfterTurn.readme);
  await vscode.commands.executeCommand('notifications.showList');
  const shownNotifications = await notifications();
  await vscode.commands.executeCommand('notifications.hideList');
  await scenario.afterTurn?.();

  // The same calls through invokeTool on the same files.
  fs.rmSync(root, { recursive: true, force: true });
  fs.cpSync(pristine, root, { recursive: true, preserveTimestamps: true });
  const replayed: (Envelope | undefined)[] = [];
  const replayOutcomes: Outcome[] = [];
  for (const [index, step] of scenario.steps.entries()) {
    const agentGot = envelopes[index];
    if (agentGot === undefined || scenario.noReplay?.includes(index)) {
      replayed.push(agentGot === undefined ? undefined : agentGot);
      replayOutcomes.push({ envelope: agentGot });
      continue;
    }
    await step.before?.();
    step.meanwhile?.();
    const envelope = await callTool(step.tool.slice(TOOL_PREFIX.length), step.input(replayOutcomes));
    replayed.push(envelope);
    replayOutcomes.push({ envelope });
  }
  const omit = (list: readonly (Envelope | undefined)[]): (Envelope | undefined)[] =>
    list.map((envelope, index) => {
      const fields = scenario.steps[index]?.replayOmits;
      if (!envelope?.ok || !fields) return envelope;
      const data = { ...(envelope.data as Record<string, unknown>) };
      for (const field of fields) delete data[field];
      return { ...envelope, data };
    });
  assert.deepEqual(
    normalise(omit(envelopes)),
    normalise(omit(replayed)),
    'what the model received is what invokeTool returns for the same calls on the same files',
  );
  assert.deepEqual(snapshot(root), after, 'the agent turn and the direct calls left the same files');
  return {
    run: turn.run,
    results,
    envelopes,
    cards,
    after,
    rows: shownRows,
    notifications: shownNotifications,
    firstTools: turn.run.firstRequest?.tools ?? [],
    folder,
  };
}

/** The bytes a model pays for one offered tool: its name, description and input schema as JSON. */
export function definitionBytes(tool: OfferedTool): number {
  return Buffer.byteLength(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }), 'utf8');
}

/** Prints what the first request of a turn offered: counts and bytes, Agent FS's tools against the built-in ones. */
export function reportDefinitions(
  label: string,
  tools: readonly OfferedTool[],
): { agentFs: number; builtIn: number; agentFsBytes: number; builtInBytes: number } {
  const ours = tools.filter((tool) => tool.name.startsWith(TOOL_PREFIX));
  const theirs = tools.filter((tool) => !tool.name.startsWith(TOOL_PREFIX));
  const sum = (list: readonly OfferedTool[]): number => list.reduce((total, tool) => total + definitionBytes(tool), 0);
  const figures = { agentFs: ours.length, builtIn: theirs.length, agentFsBytes: sum(ours), builtInBytes: sum(theirs) };
  const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;
  say(
    `  [definitions] ${label}: ${tools.length} tools offered; Agent FS ${figures.agentFs} tools, ${kb(figures.agentFsBytes)}; built-in ${figures.builtIn} tools, ${kb(figures.builtInBytes)}`,
  );
  say(`  [definitions] ${label}, built-in: ${theirs.map((tool) => `${tool.name} ${definitionBytes(tool)}`).join(', ')}`);
  return figures;
}
