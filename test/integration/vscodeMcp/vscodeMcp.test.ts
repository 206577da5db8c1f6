/**
 * VS Code 1.139's own MCP client: the workspace's .vscode/mcp.json holds the entry "Connect Another Agent…" writes
 * (the README's VS Code configuration), VS Code starts dist/mcp.js by itself when the chat message is sent, and
 * Copilot's real agent loop, driven by the scripted model, calls the server's tools as `mcp_agent_fs_*`. Agent FS
 * the extension is not loaded in this window, so those are the only Agent FS tools there are. In the launch
 * `vscode-mcp-http` the same turn runs over Streamable HTTP: the launcher started the server on loopback, and the
 * entry names its URL and bearer token.
 *
 * One agent turn uses every tool once, has a path outside the base refused, answers the server's confirmations in
 * the chat (Yes for some, No for one) and ends with undo. Afterwards the disk is checked, and what the model received
 * for each call is compared with what the core answers for the same calls on the same files (test/integration/agent
 * does the same for the extension's tools). The figures the matrix reports — tools and definition bytes VS Code sent
 * to the model, what it showed for a refusal — are printed as `[vscode-mcp]` (or `[vscode-mcp-http]`) lines.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import { invokeOperation } from '../../../src/core/invoke';
import { TOOL_DEFINITIONS } from '../../../src/core/tools';
import { mcpTool, serverNaming } from '../../../src/node/mcp/server';
import { flagWording } from '../../../src/node/host/options';
import { createNodeSession } from '../../../src/node/host/session';
import type { OfferedTool, ReceivedResult, ScriptRun } from '../../agent/model/extension';
import type { CardText, QuestionText, ToolRow } from '../../agent/protocol';
import { checkEnvelope } from '../../shared/results';
import { writeTree } from '../../shared/tree';
import { snapshot, workspaceRoot } from '../helpers';
import { answer, card, click, question, rows, scriptedModel, shot, startTurn, ui } from '../agent/bridge';
import { definitionBytes, normalise, say } from '../agent/scenario';

/** What VS Code prefixes the server's tools with: "mcp_" and its title ("Agent FS"), not the mcp.json key. */
const PREFIX = 'mcp_agent_fs_';
const F = 'scn-mcp';

interface Earlier {
  readonly envelope: Envelope | undefined;
}

interface Step {
  /** The operation; the model calls it by the name VS Code offered. */
  readonly tool: string;
  readonly input: (earlier: readonly Earlier[]) => Record<string, unknown>;
  /** VS Code's own card ("Run <title>"), shown for every tool not marked read-only, and the button pressed. */
  readonly card?: 'Allow in this Session' | 'Allow Once';
  /** The server's confirmation, drawn by VS Code as a question in the chat, and the answer picked. */
  readonly question?: { readonly answer: 'Yes' | 'No'; readonly says: readonly (string | RegExp)[]; readonly shot?: string };
  readonly expect?: (envelope: Envelope) => void;
}

function ok(envelope: Envelope | undefined): Record<string, unknown> {
  assert.ok(envelope, 'an Agent FS envelope');
  if (!envelope.ok) assert.fail(`expected ok, got ${envelope.error.code}: ${envelope.error.message}`);
  return envelope.data as Record<string, unknown>;
}

function refused(envelope: Envelope, code: string): Record<string, unknown> | undefined {
  if (envelope.ok) assert.fail(`expected ${code}, got ok`);
  assert.equal(envelope.error.code, code, envelope.error.message);
  return envelope.error.details;
}

function operationId(envelope: Envelope | undefined): string {
  const id = ok(envelope).operation_id;
  assert.equal(typeof id, 'string', 'the change was recorded');
  return id as string;
}

const matches = (text: string, pattern: string | RegExp): boolean =>
  typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'late'> =>
  Promise.race([promise, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms))]);

const FILES: Readonly<Record<string, string>> = {
  'README.md': '# Demo\n\nA small project.\n',
  'src/app.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
  'src/util.ts': 'export const answer = 42;\n',
  'docs/guide.md': '# Guide\n\nTODO: write the guide.\n',
  'notes/todo.md': '- buy milk\n- write docs\n- ship it\n',
  'lib/a.txt': 'alpha\nbeta\ngamma\n',
  'assets/logo.txt': 'logo\n',
  'assets/icons/x.txt': 'x\n',
  'keep.txt': 'keep me\n',
  'build/app.js': 'console.log(1);\n',
  'build/app.js.map': '{}\n',
};

