/**
 * The tool sets (src/core/catalog/toolSets.ts) as package.json contributes them, the strings package.nls.json holds
 * for them and for the tools, and the custom agent's tool list: each is what the definitions generate (`npm run build`
 * writes them), and the sets divide the tools as their names promise, whatever tools there are.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rewriteAgentTools } from '../../src/core/catalog/agent';
import { isGeneratedStringKey } from '../../src/core/catalog/manifest';
import { TOOL_SETS } from '../../src/core/catalog/toolSets';
import { generatedManifestStrings, languageModelToolSets, TOOL_DEFINITIONS } from '../../src/core/tools';

const ROOT = path.join(__dirname, '..', '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface RawToolSet {
  readonly name: string;
  readonly description: string;
  readonly icon: string;
  readonly tools: readonly string[];
}

const manifest = JSON.parse(read('package.json')) as {
  readonly enabledApiProposals?: readonly string[];
  readonly contributes: { readonly languageModelToolSets?: readonly RawToolSet[] };
};
const nls = JSON.parse(read('package.nls.json')) as Record<string, string>;
const sets = manifest.contributes.languageModelToolSets ?? assert.fail('package.json contributes no languageModelToolSets');
const setNamed = (name: string): RawToolSet => sets.find((set) => set.name === name) ?? assert.fail(`no tool set ${name}`);
const byName = new Map(TOOL_DEFINITIONS.map((tool) => [`agentfs_${tool.name}`, tool]));

describe('tool sets', function () {
  it('package.json holds exactly the sets the definitions generate, under the proposal VS Code asks for', function () {
    assert.deepEqual(sets, JSON.parse(JSON.stringify(languageModelToolSets())), 'run npm run build and commit package.json');
    assert.deepEqual(manifest.enabledApiProposals, ['contribLanguageModelToolSets']);
  });

  it('agentfs holds every tool; each tool is in exactly one of the parts', function () {
    assert.deepEqual([...setNamed('agentfs').tools].sort(), [...byName.keys()].sort());
    const parts = sets.filter((set) => set.name !== 'agentfs').flatMap((set) => set.tools);
    assert.deepEqual([...parts].sort(), [...byName.keys()].sort());
  });

  it('the read part changes nothing, the edit part holds every other change, the history part reviews and undoes', function () {
    for (const name of setNamed('agentfs-read').tools) assert.equal(byName.get(name)?.effect, 'read', name);
    for (const name of setNamed('agentfs-edit').tools) assert.equal(byName.get(name)?.effect, 'write', name);
    assert.deepEqual(setNamed('agentfs-history').tools, [
      'agentfs_history_list',
      'agentfs_history_get',
      'agentfs_undo_operation',
      'agentfs_undo_last',
    ]);
  });

  it('every set has a name VS Code accepts, a codicon and a description package.nls.json holds', function () {
    for (const set of sets) {
      assert.match(set.name, /^[\w-]+$/);
      assert.match(set.icon, /^\$\([a-z0-9-]+\)$/);
      const key = /^%(.+)%$/.exec(set.description)?.[1] ?? assert.fail(`${set.name}: description is not a %key%`);
      assert.ok((nls[key] ?? '').startsWith('Agent FS: '), key);
    }
    assert.equal(TOOL_SETS.length, sets.length);
  });
});

describe('package.nls.json', function () {
  it('holds the English the definitions give for every generated key, and no stale one', function () {
    const generated = generatedManifestStrings();
    const held = Object.fromEntries(Object.entries(nls).filter(([key]) => isGeneratedStringKey(key)));
    assert.deepEqual(held, generated, 'run npm run build and commit package.nls.json');
  });

  it('has a string for every %key% package.json names, and package.json names every key it has', function () {
    const named = new Set([...read('package.json').matchAll(/"%([^%"]+)%"/g)].map((match) => match[1] ?? ''));
    assert.deepEqual(
      [...named].filter((key) => !(key in nls)),
      [],
    );
    assert.deepEqual(
      Object.keys(nls).filter((key) => !named.has(key)),
      [],
    );
  });
});

describe('the custom agent', function () {
  it("lists the agentfs set and every tool by the extension's name, as the build writes them", function () {
    const agent = read('agents/agent-fs.agent.md');
    assert.equal(rewriteAgentTools(agent, TOOL_DEFINITIONS), agent, 'run npm run build and commit agents/agent-fs.agent.md');
    const entries = [...agent.matchAll(/^ {2}- (\S+)$/gm)].map((match) => match[1] ?? '');
    assert.ok(entries.includes('agentfs'));
    for (const name of byName.keys()) assert.ok(entries.includes(`agent-fs.agent-fs/${name}`), name);
  });
});
