/**
 * The MCP server's content index, over real stdio: once built (after the first call starts the path index), the
 * server's search_content answers equal a full scan's in this process while the tree's files change from outside it
 * and through its own tools, and workspace_info shows that the index narrowed them; --no-content-index keeps none.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeOperation } from '../../../src/core/invoke';
import { createNodeSession } from '../../../src/node/host/session';
import { checkEnvelope } from '../../shared/results';
import { writeTree } from '../../shared/tree';
import { pollUntil, removeTree } from '../helpers';
import { buildOnce, serve, type Served, tempLayout } from './serve';

interface ContentIndexInfo {
  state: string;
  reason: string | null;
  files: number;
  text_bytes: number;
  estimated_bytes: number;
  searches_narrowed: number;
}

async function contentIndexOf(served: Served): Promise<ContentIndexInfo | null | undefined> {
  const { envelope } = await served.call('workspace_info', {});
  assert.ok(envelope.ok, JSON.stringify(envelope));
  return (envelope.data as { content_index?: ContentIndexInfo | null }).content_index;
}

async function whenReady(served: Served): Promise<ContentIndexInfo> {
  const info = await pollUntil(
    () => contentIndexOf(served),
    (each) => each?.state === 'ready',
  );
  assert.ok(info);
  return info;
}

describe('MCP server: the content index', function () {
  this.timeout(240_000);
  before(buildOnce);

  it('narrows search_content while files change, with a full scan’s answers', async () => {
    const { tmp, base } = tempLayout('agentfs-mcp-content-');
    const tree: Record<string, string> = { '.gitignore': 'ignored/\n' };
    for (let index = 0; index < 40; index++) tree[`${['src', 'docs', 'ignored'][index % 3]}/f${index}.txt`] = `line ${index}\nalpha beta\n`;
    writeTree(base, tree);
    const served = await serve(['--root', base, '--no-history', '--confirm', 'never'], { env: { PATH: path.join(tmp, 'no-programs') } });
    try {
      const scanning = createNodeSession(base, {}, { ripgrep: false, hostKind: 'mcp' });
      await served.call('search_content', { query: 'alpha' });
      const ready = await whenReady(served);
      assert.equal(ready.files, 41);
      const changes: (() => Promise<unknown> | void)[] = [
        () => fs.writeFileSync(path.join(base, 'src', 'f0.txt'), 'the QUASAR token\n'),
        () =>
          fs.writeFileSync(
            path.join(base, 'docs', 'wide.txt'),
            Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('QUASAR wide\n', 'utf16le')]),
          ),
        () => fs.appendFileSync(path.join(base, 'ignored', 'f2.txt'), 'quasar below\n'),
        () => fs.renameSync(path.join(base, 'src', 'f0.txt'), path.join(base, 'docs', 'moved.txt')),
        () => served.call('write_file', { file_name: 'src/new.txt', content: 'made QUASAR\n' }),
        () => fs.rmSync(path.join(base, 'docs', 'wide.txt')),
      ];
      const queries = [
        { query: 'QUASAR', case_sensitive: true },
        { query: 'quasar', include_ignored: true },
        { query: 'QUA[SZ]AR', is_regex: true },
      ];
      let compared = 0;
      for (const change of changes) {
        await change();
        for (const input of queries) {
          const fromServer = (await served.call('search_content', input)).envelope;
          const fromScan = await invokeOperation('search_content', input, scanning);
          checkEnvelope(fromScan);
          assert.deepEqual(JSON.parse(JSON.stringify(fromServer)), JSON.parse(JSON.stringify(fromScan)), JSON.stringify(input));
          compared++;
        }
      }
      const after = await whenReady(served);
      assert.ok(after.searches_narrowed >= compared, `${after.searches_narrowed} searches narrowed of ${compared}`);
      assert.ok(after.estimated_bytes > 0 && after.text_bytes > 0);
    } finally {
      await served.close();
      removeTree(tmp);
    }
  });

  it('--no-content-index keeps none: workspace_info says null, the log says off', async () => {
    const { tmp, base } = tempLayout('agentfs-mcp-content-');
    writeTree(base, { 'a.txt': 'alpha\n' });
    const served = await serve(['--root', base, '--no-history', '--no-content-index']);
    try {
      await served.call('search_content', { query: 'alpha' });
      assert.equal(await contentIndexOf(served), null);
      assert.match(served.log(), /content index off/);
    } finally {
      await served.close();
      removeTree(tmp);
    }
  });
});