const PATCH = [
  `--- a/${F}/notes/todo.md`,
  `+++ b/${F}/notes/todo.md`,
  '@@ -1,3 +1,3 @@',
  ' - buy oat milk',
  ' - write docs',
  '-- ship it',
  '+- ship it today',
  '',
].join('\n');

/** What edit_symbol makes of src/app.ts's function. */
const GREET = 'export function greet(name: string): string {\n  return `Hi, ${name}!`;\n}';

/** The step refused for a path outside the base. */
const OUTSIDE_STEP = 11;

/** Every tool once (read_file twice: once refused), in the order a model exploring, editing and tidying would. */
const STEPS: readonly Step[] = [
  { tool: 'workspace_info', input: () => ({}) },
  { tool: 'list_directory', input: () => ({ path: F }) },
  { tool: 'directory_tree', input: () => ({ path: F }) },
  { tool: 'list_files', input: () => ({ path: F }) },
  { tool: 'path_exists', input: () => ({ path: `${F}/src/app.ts` }), expect: (envelope) => assert.equal(ok(envelope).exists, true) },
  { tool: 'file_info', input: () => ({ path: `${F}/src/app.ts` }) },
  { tool: 'find_file', input: () => ({ file_name: 'util.ts' }) },
  {
    tool: 'search_files',
    input: () => ({ pattern: '**/*.ts', path: F }),
    expect: (envelope) =>
      assert.deepEqual(
        (ok(envelope).matches as { relative_path: string }[]).map((match) => match.relative_path),
        [`${F}/src/app.ts`, `${F}/src/util.ts`],
      ),
  },
  { tool: 'search_content', input: () => ({ query: 'TODO', path: F }) },
  {
    tool: 'read_file',
    input: () => ({ file_name: `${F}/src/app.ts` }),
    expect: (envelope) => assert.match(String(ok(envelope).content), /Hello, \$\{name\}!/),
  },
  { tool: 'read_many_files', input: () => ({ paths: [`${F}/README.md`, `${F}/docs/guide.md`] }) },
  {
    tool: 'read_file',
    input: () => ({ file_name: '../outside.txt' }),
    expect: (envelope) => refused(envelope, 'FILE_PATH_OUTSIDE_BASE'),
  },
  { tool: 'create_directory', input: () => ({ directory_name: `${F}/out` }), card: 'Allow in this Session' },
  { tool: 'create_file', input: () => ({ path: `${F}/out/new.md`, content: '# New\n' }), card: 'Allow in this Session' },
  { tool: 'write_file', input: () => ({ file_name: `${F}/out/fresh.txt`, content: 'fresh\n' }), card: 'Allow in this Session' },
  {
    tool: 'edit_file',
    input: () => ({ path: `${F}/notes/todo.md`, old_string: '- buy milk', new_string: '- buy oat milk' }),
    card: 'Allow in this Session',
  },
  {
    tool: 'replace_lines',
    input: () => ({ path: `${F}/lib/a.txt`, start_line: 2, end_line: 2, content: 'BETA\n' }),
    card: 'Allow in this Session',
  },
  { tool: 'insert_lines', input: () => ({ path: `${F}/lib/a.txt`, position: 'end', content: 'delta\n' }), card: 'Allow in this Session' },
  { tool: 'delete_lines', input: () => ({ path: `${F}/lib/a.txt`, start_line: 1, end_line: 1 }), card: 'Allow Once' },
  {
    tool: 'read_outline',
    input: () => ({ path: `${F}/src/app.ts` }),
    expect: (envelope) => assert.deepEqual(ok(envelope).symbols, [{ name_path: 'greet', kind: 'function', start_line: 1, end_line: 3 }]),
  },
  {
    tool: 'find_references',
    input: () => ({ path: `${F}/src/app.ts`, symbol: 'greet' }),
    // Over MCP no language service answers: whole-word matches, said to be approximate.
    expect: (envelope) => assert.equal(ok(envelope).approximate, true),
  },
  {
    tool: 'edit_symbol',
    input: () => ({ path: `${F}/src/app.ts`, symbol: 'greet', action: 'replace', text: GREET }),
    card: 'Allow in this Session',
  },
  {
    tool: 'apply_patch',
    input: () => ({ patch: PATCH }),
    card: 'Allow in this Session',
    question: { answer: 'Yes', says: [`Apply a patch to ${F}/notes/todo.md?`, `${F}/notes/todo.md: 1 line removed, 1 added`] },
  },
  {
    tool: 'replace_in_files',
    input: () => ({ query: 'gamma', replacement: 'GAMMA', paths: [F] }),
    card: 'Allow in this Session',
    question: { answer: 'Yes', says: ['Replace "gamma" in 1 file (1 replacement)?', `${F}/lib/a.txt: 1 replacement`] },
  },
  {
    tool: 'copy_file',
    input: () => ({ source_path: `${F}/out/new.md`, destination_path: `${F}/out/copy.md` }),
    card: 'Allow in this Session',
  },
  {
    tool: 'move_file',
    input: () => ({ source_path: `${F}/out/fresh.txt`, destination_path: `${F}/archive/fresh.txt` }),
    card: 'Allow in this Session',
  },
  {
    tool: 'copy_directory',
    input: () => ({ source_path: `${F}/assets`, destination_path: `${F}/assets-copy` }),
    card: 'Allow in this Session',
  },
  {
    tool: 'move_directory',
    input: () => ({ source_path: `${F}/assets-copy`, destination_path: `${F}/moved/assets` }),
    card: 'Allow in this Session',
  },
  {
    tool: 'delete_file',
    input: () => ({ file_name: `${F}/keep.txt` }),
    card: 'Allow in this Session',
    question: {
      answer: 'No',
      says: [`Delete ${F}/keep.txt?`, `${F}/keep.txt (8 bytes) will be deleted.`, 'Agent FS can undo this.'],
      shot: 'vscode-mcp-confirmation',
    },
    expect: (envelope) => assert.equal(refused(envelope, 'CONFIRMATION_DECLINED')?.reason, 'declined'),
  },
  {
    tool: 'delete_directory',
    input: () => ({ directory_path: `${F}/build`, recursive: true }),
    card: 'Allow in this Session',
    question: { answer: 'Yes', says: [`Delete ${F}/build/ and everything in it?`, 'app.js, app.js.map'] },
  },
  { tool: 'history_list', input: () => ({ path: F }) },
  { tool: 'history_get', input: (earlier) => ({ operation_id: operationId(earlier[29]?.envelope) }) },
  {
    tool: 'undo_operation',
    input: (earlier) => ({ operation_id: operationId(earlier[29]?.envelope) }),
    card: 'Allow in this Session',
    question: { answer: 'Yes', says: [`Undo deleting ${F}/build/?`] },
    expect: (envelope) => assert.equal(ok(envelope).undone_operation, 'delete_directory'),
  },
  {
    tool: 'undo_last',
    input: () => ({}),
    card: 'Allow in this Session',
    question: { answer: 'Yes', says: [/^Undo moving /] },
    expect: (envelope) => assert.equal(ok(envelope).undone_operation, 'move_directory'),
  },
];

