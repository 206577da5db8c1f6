/**
 * The extension-host half of `npm run bench:host`: loaded by VS Code as the test module of a window whose
 * workspace is the generated tree (and the folder of the 1 GiB log), it times every read, search and list workload
 * through the extension's API (the call a model's makes, minus VS Code's tool plumbing), through
 * `vscode.lm.invokeTool` (all of it), and beside them the same work done with VS Code's own APIs in the same host.
 * It also runs the core over a port that keeps every read on workspace.fs, to show what the `file:` fast path of
 * src/vscode/fileSystem.ts buys. Each line it prints starts with MARKER; the last one, `RESULT {json}`, carries
 * the rows to the launcher (run.ts), which reports them.
 *
 * Over 300 lines: one module the extension host loads, each workload beside the VS Code API it is measured against.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import * as vscode from 'vscode';
import { invokeOperation, type Session } from '../../src/core/invoke';
import { DEFAULT_POLICY } from '../../src/core/settings';
import { normalizeAbsolute } from '../../src/core/paths';
import { VscodeFileSystem } from '../../src/vscode/fileSystem';
import { api, callTool } from '../../test/integration/helpers';
import { median, roundRobin } from '../report';

export const MARKER = '[agentfs-bench] ';

function say(...args: unknown[]): void {
  console.log(
    MARKER +
      format(...args)
        .split('\n')
        .join(`\n${MARKER}`),
  );
}

export interface HostRow {
  readonly workload: string;
  readonly tool: string;
  readonly reference: boolean;
  readonly times: number[];
  readonly result: string;
  readonly skipped?: string;
}

interface Spec {
  readonly tool: string;
  readonly reference?: boolean;
  readonly run: () => Promise<string>;
  /** Repetitions for this one (a slow reference gets fewer). */
  readonly reps?: number;
}

const rows: HostRow[] = [];

async function measure(workload: string, specs: readonly Spec[], reps: number): Promise<void> {
  // Round-robin per repetition count, so specs with fewer repetitions still take turns with the others.
  const groups = new Map<number, Spec[]>();
  for (const spec of specs) groups.set(spec.reps ?? reps, [...(groups.get(spec.reps ?? reps) ?? []), spec]);
  const timed = new Map<Spec, Awaited<ReturnType<typeof roundRobin>>[number]>();
  for (const [count, group] of groups) {
    const results = await roundRobin(
      group.map((spec) => spec.run),
      count,
      { budgetMs: 120_000, onStart: (index) => say(`  ${workload}: ${group[index]?.tool ?? ''}…`) },
    );
    for (const [index, spec] of group.entries()) {
      const result = results[index];
      if (result) timed.set(spec, result);
    }
  }
  for (const spec of specs) {
    const { times = [], result = '', failure } = timed.get(spec) ?? {};
    rows.push({
      workload,
      tool: spec.tool,
      reference: spec.reference ?? false,
      times,
      result,
      ...(failure === undefined ? {} : { skipped: failure }),
    });
  }
}

type Data = Record<string, unknown>;

function ok(operation: string, envelope: { ok: boolean; data?: unknown; error?: { code: string; message: string } }): Data {
  if (!envelope.ok) throw new Error(`${operation}: ${envelope.error?.code ?? ''} ${envelope.error?.message ?? ''}`);
  return envelope.data as Data;
}

/** The core over a port that reads through workspace.fs only, in this host (what the fast path replaces). */
function workspaceFsSession(): Session {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const fs = new VscodeFileSystem(
    folders.map((folder) => folder.uri),
    { diskReads: false },
  );
  const roots = folders.map((folder) => ({ name: folder.name, path: normalizeAbsolute(folder.uri.path) }));
  return { policy: () => DEFAULT_POLICY, workspace: () => Promise.resolve({ roots, fs }) };
}

/** Every entry below `root` through workspace.fs.readDirectory, `concurrency` directories at a time. */
async function readDirectoryWalk(root: vscode.Uri, concurrency: number): Promise<number> {
  let entries = 0;
  const pending: vscode.Uri[] = [root];
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    const pump = (): void => {
      while (active < concurrency && pending.length > 0) {
        const next = pending.pop();
        if (!next) break;
        active++;
        vscode.workspace.fs.readDirectory(next).then(
          (children) => {
            for (const [name, type] of children) {
              entries++;
              if (type === vscode.FileType.Directory && name !== 'node_modules' && name !== '.git')
                pending.push(vscode.Uri.joinPath(next, name));
            }
            active--;
            pump();
          },
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        );
      }
      if (active === 0 && pending.length === 0) resolve();
    };
    pump();
  });
  return entries;
}

