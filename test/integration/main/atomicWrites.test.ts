/**
 * A write in the editor replaces a file without a moment in which its name holds nothing: VS Code's own disk provider
 * replaces by deleting the target and then moving the new file in, so on the local disk the port swaps the new file
 * in by rename(2) instead (src/vscode/fileSystem.ts). Another process watching the name must never find it missing.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { callTool, expectOk, scratch } from '../helpers';

/** Checks the name in a loop until `stop` exists; prints "ready" once, then at the end how often it was missing. */
const WATCHER = `
const fs = require('node:fs');
const [file, stop] = process.argv.slice(1);
let checks = 0, missing = 0, announced = false;
while (!fs.existsSync(stop)) {
  try { fs.lstatSync(file); } catch { missing++; }
  checks++;
  if (!announced) { announced = true; process.stdout.write('ready\\n'); }
}
process.stdout.write(JSON.stringify({ checks, missing }) + '\\n');
`;

describe('writes in the editor', function () {
  this.timeout(120_000);

  it('replace a file without its name ever going missing, as another process sees it', async () => {
    const space = scratch('atomic', { 'watched.txt': 'first version\n' });
    const stop = space.abs('stop');
    const watcher = spawn(process.execPath, ['-e', WATCHER, space.abs('watched.txt'), stop], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    watcher.stdout.setEncoding('utf8');
    const ready = new Promise<void>((resolve) => {
      watcher.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('ready')) resolve();
      });
    });
    const closed = new Promise<void>((resolve) => watcher.on('close', () => resolve()));
    try {
      await ready;
      for (let turn = 1; turn <= 40; turn++) {
        expectOk(await callTool('write_file', { file_name: space.rel('watched.txt'), content: `version ${turn}\n`.repeat(turn) }));
      }
    } finally {
      fs.writeFileSync(stop, '');
      await closed;
    }
    const report = JSON.parse(output.split('\n').find((line) => line.startsWith('{')) ?? '{}') as { checks?: number; missing?: number };
    assert.ok((report.checks ?? 0) > 40, `the watcher checked ${report.checks ?? 0} times`);
    assert.equal(report.missing, 0, `watched.txt was missing ${report.missing ?? '?'} times of ${report.checks ?? 0}`);
    assert.equal(fs.readFileSync(space.abs('watched.txt'), 'utf8'), 'version 40\n'.repeat(40));
    assert.deepEqual(fs.readdirSync(space.abs()).sort(), ['stop', 'watched.txt'], 'no staging file is left beside it');
  });
});