/**
 * The folder as the turn must leave it: every change made, keep.txt kept (declined), build back, and the last move
 * undone (with the parent directory it had made).
 */
const AFTER: Readonly<Record<string, string>> = {
  'README.md': FILES['README.md'] ?? '',
  'archive/': '',
  'archive/fresh.txt': 'fresh\n',
  'assets/': '',
  'assets/icons/': '',
  'assets/icons/x.txt': 'x\n',
  'assets/logo.txt': 'logo\n',
  'assets-copy/': '',
  'assets-copy/icons/': '',
  'assets-copy/icons/x.txt': 'x\n',
  'assets-copy/logo.txt': 'logo\n',
  'build/': '',
  'build/app.js': 'console.log(1);\n',
  'build/app.js.map': '{}\n',
  'docs/': '',
  'docs/guide.md': FILES['docs/guide.md'] ?? '',
  'keep.txt': 'keep me\n',
  'lib/': '',
  'lib/a.txt': 'BETA\nGAMMA\ndelta\n',
  'notes/': '',
  'notes/todo.md': '- buy oat milk\n- write docs\n- ship it today\n',
  'out/': '',
  'out/copy.md': '# New\n',
  'out/new.md': '# New\n',
  'src/': '',
  'src/app.ts': `${GREET}\n`,
  'src/util.ts': FILES['src/util.ts'] ?? '',
};

interface Played {
  readonly run: ScriptRun;
  readonly cards: (CardText | undefined)[];
  readonly questions: (QuestionText | undefined)[];
}

