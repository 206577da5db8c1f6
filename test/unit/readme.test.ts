/**
 * The sample tool sets the README points to (docs/agentfs.toolsets.jsonc, for VS Code's "Chat: Configure Tool Sets"
 * where an extension may not contribute sets) are what the definitions generate, and name real tools: every tool
 * once, and only tools that change nothing in the read-only group.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toolNameOf } from '../../src/core/catalog/manifest';
import { toolSetsFile } from '../../src/core/catalog/toolSets';
import { TOOL_DEFINITIONS } from '../../src/core/tools';

interface ToolSet {
  readonly tools: readonly string[];
  readonly description: string;
  readonly icon: string;
}

const ROOT = path.join(__dirname, '..', '..', '..');
const FILE = 'docs/agentfs.toolsets.jsonc';
const text = fs.readFileSync(path.join(ROOT, FILE), 'utf8');

function readmeToolSets(): Record<string, ToolSet> {
  return JSON.parse(text) as Record<string, ToolSet>;
}

describe('README: sample tool sets', function () {
  const sets = readmeToolSets();
  const byName = new Map(TOOL_DEFINITIONS.map((tool) => [toolNameOf(tool.name), tool]));

  it(`${FILE} is what the definitions generate (npm run build writes it), and the README's Tool sets links it`, function () {
    assert.equal(text, `${toolSetsFile(TOOL_DEFINITIONS)}\n`, `${FILE} is out of date: run npm run build`);
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.match(/### Tool sets\n[\s\S]*?\n## /.exec(readme)?.[0] ?? '', /\(docs\/agentfs\.toolsets\.jsonc\)/);
  });

  it('names every tool exactly once, each with a description and an icon', function () {
    const listed = Object.values(sets).flatMap((set) => set.tools);
    assert.equal(new Set(listed).size, listed.length, `a tool is in two sets: ${listed.join(', ')}`);
    assert.deepEqual([...listed].sort(), [...byName.keys()].sort());
    for (const [name, set] of Object.entries(sets)) {
      assert.ok(set.description.length > 0, `${name}: description`);
      assert.match(set.icon, /^[a-z0-9-]+$/, `${name}: icon`);
    }
  });

  it('the read-only set holds only read tools; the history set the history tools', function () {
    for (const name of sets['agentfs-read']?.tools ?? assert.fail('no agentfs-read set'))
      assert.equal(byName.get(name)?.effect, 'read', name);
    for (const name of sets['agentfs-history']?.tools ?? assert.fail('no agentfs-history set'))
      assert.match(name, /^agentfs_(history|undo)_/);
  });
});
