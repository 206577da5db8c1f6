/**
 * With VS Code's display language set (test/launcher/locale.ts), what the person reads is in that language and what
 * the model reads is the English, byte for byte: the manifest's commands, settings and tools as the extension host
 * reads them, a confirmation, and the definitions in vscode.lm.tools against the English manifest on disk.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, callTool, expectError, expectOk, extension, scratch, TOOL_PREFIX } from '../helpers';

const LOCALE = process.env.AGENTFS_IT_LOCALE ?? '';

function repoJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(extension().extensionPath, file), 'utf8')) as Record<string, unknown>;
}

/** A command's title as the extension host holds it: a string, or VS Code's { value, original }. */
function titleOf(title: unknown): string {
  return typeof title === 'string' ? title : String((title as { value?: unknown }).value);
}

interface ManifestTool {
  readonly name: string;
  readonly displayName: string;
  readonly modelDescription: string;
  readonly inputSchema: unknown;
}

describe(`display language ${LOCALE}`, () => {
  const translated = (): Record<string, string> => repoJson(`package.nls.${LOCALE}.json`) as Record<string, string>;
  const bundle = (): Record<string, string> => repoJson(path.join('l10n', `bundle.l10n.${LOCALE}.json`)) as Record<string, string>;

  it('is the language VS Code runs in, and Agent FS speaks it from its l10n bundle', async () => {
    assert.equal(vscode.env.language, LOCALE);
    const preparation = await (await api()).prepare('workspace_info', {});
    assert.equal(preparation.invocationMessage, bundle()['Describing the workspace']);
  });

  it('the commands, the settings and the tools’ titles are the translations', () => {
    const manifest = extension().packageJSON as {
      contributes: {
        commands: { command: string; title: unknown }[];
        configuration: { properties: Record<string, { markdownDescription?: string }> };
        languageModelTools: ManifestTool[];
      };
    };
    const runTool = manifest.contributes.commands.find((command) => command.command === 'agentFs.runTool');
    assert.equal(titleOf(runTool?.title), translated()['command.runTool.title']);
    assert.equal(
      manifest.contributes.configuration.properties['agentFs.readOnly']?.markdownDescription,
      translated()['config.agentFs.readOnly.description'],
    );
    const readFile = manifest.contributes.languageModelTools.find((tool) => tool.name === `${TOOL_PREFIX}read_file`);
    assert.equal(readFile?.displayName, translated()['tool.read_file.displayName']);
  });

  it('what the model receives is the English manifest’s, byte for byte: names, descriptions, schemas', function () {
    const english = (repoJson('package.json') as { contributes: { languageModelTools: ManifestTool[] } }).contributes.languageModelTools;
    const offered = vscode.lm.tools.filter((tool) => tool.name.startsWith(TOOL_PREFIX));
    // VS Code 1.100's web workbench hands the extension host no tool list; the manifest is what it registers there.
    const received =
      offered.length > 0
        ? offered.map((tool) => ({ name: tool.name, description: tool.description, schema: tool.inputSchema }))
        : (extension().packageJSON as { contributes: { languageModelTools: ManifestTool[] } }).contributes.languageModelTools.map(
            (tool) => ({ name: tool.name, description: tool.modelDescription, schema: tool.inputSchema }),
          );
    const expected = english.map((tool) => ({ name: tool.name, description: tool.modelDescription, schema: tool.inputSchema }));
    const byName = (list: { name: string }[]): string[] => list.map((tool) => JSON.stringify(tool)).sort();
    assert.deepEqual(byName(received), byName(expected));
  });

  it('a confirmation is in the language; the envelope and its error message stay English', async () => {
    const s = scratch('locale', { 'old.txt': 'bye\n' });
    const preparation = await (await api()).prepare('delete_file', { file_name: s.rel('old.txt') });
    const words = bundle();
    assert.equal(preparation.confirmation?.title, (words['Delete {0}?'] ?? '').replace('{0}', s.rel('old.txt')));
    const deleted = (words['{0} ({1}) will be deleted.'] ?? '')
      .replace('{0}', `\`${s.rel('old.txt')}\``)
      .replace('{1}', words['{0} bytes']?.replace('{0}', '4') ?? '');
    assert.ok(
      preparation.confirmation?.message.startsWith(deleted),
      `${preparation.confirmation?.message ?? ''}\nexpected to start with ${deleted}`,
    );
    assert.equal(preparation.invocationMessage, (words['Deleting {0}'] ?? '').replace('{0}', s.rel('old.txt')));
    const refused = expectError(await callTool('read_file', { file_name: s.rel('missing.txt') }), 'FILE_NOT_FOUND');
    assert.match(refused.error.message, /^File does not exist: /);
    assert.ok(fs.existsSync(s.abs('old.txt')), 'a prepared delete changed nothing');
  });

  it('an undo’s confirmation is in the language, whole sentences, and the undo’s result stays English', async () => {
    const s = scratch('locale-undo', {});
    const words = bundle();
    const written = s.rel('fresh.txt');
    expectOk(await callTool('write_file', { file_name: written, content: 'hello\n' }));
    const preparation = await (await api()).prepare('undo_last', {});
    const fill = (key: string, ...args: string[]): string =>
      args.reduce((text, arg, index) => text.replace(`{${index}}`, arg), words[key] ?? `(no "${key}")`);
    assert.equal(preparation.confirmation?.title, fill('Undo {0} {1}?', fill('writing'), written));
    assert.equal(preparation.invocationMessage, fill('Undoing {0} {1}', fill('writing'), written));
    const step = fill(
      'Remove {0}{1}, which was {2} {3}',
      `\`${written}\``,
      ` (${fill('{0} bytes', '6')})`,
      fill('written'),
      fill('just now'),
    );
    assert.ok(
      preparation.confirmation?.message.startsWith(fill('{0}.', step)),
      `${preparation.confirmation?.message ?? ''}\nexpected to start with ${fill('{0}.', step)}`,
    );
    const undone = expectOk(await callTool('undo_last', {}));
    assert.match(String(undone.data.summary), /^write_file /);
    assert.ok(!fs.existsSync(s.abs('fresh.txt')), 'the undo removed the file the write created');
  });
});
