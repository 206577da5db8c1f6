/**
 * The packaged extension as a user gets it: this window has Agent FS installed from the .vsix that
 * `npm run package` builds (code-server --install-extension), not loaded from the source tree. The launcher passes
 * the source tree (AGENTFS_IT_REPO), the extensions folder (AGENTFS_IT_EXTENSIONS_DIR) and the .vsix
 * (AGENTFS_IT_VSIX) so the checks can tell which copy runs and compare it with what the build produced. Nothing here
 * imports the extension's code: every call goes through the installed copy.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { makePdf } from '../../shared/documents';
import { api, callTool, contributedTools, expectError, expectOk, extension, scratch, toolListingWorks } from '../helpers';

function environment(name: string): string {
  const value = process.env[name];
  assert.ok(value, `${name} is not set: this suite runs only in the launcher's "installed" scenario`);
  return value;
}

const REPO = (): string => environment('AGENTFS_IT_REPO');

/**
 * Files a build of the source tree puts in dist/ (without maps; pdf.js's modules and the parsers' WebAssembly in
 * grammars/ too): each must be in the installed copy.
 */
function builtBundles(): string[] {
  const bundles = fs.readdirSync(path.join(REPO(), 'dist')).filter((name) => name.endsWith('.js') || name.endsWith('.mjs'));
  const grammars = fs.readdirSync(path.join(REPO(), 'dist', 'grammars')).map((name) => `grammars/${name}`);
  return [...bundles, ...grammars].sort();
}

/** The most a .vsix may weigh: the issue that brought the grammars allowed 6 MB (4.4 MB with them, 2.8 MB before). */
const MAX_VSIX_BYTES = 6_000_000;

/** Every file the manifest and the README point at. */
function referencedFiles(
  manifest: { icon?: string; contributes?: { views?: Record<string, { icon?: string }[]> } },
  readme: string,
): string[] {
  const views = Object.values(manifest.contributes?.views ?? {})
    .flat()
    .map((view) => view.icon);
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((link) => link !== undefined && !/^[a-z]+:/i.test(link));
  return [manifest.icon, ...views, ...images].filter((file): file is string => typeof file === 'string');
}

