/**
 * The content index against the full scan: a workspace's files change at random (churn.ts: contents rewritten,
 * appended, overwritten in place, in UTF-8, UTF-16 and windows-1252, binary files, files crossing the index's size
 * cap, files and folders created, deleted and renamed, hard and symbolic links, Agent FS's own writes), and after
 * every change search_content is asked several queries through a session with the path and content indexes and
 * through one with neither; the two answers must be the same, byte for byte (matches, order, pages, totals, ignored
 * counts). The path index's watches are tried as they run and as they fail (a queue that overflows, watches that
 * cannot be set up or die). Each run also shows that the index really narrowed: searches it answered, files it ruled
 * out, so the comparison is not of two full scans.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../../src/core/envelope';
import { invokeOperation, type Session } from '../../../../src/core/invoke';
import type { ContentIndex } from '../../../../src/core/ports/contentIndex';
import { NodeContentIndex } from '../../../../src/node/indexes/contentIndex';
import { NodePathIndex, type NodePathIndexOptions } from '../../../../src/node/indexes/pathIndex';
import { createNodeSession } from '../../../../src/node/host/session';
import { Chooser, seeded } from '../../../shared/churn';
import { checkEnvelope } from '../../../shared/results';
import { flagEncodingHost } from '../../../../src/core/encoding/host';
import { ripgrepForTests } from '../../search/ripgrep';
import { makeTempDir, removeTree } from '../../helpers';
import { failingWatch, type Losses, overflowingWatch, realWatch } from '../pathIndex/watches';
import { contentChange, QUERIES, startingTree, TEST_CAP } from './churn';

/** Longer and other runs by hand: AGENTFS_CONTENT_STEPS=400 AGENTFS_CONTENT_SEED=100 (added to every run's seed). */
const STEPS = Number(process.env.AGENTFS_CONTENT_STEPS ?? 60);
const SEED_OFFSET = Number(process.env.AGENTFS_CONTENT_SEED ?? 0);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Run {
  readonly name: string;
  readonly seed: number;
  readonly options: (losses: Losses) => NodePathIndexOptions;
  readonly check?: (losses: Losses) => void;
  /**
   * As the editor searches: ripgrep where it may run, so a narrowed search (the scan, reading the candidates) is
   * compared with ripgrep's, and files read as UTF-8 unless a BOM says otherwise (no guessing), so windows-1252 files
   * hold lines that are not text in their encoding.
   */
  readonly editor?: boolean;
}

const RUNS: readonly Run[] = [
  { name: 'inotify events', seed: 1, options: () => ({ watch: realWatch }) },
  { name: 'inotify events, another seed', seed: 2, options: () => ({ watch: realWatch }) },
  {
    name: 'a kernel queue of 6 events that overflows, losing the rest',
    seed: 3,
    options: (losses) => ({ watch: overflowingWatch(6, losses), burstLimit: 3 }),
    check: (losses) => assert.ok(losses.dropped > 0, 'events were dropped'),
  },
  {
    name: 'watches that cannot be set up (every 3rd) or die with an error (every 5th)',
    seed: 4,
    options: (losses) => ({ watch: failingWatch(3, 5, losses), racyMs: 40 }),
    check: (losses) => assert.ok(losses.failedWatches > 0 && losses.erroredWatches > 0, 'watches failed and died'),
  },
  {
    name: 'inotify events, against ripgrep, files read as UTF-8 (the editor)',
    seed: 5,
    options: () => ({ watch: realWatch }),
    editor: true,
  },
];

/**
 * The envelope as text; where the two sessions may search with different engines, without the engine, and without
 * the total of a cut page, which ripgrep gives when its sorted pass happened to search every file and the scan, which
 * stops at the page's end, never does.
 */
function comparable(envelope: Envelope, editor: boolean): string {
  if (!editor || !envelope.ok) return JSON.stringify(envelope);
  const data: Record<string, unknown> = { ...(envelope.data as Record<string, unknown>), engine: '<engine>' };
  if (data.truncated === true) delete data.total;
  return JSON.stringify({ ...envelope, data });
}

async function envelopeOf(session: Session, input: object): Promise<Envelope> {
  const envelope = await invokeOperation('search_content', input, session);
  checkEnvelope(envelope);
  return envelope;
}

/** The index, counting what it ruled out. */
function counting(index: ContentIndex, counts: { ruledOut: number }): ContentIndex {
  return {
    report: () => index.report(),
    async narrow(root, plan, caseSensitive) {
      const test = await index.narrow(root, plan, caseSensitive);
      return (
        test &&
        ((absolute) => {
          const may = test(absolute);
          if (!may) counts.ruledOut++;
          return may;
        })
      );
    },
  };
}

describe('content index: every search_content answer is a full scan’s', function () {
  this.timeout(600_000);

  for (const run of RUNS) {
    it(`${run.name} (seed ${run.seed + SEED_OFFSET}, ${STEPS} changes)`, async () => {
      const scratch = makeTempDir('agentfs-content-');
      const root = path.join(scratch, 'root');
      fs.mkdirSync(root);
      const losses: Losses = { dropped: 0, failedWatches: 0, erroredWatches: 0 };
      const index = new NodePathIndex(run.options(losses));
      const contentIndex = new NodeContentIndex(index, { maxFileBytes: TEST_CAP });
      const counts = { ruledOut: 0 };
      try {
        const chooser = new Chooser(seeded(run.seed + SEED_OFFSET));
        startingTree(root, chooser);
        const editor = run.editor === true;
        const searching = editor
          ? { ripgrep: ripgrepForTests(), encodings: flagEncodingHost({ default: 'utf8', guess: false, candidates: [] }, '--encoding') }
          : { ripgrep: false as const };
        const indexed = createNodeSession(root, {}, { ...searching, index, contentIndex: counting(contentIndex, counts) });
        const scanning = createNodeSession(root, {}, searching);
        await index.whenReady(root);
        await contentIndex.whenReady();
        const history: string[] = [];
        let compared = 0;
        for (let step = 0; step < STEPS; step++) {
          const change = contentChange(root, chooser, (operation, input) => invokeOperation(operation, input, indexed));
          history.push(change.what);
          await change.apply();
          // Mostly at once (before the index has read the change), sometimes after the background's turn.
          if (chooser.chance(0.3)) await sleep(chooser.int(80));
          for (let query = 0; query < 3; query++) {
            const input = chooser.pick(QUERIES);
            const fromIndex = comparable(await envelopeOf(indexed, input), editor);
            const fromScan = comparable(await envelopeOf(scanning, input), editor);
            compared++;
            if (fromIndex !== fromScan) {
              assert.fail(
                [
                  `seed ${run.seed + SEED_OFFSET}, step ${step}: search_content ${JSON.stringify(input)} answered differently with the index`,
                  `last changes: ${history.slice(-6).join(' | ')}`,
                  `indexed: ${fromIndex.slice(0, 2000)}`,
                  `scanned: ${fromScan.slice(0, 2000)}`,
                ].join('\n'),
              );
            }
          }
        }
        const report = contentIndex.report();
        assert.equal(report.state, 'ready');
        // The index answered most searches and ruled files out: the answers compared were narrowed scans.
        assert.ok(report.answered >= compared / 2, `narrowed ${report.answered} of ${compared} searches`);
        assert.ok(counts.ruledOut >= compared, `ruled out ${counts.ruledOut} files in ${compared} searches`);
        run.check?.(losses);
      } finally {
        contentIndex.close();
        index.close();
        removeTree(scratch);
      }
    });
  }
});
