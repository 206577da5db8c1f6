/**
 * The README's sample tool sets (a `.toolsets.jsonc` for VS Code's "Chat: Configure Tool Sets") must name real
 * tools: every tool once, and only tools that change nothing in the read-only group.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toolNameOf } from '../../src/core/catalog/manifest';
import { TOOL_DEFINITIONS } from '../../src/core/tools';

interface ToolSet {
  readonly tools: readonly string[];
  readonly description: string;
  readonly icon: string;
}

function readmeToolSets(): Record<string, ToolSet> {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
  const block = /### Tool sets[^\n]*\n[\s\S]*?```jsonc\n([\s\S]*?)\n```/.exec(readme)?.[1];
  assert.ok(block, 'README has no ```jsonc block under "### Tool sets"');
  return JSON.parse(block) as Record<string, ToolSet>;
}

describe('README: sample tool sets', function () {
  const sets = readmeToolSets();
  const byName = new Map(TOOL_DEFINITIONS.map((tool) => [toolNameOf(tool.name), tool]));

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