function envelopeOf(text: string): Envelope | undefined {
  let parsed: Envelope;
  try {
    parsed = JSON.parse(text) as Envelope;
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !('ok' in parsed)) return undefined;
  checkEnvelope(parsed);
  return parsed;
}

/** Waits for a call's result; if none comes, says what holds the turn (a card or a question nobody expected). */
async function awaitResult(run: ScriptRun, count: number, tool: string): Promise<void> {
  const done = Promise.race([
    run.waitForResults(count),
    run.finished.then(() => assert.fail(`the script ended before call ${count} (${tool}): ${run.failure ?? 'no more steps'}`)),
  ]);
  if ((await within(done, 20_000)) !== 'late') return;
  const unexpected = (await card(2_000).catch(() => undefined)) ?? (await question(2_000).catch(() => undefined));
  if (unexpected) assert.fail(`${tool} stopped at something nobody expected: ${JSON.stringify(unexpected)}`);
  if ((await within(done, 60_000)) !== 'late') return;
  await shot(`stuck-${tool}`);
  assert.fail(`no result for ${tool} (call ${count}) within 80 s; calls made: ${run.calls.length}`);
}

async function play(): Promise<Played> {
  const model = await scriptedModel();
  /** The name VS Code offers for an operation, found in the request being answered, as a real model must. */
  const offeredName = (operation: string): string => {
    const name = `${PREFIX}${operation}`;
    const asking = model.requests.filter((request) => request.main).at(-1);
    const offered = asking?.tools.some((tool) => tool.name === name) === true;
    if (!offered) throw new Error(`${name} was not offered to the model`);
    return name;
  };
  const turn = await startTurn(
    {
      marker: '[Agent FS scenario: vscode-mcp]',
      next: (results) => {
        const step = STEPS[results.length];
        if (!step) return undefined;
        const earlier = results.map((result) => ({ envelope: envelopeOf(result.text) }));
        return { tool: offeredName(step.tool), input: step.input(earlier) };
      },
      final: 'Scenario vscode-mcp is done.',
    },
    'tidy up the project',
  );
  const cards: (CardText | undefined)[] = [];
  const questions: (QuestionText | undefined)[] = [];
  try {
    for (const [index, step] of STEPS.entries()) {
      if (step.card) {
        const shown = await card();
        cards.push(shown);
        const title = TOOL_DEFINITIONS.find((tool) => tool.name === step.tool)?.title ?? step.tool;
        assert.match(shown.title, new RegExp(`^Run ${title}\\b`), `VS Code's card for step ${index} (${step.tool})`);
        await click(step.card);
      } else cards.push(undefined);
      if (step.question) {
        const asked = await question();
        questions.push(asked);
        assert.equal(asked.title, 'Go ahead?', `the question of step ${index} (${step.tool})`);
        assert.deepEqual([...asked.options].sort(), ['No', 'Yes']);
        assert.equal(asked.selected, 'No', 'No is preselected');
        for (const pattern of step.question.says)
          assert.ok(
            matches(asked.message, pattern),
            `the question of step ${index} (${step.tool}) says ${String(pattern)}: ${asked.message}`,
          );
        if (step.question.shot) await shot(step.question.shot);
        await answer(step.question.answer);
      } else questions.push(undefined);
      await awaitResult(turn.run, index + 1, step.tool);
    }
    if ((await within(turn.run.finished, 60_000)) === 'late') assert.fail('the model was not asked for its closing answer');
    assert.equal(turn.run.failure, undefined, 'the script ran to its end');
    const stop = await turn.stopped;
    assert.ok(stop.errorDetails === undefined, `the turn ended without an error: ${JSON.stringify(stop.errorDetails)}`);
  } catch (error) {
    await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
    throw error;
  }
  return { run: turn.run, cards, questions };
}

/** The same calls, in order, straight through the core on the same files: what the server should have answered. */
async function replay(results: readonly ReceivedResult[]): Promise<(Envelope | undefined)[]> {
  const state = fs.mkdtempSync(path.join(workspaceRoot(), '..', 'replay-state-'));
  // The server's one root is the workspace folder (its --root, and the root VS Code sends).
  const session = createNodeSession([workspaceRoot()], { wording: flagWording('MCP server') }, { stateDirectory: state, hostKind: 'mcp' });
  const out: (Envelope | undefined)[] = [];
  for (const [index, step] of STEPS.entries()) {
    const agentGot = envelopeOf(results[index]?.text ?? '');
    // A call the person declined never reached the core.
    if (agentGot && !agentGot.ok && agentGot.error.code === 'CONFIRMATION_DECLINED') {
      out.push(agentGot);
      continue;
    }
    const envelope = await invokeOperation(step.tool, step.input(out.map((each) => ({ envelope: each }))), session);
    checkEnvelope(envelope);
    out.push(envelope);
  }
  fs.rmSync(state, { recursive: true, force: true });
  return out;
}

