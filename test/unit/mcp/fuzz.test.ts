/**
 * 1,000 random tools/call requests, valid and invalid, over real stdio from a fixed seed: the server never crashes,
 * every answer is a well-formed result (or, for an unknown tool or arguments that are not an object, a -32602
 * JSON-RPC error), nothing outside the root changes, and no reply carries a byte from outside it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema } from '../../../src/core/catalog/manifest';
import { TOOL_DEFINITIONS } from '../../../src/core/tools';
import { random } from '../../../bench/generate';
import { assertTree, makeTempDir, removeTree, snapshot } from '../helpers';
import { buildOnce, serve } from './serve';

const CALLS = 1000;
const SEED = 0x5eed_2026;
const SECRET = 'OUTSIDE-SECRET-7f3a';

describe('MCP server: 1,000 random calls', function () {
  this.timeout(300000);
  let tmp = '';

  before(buildOnce);
  beforeEach(function () {
    tmp = makeTempDir('agentfs-mcp-fuzz-');
  });
  afterEach(function () {
    removeTree(tmp);
  });

  it(`neither crash the server nor reach outside the root (seed ${SEED})`, async function () {
    const root = path.join(tmp, 'root');
    const outside = path.join(tmp, 'outside');
    const sibling = path.join(tmp, 'root2');
    const state = path.join(tmp, 'state');
    fs.mkdirSync(outside);
    fs.mkdirSync(sibling);
    fs.writeFileSync(path.join(outside, 'secret.txt'), `${SECRET}\n`);
    fs.mkdirSync(path.join(outside, 'deep'));
    fs.writeFileSync(path.join(outside, 'deep', 'more.txt'), `${SECRET} more\n`);
    fs.writeFileSync(path.join(sibling, 'file.txt'), `${SECRET} sibling\n`);
    const populate = (): void => {
      const files: Record<string, string> = {
        'a.txt': 'alpha\nbeta\ngamma\n',
        'dir/b.txt': 'beta\n',
        'dir/sub/c.md': '# c\n',
        'notes.md': 'one\ntwo\n',
        // Source whose symbols some random strings name, for the symbol tools.
        'tool.py': 'def alpha():\n    return 1\n\nclass x:\n    def beta(self):\n        pass\n',
        '.env': 'KEY=1\n',
      };
      for (const [relative, content] of Object.entries(files)) {
        // A random call may have left a file (or a link) where a parent directory goes, too.
        const parents: string[] = [];
        for (let dir = path.dirname(path.join(root, relative)); dir !== root; dir = path.dirname(dir)) parents.unshift(dir);
        for (const dir of parents)
          if (fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === false) fs.rmSync(dir, { force: true });
        fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
        // A random call may have left a directory (or a link) where the file goes.
        fs.rmSync(path.join(root, relative), { recursive: true, force: true });
        fs.writeFileSync(path.join(root, relative), content);
      }
      for (const [link, target] of [
        ['link-out', outside],
        ['link-file', path.join(outside, 'secret.txt')],
        ['dir/link-up', path.join(root, '..', 'outside', 'deep')],
      ] as const) {
        try {
          fs.symlinkSync(target, path.join(root, link));
        } catch {
          // Still there from an earlier round.
        }
      }
    };
    fs.mkdirSync(root);
    populate();
    const outsideBefore = snapshot(outside);
    const siblingBefore = snapshot(sibling);

    const next = random(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const inside = ['a.txt', 'dir', 'dir/b.txt', 'dir/sub', 'dir/sub/c.md', 'notes.md', 'tool.py', 'new.txt', 'new/dir/x.txt', '.'];
    const escapes = [
      '',
      '.env',
      '.git/config',
      '../outside/secret.txt',
      '../outside',
      '../root2/file.txt',
      path.join(outside, 'secret.txt'),
      outside,
      sibling,
      `${root}/../outside`,
      'link-out',
      'link-out/secret.txt',
      'link-file',
      'dir/link-up',
      'dir/link-up/more.txt',
      'dir/../../outside/secret.txt',
      '~/x',
      '~',
      'file:///etc/passwd',
      `file://${outside}/secret.txt`,
      'C:\\Windows',
      '\\\\server\\share\\x',
      '..\\..\\outside',
      'a\u0000b',
      '/',
      '/etc/passwd',
    ];
    const strings = [
      '',
      'x',
      'alpha',
      'beta\n',
      '*.md',
      '**/*',
      '[',
      '(',
      'a'.repeat(5000),
      'OUTSIDE',
      '\r\n',
      'ünï',
      '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-alpha\n+ALPHA\n',
    ];
    const integers = [-1, 0, 1, 2, 3, 5, 50, 201, 1000, 1e9, 1.5];
    const value = (name: string, schema: JsonSchema): unknown => {
      if (next() < 0.05) return pick([null, 42, 'str', true, [], {}, -3.5]);
      if (Array.isArray(schema.enum) && next() < 0.8) return pick(schema.enum as unknown[]);
      switch (schema.type) {
        case 'boolean':
          return next() < 0.5;
        case 'integer':
        case 'number':
          return pick(integers);
        case 'array':
          return Array.from({ length: Math.floor(next() * 4) }, () => pick(next() < 0.6 ? inside : escapes));
        default:
          if (/path|name|file/.test(name) && next() < 0.9) return pick(next() < 0.6 ? inside : escapes);
          if (name === 'operation_id') return pick(['0000000000-0000-0000', 'nope', '../../etc']);
          if (name === 'symbol') return pick(['alpha', 'x/beta', 'x', 'beta', 'nope', 'x/../..']);
          return pick(strings);
      }
    };

    const served = await serve(['--root', root, '--state', state]);
    const counts = { ok: 0, refused: 0, protocol: 0 };
    try {
      for (let call = 0; call < CALLS; call++) {
        if (call % 100 === 99) populate();
        const tool = pick(TOOL_DEFINITIONS);
        const name = next() < 0.04 ? pick(['agentfs_read_file', 'rm_rf', '', 'read_file ']) : tool.name;
        let args: unknown;
        if (next() < 0.03) args = pick(['text', 7, [1, 2], null]);
        else {
          const object: Record<string, unknown> = {};
          for (const [property, schema] of Object.entries((tool.inputSchema as JsonSchema).properties ?? {}))
            if ((tool.inputSchema as JsonSchema).required?.includes(property) ? next() < 0.95 : next() < 0.5)
              object[property] = value(property, schema);
          if (next() < 0.05) object.unexpected = 'extra';
          args = object;
        }
        const label = `call ${call}: ${name} ${JSON.stringify(args)?.slice(0, 200)}`;
        try {
          const { envelope } = await served.call(name, args);
          assert.equal(envelope.operation, name, label);
          if (envelope.ok) counts.ok++;
          else counts.refused++;
          assert.ok(!JSON.stringify(envelope).includes(SECRET), `${label} leaked a byte from outside the root`);
        } catch (error) {
          assert.ok(error instanceof McpError && error.code === -32602, `${label}: ${String(error)}`);
          counts.protocol++;
        }
      }
      // Still serving, and nothing it did went wrong inside.
      assert.ok((await served.client.listTools()).tools.length > 0);
      assert.doesNotMatch(served.log(), /failed unexpectedly/);
    } finally {
      await served.close();
    }
    assertTree(snapshot(outside), outsideBefore, 'nothing outside the root changed');
    assertTree(snapshot(sibling), siblingBefore, 'nothing in the prefix sibling changed');
    assert.equal(counts.ok + counts.refused + counts.protocol, CALLS);
    // At least a tenth each way: random input rarely fits the tools with several required parameters (edit_symbol
    // needs a source file, a symbol of it, an action and text), so successes are the rarer.
    assert.ok(counts.ok > 100 && counts.refused > 100, `a mix of successes and refusals: ${JSON.stringify(counts)}`);
  });
});
