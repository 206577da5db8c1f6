/**
 * The browser's checks, loaded as `extensionTestsPath` by VS Code's web worker extension host (test/launcher/web.ts
 * bundles this file for a browser, as esbuild.mjs bundles the extension's `browser` entry): Agent FS activates there,
 * from dist/web.js, over a virtual workspace (test/web/memfs.ts), and a model's calls read, write, edit, delete,
 * undo and list the history; the provider's own state is checked after each change. Mocha's runner wants Node, so
 * the checks run in order here and report as the integration suite does: lines starting with MARKER and one RESULT.
 */
import * as vscode from 'vscode';
import type { Envelope } from '../../src/core/envelope';
import type { AgentFsApi } from '../../src/vscode/activate';
import { checkEnvelope } from '../shared/results';
import { registerMemoryFileSystem, SCHEME, SEED } from './memfs';

const MARKER = '[agentfs-it] ';

function say(line: string): void {
  console.log(MARKER + line.split('\n').join(`\n${MARKER}`));
}

function fail(message: string): never {
  throw new Error(message);
}

function equal(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) fail(`${what}: expected ${e}, got ${a}`);
}

function ok(condition: boolean, what: string): asserts condition {
  if (!condition) fail(what);
}

const agentFs = (): vscode.Extension<AgentFsApi> =>
  vscode.extensions.getExtension<AgentFsApi>('agent-fs.agent-fs') ?? fail('Agent FS is not loaded');

let files: () => Record<string, string> = () => fail('the memory file system is not registered');

/** A model's call: vscode.lm.invokeTool, its one text part parsed and held to the tool's envelope schema. */
async function call(operation: string, input: object): Promise<Envelope & { data?: Record<string, unknown> }> {
  const result = await vscode.lm.invokeTool(`agentfs_${operation}`, { input, toolInvocationToken: undefined });
  const part = result.content[0] as { value?: unknown } | undefined;
  ok(result.content.length === 1 && typeof part?.value === 'string', `${operation}: one text part`);
  const envelope = JSON.parse(part.value) as Envelope & { data?: Record<string, unknown> };
  checkEnvelope(envelope);
  return envelope;
}

async function data(operation: string, input: object): Promise<Record<string, unknown>> {
  const envelope = await call(operation, input);
  if (!envelope.ok) fail(`${operation}: ${envelope.error.code}: ${envelope.error.message}`);
  return envelope.data ?? {};
}

