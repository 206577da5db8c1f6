/**
 * The path index against a fresh walk: a workspace (a git repository the test makes) changes at random — files and
 * directories created, deleted, renamed inside and across ignored folders, directories replaced by namesakes,
 * .gitignore files rewritten, links made and retargeted, bursts of files, another process's changes, git checkouts,
 * Agent FS's own writes — and after every change the finding tools are called at once, through a session with the
 * index and one without, and the two answers must be the same, byte for byte (errors included). The index's freshness
 * is tried the ways it runs and the ways its watches can fail: inotify events, verification only (the editor's way),
 * a kernel queue that overflows, watches that cannot be set up or die. Each run also shows that the index really
 * answered (most listings served from memory, and, watched, whole subtrees passed over as they were), so the
 * comparison is not two walks.
 *
 * The runs with restarts also stop the index now and then (saving it, or, as a killed process, not), change the tree
 * while no index runs (restart.ts: namesakes, times set back, kinds changed, .gitignore files rewritten, and the save
 * file itself truncated, altered or of another version), and start a new index from the saved one: its first answers
 * are compared like any other, so a saved listing handed out unproven fails the run.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../../src/core/envelope';
import { invokeOperation, type Session } from '../../../../src/core/invoke';
import { NodePathIndex, type NodePathIndexOptions } from '../../../../src/node/indexes/pathIndex';
import { createNodeSession } from '../../../../src/node/host/session';
import { baseTree, Chooser, makeRepository, randomChange, randomQuery, seeded } from '../../../shared/churn';
import { writeTree } from '../../../shared/tree';
import { makeTempDir, removeTree } from '../../helpers';
import { failingWatch, type Losses, overflowingWatch, realWatch } from './watches';
import { checkEnvelope } from '../../../shared/results';
import { offlineChanges } from './restart';

/** Longer and other runs by hand: AGENTFS_INDEX_STEPS=400 AGENTFS_INDEX_SEED=100 (added to every run's seed). */
const STEPS = Number(process.env.AGENTFS_INDEX_STEPS ?? 60);
const SEED_OFFSET = Number(process.env.AGENTFS_INDEX_SEED ?? 0);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Run {
  readonly name: string;
  readonly seed: number;
  readonly options: (losses: Losses) => NodePathIndexOptions;
  readonly check?: (losses: Losses, index: NodePathIndex) => void;
  /** The same calls after every change instead of random ones: what the tools remember per listing is reused. */
  readonly repeated?: boolean;
  /** Stop and start the index now and then, from its saved index, with changes made in between (the header). */
  readonly restarts?: boolean;
}

/** The calls of a run with `repeated`: one per tool that keeps per-listing results (ListingMemo), asked every step. */
const REPEATED: readonly { operation: string; input: Record<string, unknown> }[] = [
  { operation: 'find_file', input: { file_name: 'notes', max_results: 30 } },
  { operation: 'find_file', input: { file_name: 'repotr', include_ignored: true } },
  { operation: 'search_files', input: { pattern: '**/*.md', max_results: 200 } },
  { operation: 'search_files', input: { pattern: 'src/**', include_ignored: true, max_results: 200 } },
  { operation: 'list_files', input: { recursive: true, max_results: 200 } },
  { operation: 'list_files', input: { path: 'src', recursive: false, include_ignored: true } },
];

const RUNS: readonly Run[] = [
  { name: 'inotify events, drained before each answer', seed: 1, options: () => ({ watch: realWatch }) },
  { name: 'inotify events, another seed', seed: 2, options: () => ({ watch: realWatch }) },
  { name: 'inotify events, the same calls after every change', seed: 6, options: () => ({ watch: realWatch }), repeated: true },
  {
    name: "verification only, no events at all (the editor's way)",
    seed: 3,
    // A short racy window, so that directories left alone for a few steps are trusted on their times alone.
    options: () => ({ freshness: 'verify', racyMs: 40 }),
  },
  {
    name: 'a kernel queue of 6 events that overflows, losing the rest',
    seed: 4,
    options: (losses) => ({ watch: overflowingWatch(6, losses), burstLimit: 3 }),
    check: (losses, index) => {
      assert.ok(losses.dropped > 0, 'events were dropped');
      assert.ok(index.stats.overflows > 0, 'the index saw the overflows');
    },
  },
  {
    name: 'watches that cannot be set up (every 3rd) or die with an error (every 5th)',
    seed: 5,
    options: (losses) => ({ watch: failingWatch(3, 5, losses), racyMs: 40 }),
    check: (losses) => {
      assert.ok(losses.failedWatches > 0, 'some watches could not be set up');
      assert.ok(losses.erroredWatches > 0, 'some watches died');
    },
  },
  // A short racy window, so that saved listings left alone for a few steps are proven by their times and handed out.
  {
    name: 'restarts from the saved index, changes made while none runs',
    seed: 7,
    options: () => ({ watch: realWatch, racyMs: 40 }),
    restarts: true,
  },
  {
    name: 'restarts from the saved index, verification only',
    seed: 8,
    options: () => ({ freshness: 'verify', racyMs: 40 }),
    restarts: true,
  },
];