/** Per-call times of `count` sequential calls, as one row's times: a tiny call is measured by its median. */
async function perCall(count: number, call: () => Thenable<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return times;
}

export async function run(): Promise<void> {
  const reps = Math.max(1, Number(process.env.AGENTFS_BENCH_REPS ?? 5));
  const only = process.env.AGENTFS_BENCH_ONLY ? process.env.AGENTFS_BENCH_ONLY.split(',') : undefined;
  const wants = (key: string): boolean => only === undefined || only.includes(key);
  const [tree, logs] = vscode.workspace.workspaceFolders ?? [];
  if (!tree || !logs) throw new Error('the bench window opens two folders: the generated tree and the folder of its log');
  say(
    `VS Code ${vscode.version} (${vscode.env.appName}), extension host on Node ${process.version}, folders ${tree.uri.fsPath} and ${logs.uri.fsPath}`,
  );
  const agentFs = await api();
  const viaApi = async (operation: string, input: Data): Promise<Data> => ok(operation, await agentFs.invoke(operation, input));
  const viaTool = async (operation: string, input: Data): Promise<Data> => ok(operation, await callTool(operation, input));
  const plainFs = workspaceFsSession();
  const viaWorkspaceFs = async (operation: string, input: Data): Promise<Data> =>
    ok(operation, await invokeOperation(operation, input, plainFs));
  /** The three ways Agent FS is called, as rows of one workload. */
  const ours = (operation: string, input: Data, describe: (data: Data) => string, withPlainFs = false): Spec[] => [
    { tool: `agentfs ${operation} (extension API)`, run: async () => describe(await viaApi(operation, input)) },
    { tool: `agentfs ${operation} (invokeTool)`, run: async () => describe(await viaTool(operation, input)) },
    ...(withPlainFs
      ? [{ tool: `agentfs ${operation} (core over workspace.fs only)`, run: async () => describe(await viaWorkspaceFs(operation, input)) }]
      : []),
  ];
  const treeName = tree.name;

  if (wants('glob')) {
    await measure(
      'glob **/*.md',
      [
        ...ours('search_files', { pattern: '**/*.md', max_results: 200 }, (data) => `${String(data.total)} paths`, true),
        {
          tool: 'workspace.findFiles (node_modules excluded)',
          reference: true,
          run: async () => `${(await vscode.workspace.findFiles('**/*.md', '**/node_modules/**')).length} paths`,
        },
      ],
      reps,
    );
  }
  if (wants('index')) {
    // Repeated calls answered by the editor's path index, each after three changes below one folder of the tree
    // (a file created, one renamed, one deleted), against workspace.findFiles after the same changes.
    const churn = path.join(tree.uri.fsPath, 'zz-index-churn');
    fs.rmSync(churn, { recursive: true, force: true });
    fs.mkdirSync(churn);
    let step = 0;
    const change = (): void => {
      step++;
      fs.writeFileSync(path.join(churn, `note-${step}.md`), `# ${step}\n`);
      if (step > 1) fs.renameSync(path.join(churn, `note-${step - 1}.md`), path.join(churn, `renamed-${step - 1}.md`));
      if (step > 2) fs.rmSync(path.join(churn, `renamed-${step - 2}.md`));
    };
    await viaApi('search_files', { pattern: '**/*.md', max_results: 1 });
    for (let tries = 0; tries < 1200; tries++) {
      const info = (await viaApi('workspace_info', {})).path_index as { state?: string } | null;
      if (info?.state === 'ready') {
        say(`  path index ready: ${JSON.stringify(info)}`);
        break;
      }
      if (info === null || info.state === 'off') throw new Error(`no path index: ${JSON.stringify(info)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const after = (operation: string, input: Data, describe: (data: Data) => string): Spec => ({
      tool: `agentfs ${operation}, indexed (extension API)`,
      run: async () => {
        change();
        return describe(await viaApi(operation, input));
      },
    });
    const findFiles = (include: string): Spec => ({
      tool: `workspace.findFiles ${include} (node_modules excluded)`,
      reference: true,
      run: async () => {
        change();
        return `${(await vscode.workspace.findFiles(include, '**/node_modules/**')).length} paths`;
      },
    });
    await measure(
      'repeated after changes: glob **/*.md',
      [after('search_files', { pattern: '**/*.md', max_results: 200 }, (data) => `${String(data.total)} paths`), findFiles('**/*.md')],
      reps,
    );
    await measure(
      'repeated after changes: fuzzy file name',
      [
        after(
          'find_file',
          { file_name: 'user controler', max_results: 20 },
          (data) => `${String(data.count)} shown, ${String(data.match_type)}`,
        ),
        findFiles('**/*user*contr*'),
      ],
      reps,
    );
    await measure(
      'repeated after changes: recursive list_files (returns 1,000)',
      [
        after('list_files', { path: treeName, recursive: true, max_results: 1000 }, (data) => `${String(data.total)} files`),
        findFiles('**/*'),
      ],
      reps,
    );
    fs.rmSync(churn, { recursive: true, force: true });
  }
  if (wants('fuzzy')) {
    await measure(
      'fuzzy file name',
      ours(
        'find_file',
        { file_name: 'user controler', max_results: 20 },
        (data) => `${String(data.count)} shown, ${String(data.match_type)}`,
      ),
      reps,
    );
  }
  if (wants('list')) {
    const entries = (data: Data): string => `${String(data.total)} entries`;
    await measure(
      'recursive listing (returns 1,000)',
      [
        ...ours('list_directory', { path: treeName, recursive: true, include_hidden: true, max_entries: 1000 }, entries, true),
        ...ours('list_files', { path: treeName, recursive: true, max_results: 1000 }, (data) => `${String(data.total)} files`),
        {
          tool: 'workspace.fs.readDirectory walk, 16 at a time',
          reference: true,
          run: async () => `${await readDirectoryWalk(tree.uri, 16)} entries`,
        },
        {
          tool: 'workspace.fs.readDirectory walk, one at a time',
          reference: true,
          reps: 1,
          run: async () => `${await readDirectoryWalk(tree.uri, 1)} entries`,
        },
      ],
      reps,
    );
  }
  if (wants('literal')) {
    await measure(
      'content literal (50 files)',
      ours(
        'search_content',
        { query: 'QUASAR_TOKEN_7f3a', path: treeName, case_sensitive: true, max_results: 200 },
        (data) => `${String(data.count)} matches (${String(data.engine)})`,
      ),
      reps,
    );
  }
  if (wants('read')) {
    const file = `${treeName}/README.md`;
    await measure(
      'read a small file',
      [
        ...ours('read_file', { file_name: file }, (data) => `${String(data.size_bytes)} bytes`, true),
        {
          tool: 'workspace.fs.readFile',
          reference: true,
          run: async () => `${(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(tree.uri, 'README.md'))).length} bytes`,
        },
      ],
      reps,
    );
  }
  if (wants('tail')) {
    await measure(
      'tail 100 lines of 1 GiB log',
      ours(
        'read_file',
        { file_name: `${logs.name}/app.log`, tail_lines: 100 },
        (data) => `${String(data.content).split('\n').length - 1} lines`,
      ),
      reps,
    );
  }
  if (wants('tiny')) {
    // Single calls: each row's times are 200 sequential calls, so its median is the median call.
    const calls = 200;
    const readme = vscode.Uri.joinPath(tree.uri, 'README.md');
    const workload = 'tiny call: path_exists (per call)';
    const series = [
      {
        tool: 'agentfs path_exists (extension API)',
        reference: false,
        call: () => agentFs.invoke('path_exists', { path: `${treeName}/README.md` }),
      },
      {
        tool: 'agentfs path_exists (invokeTool)',
        reference: false,
        call: () => callTool('path_exists', { path: `${treeName}/README.md` }),
      },
      {
        tool: 'agentfs path_exists (core over workspace.fs only)',
        reference: false,
        call: () => invokeOperation('path_exists', { path: `${treeName}/README.md` }, plainFs),
      },
      { tool: 'workspace.fs.stat', reference: true, call: () => vscode.workspace.fs.stat(readme) },
    ];
    for (const each of series) await perCall(20, each.call);
    for (const each of series) {
      say(`  ${workload}: ${each.tool}…`);
      rows.push({ workload, tool: each.tool, reference: each.reference, times: await perCall(calls, each.call), result: `${calls} calls` });
    }
  }
  for (const row of rows)
    say(
      `${row.workload} | ${row.tool} | median ${row.times.length > 0 ? median(row.times).toFixed(1) : '–'} ms | ${row.skipped ?? row.result}`,
    );
  say(`RESULT ${JSON.stringify({ vscode: vscode.version, node: process.version, folder: path.dirname(tree.uri.fsPath), rows })}`);
}