const CHECKS: [string, () => Promise<void>][] = [
  [
    'runs in the web worker extension host, from the browser bundle, over the virtual folder',
    async () => {
      // A web worker's global scope, and no Node: the desktop's extension host is the other way round.
      const scope = globalThis as { WorkerGlobalScope?: unknown; process?: unknown; importScripts?: unknown };
      ok(
        scope.WorkerGlobalScope !== undefined && scope.process === undefined,
        `not in a web worker (WorkerGlobalScope ${typeof scope.WorkerGlobalScope}, process ${typeof scope.process})`,
      );
      const extension = agentFs();
      equal(extension.extensionKind, vscode.ExtensionKind.UI, 'extension kind');
      equal((extension.packageJSON as { browser?: string }).browser, './dist/web.js', 'browser entry');
      await extension.activate();
      ok(extension.isActive, 'Agent FS did not activate');
      equal(
        (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString()),
        [`${SCHEME}:/project`],
        'workspace folders',
      );
    },
  ],
  [
    'registers every tool and its commands, and leaves out Connect Another Agent',
    async () => {
      await agentFs().activate();
      const contributed = (agentFs().packageJSON as { contributes: { languageModelTools: { name: string }[] } }).contributes
        .languageModelTools;
      if (vscode.lm.tools.length > 0) {
        const registered = new Set(vscode.lm.tools.map((tool) => tool.name));
        equal(
          contributed.map((tool) => tool.name).filter((name) => !registered.has(name)),
          [],
          'tools contributed but not registered',
        );
      } else {
        // VS Code 1.100's web workbench never hands its tool list to the extension host: a registered tool is one
        // invokeTool reaches, and an input no tool takes is refused by Agent FS's own validation.
        ok(vscode.version.startsWith('1.100.'), `vscode.lm.tools is empty in VS Code ${vscode.version}`);
        for (const { name } of contributed) {
          const envelope = await call(name.replace(/^agentfs_/, ''), { definitely_not_a_parameter: true });
          equal(envelope.ok ? 'ok' : envelope.error.code, 'INVALID_INPUT', name);
        }
      }
      const commands = new Set(await vscode.commands.getCommands(true));
      for (const command of ['agentFs.runTool', 'agentFs.selectBaseDirectory', 'agentFs.undoLast', 'agentFs.showHistory'])
        ok(commands.has(command), `${command} is not registered`);
      ok(!commands.has('agentFs.connectAgent'), 'Connect Another Agent is registered, though no MCP server can run here');
    },
  ],
  [
    'reads, lists and searches without ripgrep or the path index',
    async () => {
      const read = await data('read_file', { file_name: 'notes.txt' });
      equal(read.content, SEED['/project/notes.txt'], 'read_file content');
      const listed = await data('list_files', {});
      equal(listed.files, ['docs/readme.md', 'notes.txt', 'src/app.ts'], 'list_files');
      const found = await data('search_content', { query: 'answer' });
      equal(found.engine, 'scan', 'search engine');
      equal(
        (found.matches as { path: string; line: number }[]).map((match) => `${match.path}:${match.line}`),
        ['src/app.ts:1'],
        'search_content matches',
      );
      const info = await data('workspace_info', {});
      equal((info.path_index as { enabled?: unknown } | undefined)?.enabled ?? false, false, 'workspace_info path_index');
    },
  ],
  [
    'writes, edits and deletes on the virtual file system, and undoes each, newest first',
    async () => {
      const written = await data('write_file', { file_name: 'todo/list.md', content: '- try vscode.dev\n' });
      equal(written.created, true, 'write_file created');
      equal(files()['/project/todo/list.md'], '- try vscode.dev\n', 'the written file');
      const edited = await data('edit_file', { path: 'notes.txt', old_string: 'second', new_string: '2nd' });
      equal(edited.undo_available, true, 'edit undo_available');
      equal(files()['/project/notes.txt'], 'first line\n2nd line\n', 'the edited file');
      await data('delete_file', { file_name: 'docs/readme.md' });
      equal(files()['/project/docs/readme.md'], undefined, 'the deleted file');

      await data('undo_last', {});
      equal(files()['/project/docs/readme.md'], SEED['/project/docs/readme.md'], 'the delete undone');
      await data('undo_last', {});
      equal(files()['/project/notes.txt'], SEED['/project/notes.txt'], 'the edit undone');
      await data('undo_last', {});
      equal(files()['/project/todo/list.md'], undefined, 'the write undone');
    },
  ],
  [
    'lists the history kept in the extension storage, outside the workspace, and shows it in the Activity view',
    async () => {
      const history = await data('history_list', {});
      const operations = history.operations as { operation: string; undone: boolean; host: string }[];
      equal(
        operations.map((operation) => `${operation.operation}${operation.undone ? ' (undone)' : ''}`),
        ['undo_last', 'undo_last', 'undo_last', 'delete_file (undone)', 'edit_file (undone)', 'write_file (undone)'],
        'history_list',
      );
      ok(
        operations.every((operation) => operation.host === 'editor'),
        'every operation is the editor host',
      );
      // Nothing of the history lands in the workspace.
      equal(
        Object.keys(files()).filter((path) => !(path in SEED) && path !== '/project/todo/list.md'),
        [],
        'files the history left in the workspace',
      );
      const { activity } = await agentFs().activate();
      const sessions = await activity.getChildren();
      const shown = (await Promise.all(sessions.map((session) => activity.getChildren(session)))).flat();
      equal(shown.length, operations.length, 'operations the Activity view shows');
      ok(
        shown.every((node) => typeof activity.getTreeItem(node).label === 'string'),
        'every operation in the Activity view has its summary',
      );
    },
  ],
  [
    'asks before a delete: the confirmation says what will be lost and that Agent FS can undo it',
    async () => {
      const api = await agentFs().activate();
      const preparation = await api.prepare('delete_file', { file_name: 'src/app.ts' });
      ok(preparation.confirmation !== undefined, 'no confirmation for a delete');
      equal(preparation.confirmation.title, 'Delete src/app.ts?', 'confirmation title');
      ok(/Agent FS can undo this/.test(preparation.confirmation.message), `confirmation message: ${preparation.confirmation.message}`);
      equal(files()['/project/src/app.ts'], SEED['/project/src/app.ts'], 'a prepared call changes nothing');
    },
  ],
];

export async function run(): Promise<void> {
  say(`VS Code ${vscode.version} (${vscode.env.appName}, ui kind ${vscode.UIKind[vscode.env.uiKind]}), scenario web`);
  files = registerMemoryFileSystem();
  let passed = 0;
  let failed = 0;
  for (const [title, check] of CHECKS) {
    try {
      await check();
      passed++;
      say(`  ✔ ${title}`);
    } catch (error) {
      failed++;
      say(`  ✘ ${title}\n      ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  say(`RESULT ${JSON.stringify({ vscode: vscode.version, scenario: 'web', passed, failed, pending: 0 })}`);
  if (failed > 0) throw new Error(`${failed} browser checks failed.`);
}