describe('the installed .vsix', () => {
  it('is the copy that runs, installed in the extensions folder, and it activates', async () => {
    const installed = extension();
    const extensionsDir = fs.realpathSync(environment('AGENTFS_IT_EXTENSIONS_DIR'));
    const location = fs.realpathSync(installed.extensionPath);
    assert.equal(path.dirname(location), extensionsDir, `Agent FS runs from ${location}, not from the extensions folder`);
    assert.notEqual(location, fs.realpathSync(REPO()));
    await installed.activate();
    assert.equal(installed.isActive, true);
    const source = JSON.parse(fs.readFileSync(path.join(REPO(), 'package.json'), 'utf8')) as { version: string };
    assert.equal((installed.packageJSON as { version: string }).version, source.version);
  });

  it('holds every bundle the build makes and every file the manifest and README name, and no sources or maps', () => {
    const location = extension().extensionPath;
    const missing = builtBundles().filter((name) => !fs.existsSync(path.join(location, 'dist', name)));
    assert.deepEqual(missing, [], 'bundles missing from the .vsix');
    // vsce stores the README as readme.md.
    const readmeName = fs.readdirSync(location).find((name) => name.toLowerCase() === 'readme.md');
    assert.ok(readmeName, 'the .vsix has a README');
    const readme = fs.readFileSync(path.join(location, readmeName), 'utf8');
    const referenced = referencedFiles(extension().packageJSON as Parameters<typeof referencedFiles>[0], readme);
    assert.ok(referenced.length >= 3, 'the icon, the view icon and the README images are referenced');
    const absent = referenced.filter((file) => !fs.existsSync(path.join(location, file)));
    assert.deepEqual(absent, [], 'files the manifest or README reference are missing from the .vsix');
    const all: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else all.push(path.relative(location, full));
      }
    };
    walk(location);
    const unwanted = all.filter((file) => /\.(ts|map)$/.test(file) || /^(src|test|out|bench|node_modules)\//.test(file));
    assert.deepEqual(unwanted, [], 'the .vsix carries files the extension does not run');
  });

  it(`weighs at most ${MAX_VSIX_BYTES} bytes with the grammars it ships`, () => {
    const size = fs.statSync(environment('AGENTFS_IT_VSIX')).size;
    assert.ok(size <= MAX_VSIX_BYTES, `the .vsix is ${size} bytes`);
  });

  it('ships the runner: dist/cli.js inside the installed copy answers --version', () => {
    const cli = path.join(extension().extensionPath, 'dist', 'cli.js');
    const version = execFileSync(process.execPath, [cli, '--version'], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    assert.equal(version.trim(), `agent-fs ${(extension().packageJSON as { version: string }).version}`);
  });

  it('reads a PDF with the pdf.js modules shipped beside the bundles', async () => {
    const s = scratch('installed-pdf');
    fs.writeFileSync(s.abs('one.pdf'), makePdf([['Installed text']]));
    const { data } = expectOk(await callTool('read_file', { file_name: s.rel('one.pdf') }));
    assert.equal(data.content, '--- page 1 ---\nInstalled text\n');
  });

  it('outlines a file and edits one of its symbols with the grammars shipped beside the bundles', async () => {
    const s = scratch('installed-symbols', { 'shop.go': 'package shop\n\n// Total sums.\nfunc Total() int {\n\treturn 0\n}\n' });
    const { data } = expectOk(await callTool('read_outline', { path: s.rel('shop.go') }));
    assert.deepEqual(data.symbols, [{ name_path: 'Total', kind: 'function', start_line: 4, end_line: 6 }]);
    expectOk(
      await callTool('edit_symbol', { path: s.rel('shop.go'), symbol: 'Total', action: 'replace', text: 'func Total() int { return 1 }' }),
    );
    assert.equal(fs.readFileSync(s.abs('shop.go'), 'utf8'), 'package shop\n\n// Total sums.\nfunc Total() int { return 1 }\n');
  });

  it('registers every tool of the source manifest', async () => {
    const source = JSON.parse(fs.readFileSync(path.join(REPO(), 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: { name: string }[] };
    };
    const expected = source.contributes.languageModelTools.map((tool) => tool.name).sort();
    assert.deepEqual(
      contributedTools()
        .map((tool) => tool.name)
        .sort(),
      expected,
    );
    if (toolListingWorks()) {
      const registered = vscode.lm.tools
        .map((tool) => tool.name)
        .filter((name) => name.startsWith('agentfs_'))
        .sort();
      assert.deepEqual(registered, expected);
    } else {
      // Where vscode.lm.tools is empty (1.100's web host), a registered tool is one invokeTool reaches.
      for (const name of expected) {
        const envelope = await callTool(name.replace(/^agentfs_/, ''), { definitely_not_a_parameter: true });
        expectError(envelope, 'INVALID_INPUT');
      }
    }
  });

  it('writes and reads a file through invokeTool, and the disk holds exactly the bytes', async () => {
    const s = scratch('installed-rw');
    const content = 'packaged ✓\r\nsecond line\n';
    expectOk(await callTool('write_file', { file_name: s.rel('notes/hello.txt'), content }));
    assert.deepEqual(fs.readFileSync(s.abs('notes/hello.txt')), Buffer.from(content, 'utf8'));
    const read = expectOk(await callTool('read_file', { file_name: s.rel('notes/hello.txt') }));
    assert.equal(read.data.content, content);
  });

  it('asks before a delete, naming the file, and changes nothing while asking', async () => {
    const s = scratch('installed-confirm', { 'doomed.txt': 'keep me until confirmed' });
    const prepared = await (await api()).prepare('delete_file', { file_name: s.rel('doomed.txt') });
    assert.ok(prepared.confirmation, 'delete_file asks');
    assert.match(prepared.confirmation.message, /doomed\.txt/);
    assert.equal(fs.readFileSync(s.abs('doomed.txt'), 'utf8'), 'keep me until confirmed');
  });

  it('shows the change in the Activity view', async () => {
    const s = scratch('installed-activity', { 'a.txt': 'before\n' });
    const written = expectOk(await callTool('write_file', { file_name: s.rel('a.txt'), content: 'after\n' }));
    await vscode.commands.executeCommand('agentFs.activity.focus');
    const { activity } = await api();
    const [session] = await activity.getChildren();
    assert.ok(session?.kind === 'session', 'the view groups changes by session');
    const [top] = await activity.getChildren(session);
    assert.ok(top?.kind === 'operation', 'the view lists the operation');
    assert.equal(top.record.id, written.data.operation_id);
  });
});