/** `vscode-mcp` (stdio) or `vscode-mcp-http`: which launch this is, to tell their figures apart. */
const LAUNCH = process.env.AGENTFS_IT_SCENARIO ?? 'vscode-mcp';

function report(label: string, value: unknown): void {
  say(`  [${LAUNCH}] ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

describe("VS Code's own MCP client, through Copilot agent mode", function () {
  this.timeout(600_000);

  before(async function () {
    await scriptedModel();
    assert.equal(
      vscode.extensions.getExtension('agent-fs.agent-fs'),
      undefined,
      'Agent FS the extension is not loaded: every Agent FS tool here comes from the MCP server',
    );
    await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar');
    await vscode.commands.executeCommand('agentSessions.hideAgentSessionsSidebar').then(undefined, () => undefined);
  });

  it('one agent turn uses every tool, is refused a path outside the base, has a delete declined and the others confirmed in the chat, and ends with undo', async function () {
    const root = path.join(workspaceRoot(), F);
    fs.rmSync(root, { recursive: true, force: true });
    writeTree(root, FILES);
    const pristine = path.join(workspaceRoot(), '..', 'pristine-mcp');
    fs.rmSync(pristine, { recursive: true, force: true });
    fs.cpSync(root, pristine, { recursive: true, preserveTimestamps: true });
    fs.writeFileSync(path.join(workspaceRoot(), '..', 'outside.txt'), 'outside the base\n');
    const outsideBefore = snapshot(path.join(workspaceRoot(), '..'), ['project', 'pristine-mcp']);

    const { run, questions } = await play();
    const results = run.results;
    const envelopes = results.map((result) => envelopeOf(result.text));

    // What the model received: one text part per call, the envelope's JSON, and each step's own check.
    for (const [index, step] of STEPS.entries()) {
      const result = results[index];
      assert.ok(result, `a result for step ${index}`);
      assert.equal(result.parts.length, 1, `step ${index} (${step.tool}) gave the model one part: ${JSON.stringify(result.parts)}`);
      const envelope = envelopes[index];
      assert.ok(envelope, `step ${index} (${step.tool}) gave the model an Agent FS envelope: ${result.text.slice(0, 200)}`);
      assert.equal(envelope.operation, step.tool);
      assert.equal(result.text, JSON.stringify(envelope), `step ${index}: the envelope's JSON, unchanged`);
      if (step.expect) step.expect(envelope);
      else ok(envelope);
    }

    // The disk: every change made, the declined delete not, the undone ones put back; nothing outside touched.
    const after = snapshot(root);
    assert.deepEqual(after, AFTER);
    assert.deepEqual(
      snapshot(path.join(workspaceRoot(), '..'), ['project', 'pristine-mcp']),
      outsideBefore,
      'nothing outside the base changed',
    );

    // What the tools, the refusal and a question looked like in the chat.
    await ui<boolean>({ action: 'expand' });
    const shownRows: readonly ToolRow[] = await rows();
    await shot('vscode-mcp-after-turn');
    report(
      'rows',
      shownRows.map((row) => row.text),
    );
    const readRows = shownRows.filter((row) => row.text.includes('Read File'));
    assert.equal(readRows.length, 2, JSON.stringify(shownRows));
    const [successRow, refusalRow] = readRows;
    assert.equal(STEPS[OUTSIDE_STEP]?.input([]).file_name, '../outside.txt');
    const refusal = results[OUTSIDE_STEP];
    report('refusal row (read outside the base)', refusalRow);
    report('refusal as the model received it', { text: refusal?.text, isError: refusal?.parts[0]?.isError });
    assert.ok(successRow && refusalRow && refusal);
    // VS Code words a refused call as it words a success; the result's isError only sets an error mark it hides.
    assert.equal(refusalRow.text, successRow.text);
    assert.match(refusalRow.text, /^Ran Read File/);
    assert.ok(refusalRow.icons.includes('codicon-error-compact') && !refusalRow.shownIcons.includes('codicon-error-compact'));
    assert.ok(!successRow.icons.includes('codicon-error-compact'));
    report('question (declined delete)', questions[STEPS.findIndex((step) => step.question?.answer === 'No')]);

    // Same calls through the core on the same files: the same answers, operation ids and times aside.
    fs.rmSync(root, { recursive: true, force: true });
    fs.cpSync(pristine, root, { recursive: true, preserveTimestamps: true });
    const replayed = await replay(results);
    // The server runs on the `node` of PATH, the replay in the extension host's Node: only their versions differ.
    // The server keeps path and content indexes, which the replay (a session of its own, for one turn) does not, and
    // its history holds what the turn did so far, the replay's what the replay did.
    const sameHost = (list: readonly (Envelope | undefined)[]): (Envelope | undefined)[] =>
      list.map((envelope) =>
        envelope?.ok && envelope.operation === 'workspace_info'
          ? {
              ...envelope,
              data: {
                ...(envelope.data as Record<string, unknown>),
                host_version: '<node>',
                path_index: '<host>',
                content_index: '<host>',
                history: '<host>',
              },
            }
          : // The server's content index may have its scan read the candidates where the replay runs ripgrep.
            envelope?.ok && envelope.operation === 'search_content'
            ? { ...envelope, data: { ...(envelope.data as Record<string, unknown>), engine: '<engine>' } }
            : envelope,
      );
    const expected = normalise(sameHost(replayed));
    const actual = normalise(sameHost(envelopes));
    for (const [index, step] of STEPS.entries())
      assert.deepEqual(actual[index], expected[index], `step ${index} (${step.tool}): what the model received is what the core answers`);
    assert.deepEqual(snapshot(root), after, 'the agent turn and the direct calls left the same files');
  });

  it('the first request offered every tool as mcp_agent_fs_*, with the descriptions and schemas the server lists, on the VS Code docs/clients.md names', async function () {
    const model = await scriptedModel();
    const first = model.requests.find((request) => request.main);
    assert.ok(first, 'a main request was recorded');
    const ours = first.tools.filter((tool) => tool.name.startsWith(PREFIX));
    const theirs = first.tools.filter((tool) => !tool.name.startsWith(PREFIX));
    assert.deepEqual(ours.map((tool) => tool.name).sort(), TOOL_DEFINITIONS.map((tool) => `${PREFIX}${tool.name}`).sort());
    for (const tool of TOOL_DEFINITIONS) {
      const offered = ours.find((each) => each.name === `${PREFIX}${tool.name}`) as OfferedTool;
      const listed = mcpTool(tool, serverNaming('elicit'));
      assert.equal(offered.description, listed.description, `${tool.name}: the description arrives unchanged`);
      assert.deepEqual(offered.inputSchema, listed.inputSchema, `${tool.name}: the schema arrives unchanged`);
    }
    // The client setups name the version they tested: this one.
    const setups = fs.readFileSync(path.join(process.env.AGENTFS_IT_REPO ?? '', 'docs', 'clients.md'), 'utf8');
    assert.equal(/\*\*VS Code\*\* \(\*tested\*: ([\d.]+)\)/.exec(setups)?.[1], vscode.version, "docs/clients.md's tested VS Code version");
    const bytes = (list: readonly OfferedTool[]): number => list.reduce((sum, tool) => sum + definitionBytes(tool), 0);
    report('offered', {
      agentFsTools: ours.length,
      agentFsDefinitionBytes: bytes(ours),
      builtInTools: theirs.length,
      builtInDefinitionBytes: bytes(theirs),
    });
  });

  // Over stdio VS Code starts the server itself and its log stays inside VS Code; the HTTP launch keeps it in a file.
  const logFile = process.env.AGENTFS_IT_MCP_LOG;
  if (logFile !== undefined)
    it('over HTTP, VS Code opened with initialize: the server names it with revision 2025-11-25 (a session, so it can ask)', function () {
      const log = fs.readFileSync(logFile, 'utf8');
      assert.match(log, new RegExp(`client \\S+ ${vscode.version.replace(/\./g, '\\.')} \\(2025-11-25\\): can ask \\(elicitation\\)`), log);
      assert.doesNotMatch(log, /\(2026-07-28\)/, 'no request of the new revision');
    });
});
