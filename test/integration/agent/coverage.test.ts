/**
 * Every Agent FS tool was called by the agent in some scenario. This file runs after the scenarios: the launcher
 * loads a folder's spec files in name order (test/integration/index.ts).
 */
import * as assert from 'node:assert/strict';
import { contributedTools } from '../helpers';
import { called } from './coverage';
import { say } from './scenario';

describe('Copilot agent mode with a scripted model: coverage', function () {
  it('called every Agent FS tool at least once across the scenarios', function () {
    const missing = contributedTools()
      .map((tool) => tool.name)
      .filter((name) => !called.has(name));
    assert.deepEqual(missing, []);
    say(`  [coverage] ${called.size} tools called by the agent across the scenarios`);
  });
});
