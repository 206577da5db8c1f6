/**
 * What the scripted model does in every client: every Agent FS tool once, a read outside the base, destructive
 * calls the client confirms (or declines), and undo at the end. The tree it works on and the tree it must leave
 * are written here, so each client's run is checked against the same disk.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOOL_DEFINITIONS } from '../../src/core/tools';
import { checkEnvelope } from '../shared/results';
import type { OfferedTool, ReceivedResult, Reply, Script, Turn } from './model';

/** The envelope inside what a client showed the model, however the client wrapped or escaped it. */
export interface SeenEnvelope {
  readonly ok: boolean;
  readonly operation: string;
  readonly data?: Record<string, unknown>;
  readonly error?: { readonly code: string; readonly message: string; readonly details?: Record<string, unknown> };
}

/** The JSON object starting at `at`, if one does. */
function objectAt(text: string, at: number): unknown {
  let depth = 0;
  let inString = false;
  for (let index = at; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) {
      try {
        return JSON.parse(text.slice(at, index + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Finds the envelope in a result's text: as it is (Claude Code, Codex after its "Output:" line), or escaped once or
 * twice inside a JSON string (Gemini CLI's error results).
 */
function envelopeIn(text: string): SeenEnvelope | undefined {
  let current = text;
  for (let level = 0; level < 4; level++) {
    for (let at = current.indexOf('{"ok":'); at >= 0; at = current.indexOf('{"ok":', at + 1)) {
      const found = objectAt(current, at) as SeenEnvelope | undefined;
      if (found && typeof found.ok === 'boolean' && typeof found.operation === 'string') return found;
    }
    // One level of JSON string escaping off: \\ → \, \" → ", \n → newline.
    current = current.replace(/\\(["\\/nrt])/g, (_match, char: string) =>
      char === 'n' ? '\n' : char === 'r' ? '\r' : char === 't' ? '\t' : char,
    );
  }
  return undefined;
}

/** The base tree every run starts from, and a file beside the base that no call may reach. */
export const START_TREE: Readonly<Record<string, string>> = {
  'README.md': '# Demo\n\nA project for the client matrix.\n',
  'src/app.js': 'const answer = 41;\nconsole.log(answer);\n// TODO: check the answer\n',
  'docs/guide.md': '# Guide\n\nStep one.\n',
  'docs/notes.txt': 'notes\n',
};
export const OUTSIDE_FILE = { name: 'secret.txt', content: 'not for the agent\n' };

const PATCH =
  '--- a/README.md\n+++ b/README.md\n@@ -1,3 +1,3 @@\n # Demo\n \n-A project for the client matrix.\n+A project every agent has edited.\n';

/** The tree a full run leaves when the client let the destructive calls run: everything done, two changes undone. */
/** A notebook as Jupyter writes one (nbformat 4.4: new cells get no random id, so the end is known byte for byte). */
function notebook(cells: readonly Record<string, unknown>[]): string {
  return `${JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 4 }, null, 1)}\n`;
}

/** A Python file for the symbol tools: outlined, its function's references found, the function replaced. */
const TOOL_PY = 'def greet(name):\n    return "hi " + name\n';

const HEADING_CELL = { cell_type: 'markdown', metadata: {}, source: ['# Analysis'] };
const NOTEBOOK = notebook([HEADING_CELL]);

export const END_TREE: Readonly<Record<string, string>> = {
  'README.md': '# Demo\n\nA project every agent has edited.\n',
  'src/app.js': 'const reply = 42;\nconsole.log(reply);\n// TODO: check the reply\n',
  'docs/guide.md': '# Guide\n\nStep one.\n',
  'docs/notes.txt': 'notes\n',
  'build/out.txt': 'ONE\nthree\nfour\n',
  'build/analysis.ipynb': notebook([
    HEADING_CELL,
    { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: ['print(1)'] },
  ]),
  'build/notes-moved.md': '# Notes\n',
  'build/tool.py': 'def greet(name):\n    return "hello " + name\n',
  // Deleted by delete_file, back by undo_last.
  'notes.md': '# Notes\n',
  // Moved here, deleted by delete_directory, back by undo_operation.
  'archive/docs/guide.md': '# Guide\n\nStep one.\n',
  'archive/docs/notes.txt': 'notes\n',
};

export function layOut(base: string, outside: string): void {
  for (const [relative, content] of Object.entries(START_TREE)) {
    fs.mkdirSync(path.dirname(path.join(base, relative)), { recursive: true });
    fs.writeFileSync(path.join(base, relative), content);
  }
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, OUTSIDE_FILE.name), OUTSIDE_FILE.content);
}

/** Every file under `dir` with its content (directories only through their files), sorted by path. */
export function treeOf(dir: string): Record<string, string> {
  const tree: Record<string, string> = {};
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else tree[child] = fs.readFileSync(path.join(dir, child), 'utf8');
    }
  };
  walk('');
  return Object.fromEntries(Object.entries(tree).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** What the model has seen so far, for steps whose input depends on an earlier result. */
interface Seen {
  readonly envelopes: readonly (SeenEnvelope | undefined)[];
}

export interface Step {
  readonly tool: string;
  readonly input: (seen: Seen) => Record<string, unknown>;
  /** Checks the envelope the model received for this step. */
  readonly expect: (envelope: SeenEnvelope, result: ReceivedResult) => void;
  /** The call needs the person's confirmation (the server asks, where the client can). */
  readonly confirmed?: boolean;
}

function ok(check?: (data: Record<string, unknown>) => void): (envelope: SeenEnvelope) => void {
  return (envelope) => {
    assert.equal(envelope.ok, true, `expected ok, got ${JSON.stringify(envelope)}`);
    check?.(envelope.data ?? {});
  };
}

function refused(code: string): (envelope: SeenEnvelope) => void {
  return (envelope) => {
    assert.equal(envelope.ok, false, `expected ${code}, got ${JSON.stringify(envelope)}`);
    assert.equal(envelope.error?.code, code, JSON.stringify(envelope));
  };
}

/** The operation_id of the n-th newest change in the last history_list the model saw. */
function operationId(seen: Seen, newest: number): string {
  const listed = [...seen.envelopes].reverse().find((envelope) => envelope?.operation === 'history_list');
  const operations = (listed?.data?.operations ?? []) as { operation_id?: string; tool?: string }[];
  const id = operations[newest]?.operation_id;
  assert.ok(id !== undefined, `history_list showed no change at ${newest}: ${JSON.stringify(listed)}`);
  return id;
}

const json = (value: unknown): string => JSON.stringify(value);

/** The full scenario. `confirmations` false: every confirmed call must come back declined and change nothing. */
export function fullScenario(): Step[] {
  const steps: Step[] = [
    { tool: 'workspace_info', input: () => ({}), expect: ok() },
    { tool: 'list_files', input: () => ({}), expect: ok((data) => assert.ok(json(data.files).includes('src/app.js'))) },
    { tool: 'list_directory', input: () => ({}), expect: ok((data) => assert.ok(json(data).includes('docs'))) },
    { tool: 'directory_tree', input: () => ({}), expect: ok((data) => assert.match(String(data.tree), /guide\.md/)) },
    { tool: 'path_exists', input: () => ({ path: 'src/app.js' }), expect: ok((data) => assert.equal(data.path_type, 'file')) },
    { tool: 'file_info', input: () => ({ path: 'README.md' }), expect: ok((data) => assert.equal(data.type, 'file')) },
    { tool: 'find_file', input: () => ({ file_name: 'app.js' }), expect: ok((data) => assert.equal(data.match_type, 'exact')) },
    { tool: 'search_files', input: () => ({ pattern: '*.md' }), expect: ok((data) => assert.ok(json(data).includes('docs/guide.md'))) },
    { tool: 'search_content', input: () => ({ query: 'TODO' }), expect: ok((data) => assert.ok(json(data).includes('src/app.js'))) },
    {
      tool: 'read_file',
      input: () => ({ file_name: 'src/app.js' }),
      expect: ok((data) => assert.equal(data.content, START_TREE['src/app.js'])),
    },
    {
      tool: 'read_many_files',
      input: () => ({ paths: ['README.md', 'docs/guide.md'] }),
      expect: ok((data) => assert.ok(json(data).includes('Step one.'))),
    },
    { tool: 'read_file', input: () => ({ file_name: `../outside/${OUTSIDE_FILE.name}` }), expect: refused('FILE_PATH_OUTSIDE_BASE') },
    { tool: 'create_directory', input: () => ({ directory_name: 'build' }), expect: ok() },
    { tool: 'create_file', input: () => ({ path: 'build/out.txt', content: 'one\ntwo\nthree\n' }), expect: ok() },
    { tool: 'write_file', input: () => ({ file_name: 'notes.md', content: '# Notes\n' }), expect: ok() },
    {
      tool: 'edit_file',
      input: () => ({ path: 'src/app.js', old_string: 'const answer = 41;', new_string: 'const answer = 42;' }),
      expect: ok(),
    },
    { tool: 'replace_lines', input: () => ({ path: 'build/out.txt', start_line: 1, end_line: 1, content: 'ONE' }), expect: ok() },
    { tool: 'insert_lines', input: () => ({ path: 'build/out.txt', position: 'end', content: 'four' }), expect: ok() },
    { tool: 'delete_lines', input: () => ({ path: 'build/out.txt', start_line: 2, end_line: 2 }), expect: ok() },
    { tool: 'create_file', input: () => ({ path: 'build/tool.py', content: TOOL_PY }), expect: ok() },
    {
      tool: 'read_outline',
      input: () => ({ path: 'build/tool.py' }),
      expect: ok((data) => assert.equal(json(data.symbols), json([{ name_path: 'greet', kind: 'function', start_line: 1, end_line: 2 }]))),
    },
    {
      tool: 'find_references',
      input: () => ({ path: 'build/tool.py', symbol: 'greet' }),
      expect: ok((data) => assert.ok(data.approximate === true && json(data.references).includes('build/tool.py'), json(data))),
    },
    {
      tool: 'edit_symbol',
      input: () => ({ path: 'build/tool.py', symbol: 'greet', action: 'replace', text: 'def greet(name):\n    return "hello " + name' }),
      expect: ok((data) => assert.equal(data.start_line, 1)),
    },
    { tool: 'create_file', input: () => ({ path: 'build/analysis.ipynb', content: NOTEBOOK }), expect: ok() },
    {
      tool: 'edit_notebook',
      input: () => ({ path: 'build/analysis.ipynb', edits: [{ action: 'insert', source: 'print(1)' }] }),
      expect: ok((data) => assert.equal(data.total_cells, 2)),
    },
    { tool: 'copy_file', input: () => ({ source_path: 'notes.md', destination_path: 'build/notes-copy.md' }), expect: ok() },
    { tool: 'move_file', input: () => ({ source_path: 'build/notes-copy.md', destination_path: 'build/notes-moved.md' }), expect: ok() },
    { tool: 'copy_directory', input: () => ({ source_path: 'docs', destination_path: 'docs-copy' }), expect: ok() },
    { tool: 'move_directory', input: () => ({ source_path: 'docs-copy', destination_path: 'archive/docs' }), expect: ok() },
    { tool: 'apply_patch', input: () => ({ patch: PATCH }), expect: ok(), confirmed: true },
    {
      tool: 'replace_in_files',
      input: () => ({ query: 'answer', replacement: 'reply', whole_word: true, paths: ['src'] }),
      expect: ok((data) => assert.equal(data.replacements, 3)),
      confirmed: true,
    },
    { tool: 'delete_directory', input: () => ({ directory_path: 'archive', recursive: true }), expect: ok(), confirmed: true },
    { tool: 'delete_file', input: () => ({ file_name: 'notes.md' }), expect: ok(), confirmed: true },
    {
      tool: 'history_list',
      input: () => ({}),
      expect: ok((data) => assert.ok(Number(data.count) >= 14, `history_list count ${json(data.count)}`)),
    },
    {
      tool: 'history_get',
      input: (seen) => ({ operation_id: operationId(seen, 0) }),
      expect: ok((data) => assert.ok(json(data).includes('notes.md'))),
    },
    { tool: 'undo_last', input: () => ({}), expect: ok(), confirmed: true },
    // The delete_directory: second newest in the list, before undo_last added its own record.
    { tool: 'undo_operation', input: (seen) => ({ operation_id: operationId(seen, 1) }), expect: ok(), confirmed: true },
  ];
  const used = new Set(steps.map((step) => step.tool));
  for (const tool of TOOL_DEFINITIONS) assert.ok(used.has(tool.name), `the scenario uses ${tool.name}`);
  return steps;
}

/**
 * A short scenario for a configuration whose client answers the question itself: a read, then a delete that must be
 * refused, with the message naming what the person can set (`remedy`).
 */
export function declinedScenario(remedy: RegExp): Step[] {
  return [
    { tool: 'read_file', input: () => ({ file_name: 'docs/notes.txt' }), expect: ok() },
    {
      tool: 'delete_file',
      input: () => ({ file_name: 'docs/notes.txt' }),
      expect: (envelope) => {
        refused('CONFIRMATION_DECLINED')(envelope);
        assert.match(envelope.error?.message ?? '', remedy);
      },
      confirmed: true,
    },
  ];
}

/**
 * For a client started in the home folder (its one root, and the server's folder): a write is recorded though the
 * root holds Agent FS's per-user state folder, which no tool can list or reach.
 */
export function homeScenario(): Step[] {
  return [
    { tool: 'write_file', input: () => ({ file_name: 'notes.md', content: '# Notes\n' }), expect: ok() },
    {
      tool: 'list_directory',
      input: () => ({ path: '.local/state', include_hidden: true, include_ignored: true }),
      expect: ok((data) => assert.ok(!json(data).includes('agent-fs'), `the listing shows Agent FS's folder: ${json(data)}`)),
    },
    { tool: 'list_directory', input: () => ({ path: '.local/state/agent-fs/locks' }), expect: refused('SENSITIVE_PATH_REFUSED') },
    { tool: 'history_list', input: () => ({}), expect: ok((data) => assert.equal(data.count, 1)) },
  ];
}

/**
 * The client's name for each tool: every client prefixes the server's tools (`mcp__agent-fs__read_file`,
 * `mcp_agent-fs_read_file`, Codex's namespace), and some have built-in tools with the bare names, so the prefix is
 * found once from workspace_info (no client has a tool of that name) and must fit every tool.
 */
export function clientNames(tools: readonly OfferedTool[]): Map<string, string> {
  const anchor = tools.find((tool) => tool.name.endsWith('workspace_info'));
  assert.ok(anchor, `no workspace_info among the offered tools: ${tools.map((tool) => tool.name).join(', ')}`);
  const prefix = anchor.name.slice(0, -'workspace_info'.length);
  const names = new Map<string, string>();
  for (const definition of TOOL_DEFINITIONS) {
    const name = `${prefix}${definition.name}`;
    assert.ok(
      tools.some((tool) => tool.name === name),
      `the client offered no ${name}`,
    );
    names.set(definition.name, name);
  }
  return names;
}

/** Whether an offered name is one of Agent FS's tools under a client's prefix (never a client's own bare tool). */
export function isAgentFsTool(name: string): boolean {
  return /agent.?fs/i.test(name) && TOOL_DEFINITIONS.some((tool) => name.endsWith(tool.name));
}

/** The scripted model's script for these steps: the next step is the one after the results the conversation holds. */
export function scriptOf(steps: readonly Step[], prompt: string): Script {
  return (turn: Turn): Reply => {
    const names = clientNames(turn.tools);
    const done = turn.results.length;
    const step = steps[done];
    if (step === undefined) return { text: `Done: ${steps.length} steps of "${prompt}".` };
    const seen: Seen = { envelopes: turn.results.map((result) => envelopeIn(result.text)) };
    const name = names.get(step.tool) ?? step.tool;
    const args = step.input(seen);
    // Gemini CLI adds wait_for_previous to every schema and tells the model to set it on a call that depends on the
    // one before: here every call after the first does, so the model sets it as told.
    const offered = turn.tools.find((tool) => tool.name === name);
    const properties = (offered?.schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    if (done > 0 && 'wait_for_previous' in properties) return { call: name, args: { ...args, wait_for_previous: true } };
    return { call: name, args };
  };
}

/** Checks every step against what the model received, in order; returns the envelopes. */
export function checkResults(steps: readonly Step[], turn: Turn | undefined): SeenEnvelope[] {
  assert.ok(turn, 'the model got no request with the Agent FS tools');
  assert.equal(turn.results.length, steps.length, `the model saw ${turn.results.length} results for ${steps.length} steps`);
  return steps.map((step, index) => {
    const result = turn.results[index];
    assert.ok(result);
    assert.ok(result.tool.endsWith(step.tool), `result ${index + 1} is of ${result.tool}, expected ${step.tool}`);
    const envelope = envelopeIn(result.text);
    assert.ok(envelope, `step ${index + 1} (${step.tool}): no envelope in what the model received:\n${result.text}`);
    assert.equal(envelope.operation, step.tool);
    checkEnvelope(envelope);
    step.expect(envelope, result);
    return envelope;
  });
}