/** What the restarts of a run did, checked at its end: the saved index was really loaded and proven. */
interface Restarts {
  count: number;
  loaded: number;
  proven: number;
}

async function envelopeText(session: Session, operation: string, input: unknown): Promise<string> {
  return JSON.stringify(await checked(invokeOperation(operation, input, session)));
}

async function checked(pending: Promise<Envelope>): Promise<Envelope> {
  const envelope = await pending;
  checkEnvelope(envelope);
  return envelope;
}

describe('path index: every answer is a fresh walk’s', function () {
  this.timeout(240_000);

  for (const run of RUNS) {
    it(`${run.name} (seed ${run.seed + SEED_OFFSET}, ${STEPS} changes)`, async () => {
      // The root inside a folder of its own: another process's changes may move the root itself aside.
      const scratch = makeTempDir('agentfs-index-');
      const root = path.join(scratch, 'root');
      fs.mkdirSync(root);
      const losses: Losses = { dropped: 0, failedWatches: 0, erroredWatches: 0 };
      const saveTo = run.restarts ? path.join(scratch, 'state') : undefined;
      const start = (): NodePathIndex => new NodePathIndex({ ...run.options(losses), ...(saveTo ? { saveTo } : {}) });
      let index = start();
      const restarts: Restarts = { count: 0, loaded: 0, proven: 0 };
      try {
        const chooser = new Chooser(seeded(run.seed + SEED_OFFSET));
        writeTree(root, baseTree(chooser));
        makeRepository(root, chooser);
        let indexed = createNodeSession(root, {}, { ripgrep: false, index });
        const walking = createNodeSession(root, {}, { ripgrep: false });
        await index.whenReady(root);
        await sleep(60);
        const history: string[] = [];
        let compared = 0;
        for (let step = 0; step < STEPS; step++) {
          if (saveTo && chooser.chance(0.12)) {
            // Stopped (saved, or killed without a save), changed while nothing watches, started from what was saved.
            const killed = chooser.chance(0.25);
            index.close(!killed);
            history.push(...(await offlineChanges(root, saveTo, chooser)));
            restarts.count++;
            restarts.loaded += index.stats.loaded;
            restarts.proven += index.stats.proven;
            index = start();
            index.preload(root);
            await index.whenReady(root);
            indexed = createNodeSession(root, {}, { ripgrep: false, index });
          }
          const change = randomChange(root, chooser, (operation, input) => checked(invokeOperation(operation, input, indexed)));
          history.push(change.what);
          await change.apply();
          // Mostly at once (the window between a change and its notification), sometimes after the background's turn.
          if (chooser.chance(0.2)) await sleep(chooser.int(60));
          const queries = run.repeated ? REPEATED : Array.from({ length: 1 + chooser.int(3) }, () => randomQuery(root, chooser));
          for (const { operation, input } of queries) {
            const fromIndex = await envelopeText(indexed, operation, input);
            const fromWalk = await envelopeText(walking, operation, input);
            compared++;
            if (fromIndex !== fromWalk) {
              assert.fail(
                [
                  `seed ${run.seed + SEED_OFFSET}, step ${step}: ${operation} ${JSON.stringify(input)} answered differently with the index`,
                  `last changes: ${history.slice(-5).join(' | ')}`,
                  `indexed: ${fromIndex.slice(0, 1500)}`,
                  `walked:  ${fromWalk.slice(0, 1500)}`,
                ].join('\n'),
              );
            }
          }
        }
        assert.ok(compared >= STEPS, 'every step was followed by a comparison');
        if (saveTo) {
          restarts.loaded += index.stats.loaded;
          restarts.proven += index.stats.proven;
          assert.ok(restarts.count > 0, 'the index was restarted');
          assert.ok(restarts.proven > 0, `saved listings were proven and handed out (${JSON.stringify(restarts)})`);
        }
        // Most listings came from memory: the answers compared were the index's, not a second walk's.
        assert.ok(
          saveTo !== undefined || index.stats.snapshots >= compared / 2,
          `snapshots ${index.stats.snapshots} for ${compared} comparisons`,
        );
        if (!saveTo) {
          assert.ok(index.stats.served > index.stats.declined, `served ${index.stats.served}, declined ${index.stats.declined}`);
          // Watched, the walks also passed over whole subtrees that had not changed: those answers were compared too.
          if (index.freshness === 'events') assert.ok(index.stats.subtrees > 0, 'subtrees were passed over whole');
        }
        run.check?.(losses, index);
        const watches = index.watchCounts();
        assert.equal(watches.open, watches.held, 'every open watch belongs to a directory the index holds');
      } finally {
        index.close();
        removeTree(scratch);
      }
    });
  }
});
