/**
 * The editor's path index in the real extension host: a scratch tree (a git repository) changes at random — files
 * and directories created, deleted, renamed inside and across ignored folders, .gitignore files rewritten, links,
 * another process's changes, git checkouts — and after every change the finding tools are called through the
 * registered tools with agentFs.pathIndex.enabled on (answered from the index) and off (a fresh walk), and the two
 * answers must be the same. workspace_info shows that the index answered, and that the content index (on by
 * default) narrowed search_content, whose reads it decides then: the scan's answer must be ripgrep's.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { baseTree, Chooser, makeRepository, randomChange, randomQuery, seeded } from '../../shared/churn';
import { writeTree } from '../../shared/tree';
import { callTool, expectOk, scratch } from '../helpers';
import { editorIndexOptions } from '../../../src/node/indexes/pathIndex';

const STEPS = 60;

async function setIndex(on: boolean | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('agentFs').update('pathIndex.enabled', on, vscode.ConfigurationTarget.Global);
}

interface PathIndexInfo {
  state: string;
  walks_answered: number;
  freshness: string | null;
}

async function pathIndex(): Promise<PathIndexInfo | null> {
  return expectOk(await callTool('workspace_info', {})).data.path_index as PathIndexInfo | null;
}

/** Searches the content index has narrowed so far (it is kept while the path index is off for a comparison). */
async function searchesNarrowed(): Promise<number> {
  const info = expectOk(await callTool('workspace_info', {})).data.content_index as { searches_narrowed: number } | null;
  return info?.searches_narrowed ?? 0;
}

describe('path index in the editor: every answer is a fresh walk’s', function () {
  this.timeout(600_000);
  after(() => setIndex(undefined));

  it(`answers the finding tools as a walk does while the tree changes (${STEPS} changes)`, async () => {
    const s = scratch('path-index');
    const chooser = new Chooser(seeded(31));
    writeTree(s.abs(), baseTree(chooser));
    makeRepository(s.abs(), chooser);
    await setIndex(true);
    await callTool('list_files', { path: s.rel(), recursive: true });
    let info = await pathIndex();
    for (let tries = 0; tries < 600 && info?.state !== 'ready'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      info = await pathIndex();
    }
    assert.equal(info?.state, 'ready', JSON.stringify(info));
    // Watched where the per-user inotify limit leaves the editor's index a fair share, verified where it does not.
    assert.equal(info.freshness, editorIndexOptions().freshness);
    const answeredBefore = info.walks_answered;
    const narrowedBefore = await searchesNarrowed();
    let compared = 0;
    const history: string[] = [];
    for (let step = 0; step < STEPS; step++) {
      const change = randomChange(s.abs(), chooser);
      history.push(change.what);
      await change.apply();
      const queries = Array.from({ length: 1 + chooser.int(3) }, () => randomQuery(s.abs(), chooser, s.rel()));
      // With the index on, the content index may have the scan read the candidates where ripgrep runs with it off:
      // search_content's engine may differ, and so may a cut page's total, which ripgrep gives when its sorted pass
      // happened to search every file and the scan, stopping at the page's end, never does.
      const sameEngine = <T>(envelope: T): T => {
        const data = (envelope as { operation?: unknown; data?: { engine?: unknown; truncated?: unknown; total?: unknown } }).data;
        if ((envelope as { operation?: unknown }).operation === 'search_content' && data) {
          data.engine = '<engine>';
          if (data.truncated === true) delete data.total;
        }
        return envelope;
      };
      const indexed = [];
      for (const { operation, input } of queries) indexed.push(sameEngine(await callTool(operation, input)));
      await setIndex(false);
      for (const [at, { operation, input }] of queries.entries()) {
        const walked = sameEngine(await callTool(operation, input));
        compared++;
        assert.deepEqual(
          indexed[at],
          walked,
          `step ${step}: ${operation} ${JSON.stringify(input)}; last changes: ${history.slice(-4).join(' | ')}`,
        );
      }
      await setIndex(true);
    }
    const after = await pathIndex();
    assert.ok(after !== null);
    // The content index needs the path index's watches: where directories are only verified, it is off.
    if (after.freshness === 'events') assert.ok((await searchesNarrowed()) > narrowedBefore, 'the content index narrowed searches');
    assert.ok(
      after.walks_answered - answeredBefore >= compared / 2,
      `${after.walks_answered - answeredBefore} walks answered for ${compared} calls`,
    );
    await setIndex(false);
    assert.equal(await pathIndex(), null, 'off: no index, every call walks');
  });
});
