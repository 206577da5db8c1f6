/**
 * The saved path index (src/node/indexes/savedIndex.ts): what a save writes, that it is written whole or not at all, bounded
 * and versioned, that a damaged or foreign file is refused as a whole, and what an index started from it does —
 * answers as a fresh walk does, proving each saved listing and reading again those that changed or are racy.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeOperation } from '../../../../src/core/invoke';
import { NodePathIndex } from '../../../../src/node/indexes/pathIndex';
import {
  decodeSavedIndex,
  decodeSavedIndexInSlices,
  encodeSavedIndex,
  readSavedIndex,
  SAVED_INDEX_VERSION,
  type SavedRoot,
  savedIndexFile,
  writeSavedIndex,
} from '../../../../src/node/indexes/savedIndex';
import { createNodeSession } from '../../../../src/node/host/session';
import { writeTree } from '../../../shared/tree';
import { makeTempDir, pollUntil, removeTree } from '../../helpers';
import { sleep } from './setup';

const TREE = {
  '.gitignore': 'build/\n',
  'README.md': '# readme\n',
  'src/index.ts': 'export {};\n',
  'src/app/user-controller.ts': 'x\n',
  'build/out.js': 'x\n',
  'docs/notes.md': 'notes\n',
};

/** A scratch folder holding `root` (TREE) and `state`, removed after `body`. */
async function withScratch(body: (root: string, state: string) => Promise<void>): Promise<void> {
  const scratch = makeTempDir('agentfs-saved-');
  try {
    const root = path.join(scratch, 'root');
    fs.mkdirSync(root);
    writeTree(root, TREE);
    // Past the racy window of the indexes below (40 ms): listings read from now on are proven by their times.
    await sleep(60);
    await body(root, path.join(scratch, 'state'));
  } finally {
    removeTree(scratch);
  }
}

/** An index of `root` built (or loaded), saved to `state` on close. */
async function indexOf(root: string, state: string, racyMs = 40): Promise<NodePathIndex> {
  const index = new NodePathIndex({ saveTo: state, racyMs });
  index.preload(root);
  await index.whenReady(root);
  return index;
}

/** find_file and list_files through `index` and through a walk: equal, or the assertion names the call. */
async function sameAsWalk(root: string, index: NodePathIndex): Promise<void> {
  const indexed = createNodeSession(root, {}, { ripgrep: false, index });
  const walking = createNodeSession(root, {}, { ripgrep: false });
  for (const [operation, input] of [
    ['find_file', { file_name: 'notes' }],
    ['find_file', { file_name: 'controller', include_ignored: true }],
    ['list_files', { recursive: true }],
    ['search_files', { pattern: '**/*' }],
  ] as const) {
    assert.deepEqual(await invokeOperation(operation, input, indexed), await invokeOperation(operation, input, walking), operation);
  }
}

/** Why a saved index was refused; fails when it was not. */
function reason(read: SavedRoot | string): string {
  assert.equal(typeof read, 'string', 'refused');
  return typeof read === 'string' ? read : '';
}

function sample(root: string): SavedRoot {
  const stat = fs.statSync(root);
  return {
    root,
    dev: stat.dev,
    ino: stat.ino,
    savedAt: Date.now(),
    directories: [
      {
        path: root,
        entries: [
          { name: 'a.md', kind: 'file', isSymlink: false, absolute: `${root}/a.md`, parent: root },
          { name: 'sub', kind: 'directory', isSymlink: false, absolute: `${root}/sub`, parent: root },
          { name: 'link', kind: 'other', isSymlink: true, absolute: `${root}/link`, parent: root },
        ],
        dev: stat.dev,
        ino: stat.ino,
        mtimeMs: stat.mtimeMs,
        ctimeMs: stat.ctimeMs,
        racy: false,
      },
      { path: `${root}/sub`, entries: [], dev: 1, ino: 2, mtimeMs: 3.25, ctimeMs: 4.5, racy: true },
    ],
  };
}

/** `text` with its body replaced by `body`, the header's length and digest made to match (a well-formed lie). */
function resigned(text: string, body: string): string {
  const newline = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, newline)) as Record<string, unknown>;
  const sha256 = createHash('sha256').update(body).digest('hex');
  return `${JSON.stringify({ ...header, bytes: Buffer.byteLength(body), sha256 })}\n${body}`;
}

describe('saved path index: the file', () => {
  it('decodes to what was encoded: paths, kinds, links, identity, times and racy flags', async () => {
    await withScratch((root) => {
      const saved = sample(root);
      const text = encodeSavedIndex(saved);
      assert.ok(text !== undefined);
      assert.deepEqual(decodeSavedIndex(text, root), saved);
      assert.match(text.slice(0, text.indexOf('\n')), new RegExp(`"version":${SAVED_INDEX_VERSION}`));
      return Promise.resolve();
    });
  });

  it('decodes in slices with turns of the event loop between them, to what a decode at once gives', async () => {
    await withScratch(async (root) => {
      const one = sample(root);
      const many = Array.from(
        { length: 300 },
        (_, index) => ({ ...one.directories[1], path: `${root}/d${index}` }) as SavedRoot['directories'][number],
      );
      const saved: SavedRoot = { ...one, directories: [...one.directories, ...many] };
      const text = encodeSavedIndex(saved) ?? '';
      /** setImmediate turns while `decode` runs. */
      const turnsDuring = async (decode: () => Promise<SavedRoot | string>): Promise<{ read: SavedRoot | string; turns: number }> => {
        let turns = 0;
        let counting = true;
        const tick = (): void => {
          if (!counting) return;
          turns++;
          setImmediate(tick);
        };
        setImmediate(tick);
        const read = await decode();
        counting = false;
        return { read, turns };
      };
      const sliced = await turnsDuring(() => decodeSavedIndexInSlices(text, root, 0));
      const whole = await turnsDuring(() => decodeSavedIndexInSlices(text, root, Number.POSITIVE_INFINITY));
      assert.deepEqual(sliced.read, saved);
      assert.deepEqual(whole.read, saved);
      // 302 records in steps of 64, after the digest and the parse: at least 6 turns; at once, none.
      assert.ok(sliced.turns >= 6, `${sliced.turns} turns`);
      assert.equal(whole.turns, 0);
      assert.equal(reason(await decodeSavedIndexInSlices(`${text}x`, root, 0)), 'a body of another length (truncated or appended to)');
    });
  });

  it('is bounded: a save over the bound is not made, a file over it is not read', async () => {
    await withScratch(async (root, state) => {
      const saved = sample(root);
      const text = encodeSavedIndex(saved) ?? '';
      assert.equal(encodeSavedIndex(saved, text.length - 1), undefined);
      const file = savedIndexFile(state, root);
      writeSavedIndex(file, text);
      assert.match(reason(await readSavedIndex(file, root, { maxBytes: text.length - 1 })), /larger than/);
      assert.deepEqual(await readSavedIndex(file, root), saved);
    });
  });

  it('refuses another version, another root, a truncated, altered, zeroed or empty file, a link, and records that cannot be', async () => {
    await withScratch(async (root, state) => {
      const text = encodeSavedIndex(sample(root)) ?? '';
      const newline = text.indexOf('\n');
      const header = JSON.parse(text.slice(0, newline)) as Record<string, unknown>;
      const body = text.slice(newline + 1);
      const cases: [string, string, RegExp][] = [
        ['another version', `${JSON.stringify({ ...header, version: SAVED_INDEX_VERSION + 1 })}\n${body}`, /version/],
        ['truncated', text.slice(0, text.length - 7), /length/],
        ['appended to', `${text}\n[]`, /length/],
        ['a byte altered', text.slice(0, -3) + (text.at(-3) === 'a' ? 'b' : 'a') + text.slice(-2), /digest/],
        ['empty', '', /no header/],
        // What a power cut leaves of a file renamed into place before its bytes reached the disk: its size, in zeros.
        ['zeros', '\u0000'.repeat(text.length), /no header|not JSON/],
        ['its body zeros', `${text.slice(0, newline + 1)}${'\u0000'.repeat(body.length)}`, /digest/],
        ['not ours', '{"format":"something else"}\n[]', /not a saved path index/],
        ['a name with ..', resigned(text, body.replace('a.md', '..')), /cannot be/],
        ['a path out of the root', resigned(text, body.replace('"sub"', '"../sub"')), /not below the root/],
        ['kinds and names disagree', resigned(text, body.replace('"fdO"', '"fd"')), /disagree/],
        ['a directory twice', resigned(text, body.replace('"sub"', '""')), /twice/],
        ['no root', resigned(text, body.replace('[""', '["other"')), /no listing of the root/],
      ];
      const file = savedIndexFile(state, root);
      for (const [what, damaged, expected] of cases) {
        writeSavedIndex(file, damaged);
        const read = await readSavedIndex(file, root);
        assert.equal(typeof read, 'string', what);
        assert.match(reason(read), expected, what);
      }
      assert.match(reason(decodeSavedIndex(text, `${root}-other`)), /saved for/);
      writeSavedIndex(`${file}.real`, text);
      fs.rmSync(file);
      fs.symlinkSync(`${file}.real`, file);
      assert.equal(typeof (await readSavedIndex(file, root)), 'string', 'a link is not followed');
    });
  });

  it('is written whole beside its name and renamed: nothing else is left, the file before stays on failure', async () => {
    await withScratch(async (root, state) => {
      const file = savedIndexFile(state, root);
      writeSavedIndex(file, 'first');
      writeSavedIndex(file, 'second');
      assert.deepEqual(fs.readdirSync(state), [path.basename(file)]);
      assert.equal(fs.readFileSync(file, 'utf8'), 'second');
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      // A staged name taken by a directory: the write fails and leaves the saved file as it was.
      const failing = path.join(state, 'blocked');
      fs.mkdirSync(`${failing}.index`);
      assert.throws(() => writeSavedIndex(`${failing}.index`, 'x'));
      assert.equal(fs.readFileSync(file, 'utf8'), 'second');
      assert.deepEqual(fs.readdirSync(state).sort(), [path.basename(file), 'blocked.index'].sort());
      return Promise.resolve();
    });
  });
});

describe('saved path index: a new index starts from it', () => {
  it('is saved on close and loaded by the next index, which proves every listing and answers as a walk', async () => {
    await withScratch(async (root, state) => {
      (await indexOf(root, state)).close();
      assert.ok(fs.existsSync(savedIndexFile(state, root)));
      await sleep(60);
      const next = await indexOf(root, state);
      try {
        assert.equal(next.stats.loaded, 5, 'the root and its four directories');
        // Proven in the background, each watched first, before any call.
        await next.whenQuiet(root);
        assert.deepEqual({ proven: next.stats.proven, snapshots: next.stats.snapshots }, { proven: 5, snapshots: 0 });
        assert.deepEqual(next.watchCounts(), { open: 5, held: 5 });
        await sameAsWalk(root, next);
        assert.equal(next.stats.reread, 0, 'nothing changed: nothing read again');
        assert.equal(next.stats.proven, 5);
      } finally {
        next.close();
      }
    });
  });

  it('reads again what changed while it was stopped, racy directories, and a namesake with its times set back', async () => {
    await withScratch(async (root, state) => {
      (await indexOf(root, state)).close();
      await sleep(60);
      const docs = path.join(root, 'docs');
      const before = fs.statSync(docs);
      fs.writeFileSync(path.join(docs, 'added.md'), 'x\n');
      fs.utimesSync(docs, before.atimeMs / 1000, before.mtimeMs / 1000);
      const rootBefore = fs.statSync(root);
      fs.rmSync(path.join(root, 'src', 'app'), { recursive: true });
      fs.mkdirSync(path.join(root, 'src', 'app'));
      fs.writeFileSync(path.join(root, 'src', 'app', 'notes-namesake.md'), 'x\n');
      fs.writeFileSync(path.join(root, '.gitignore'), 'docs/\n');
      fs.utimesSync(root, rootBefore.atimeMs / 1000, rootBefore.mtimeMs / 1000);
      const next = await indexOf(root, state);
      try {
        await sameAsWalk(root, next);
        assert.ok(next.stats.reread >= 3, `docs, src and src/app read again (${JSON.stringify(next.stats)})`);
      } finally {
        next.close();
      }
      // Saved at once after those reads: within the racy window, so the next index reads them again too.
      const third = new NodePathIndex({ saveTo: state });
      third.preload(root);
      await third.whenReady(root);
      try {
        await sameAsWalk(root, third);
        assert.ok(third.stats.reread >= 3, JSON.stringify(third.stats));
      } finally {
        third.close();
      }
    });
  });

  it('saves again after changes, but not after its own save inside the root (no save calls for the next)', async () => {
    await withScratch(async (root) => {
      const state = path.join(root, '.state', 'path-index');
      const index = new NodePathIndex({ saveTo: state, racyMs: 40, saveDelayMs: 30 });
      try {
        index.preload(root);
        await index.whenReady(root);
        // Saved once built, and again for the folders that save made in the root; then quiet: once the events of a
        // save's own writes are in (a call takes in every event queued before it), no save is due.
        const savedAfter = async (previous: number): Promise<number> => {
          await pollUntil(
            () => index.stats.saves,
            (saves) => saves > previous,
          );
          for (;;) {
            await sameAsWalk(root, index);
            if (!index.saveDue(root)) return index.stats.saves;
            await pollUntil(
              () => index.saveDue(root),
              (due) => !due,
            );
          }
        };
        const built = await savedAfter(0);
        assert.ok(built >= 1, 'saved once built');
        await sameAsWalk(root, index);
        assert.equal(index.saveDue(root), false, 'its own saves call for no other');
        fs.writeFileSync(path.join(root, 'docs', 'new.md'), 'x\n');
        await sameAsWalk(root, index);
        // Due, or already done: on a busy machine the 30 ms save delay can pass before this line runs.
        assert.ok(index.saveDue(root) || index.stats.saves > built, 'a change calls for a save');
        const changed = await savedAfter(built);
        assert.ok(changed > built, 'saved after a change');
        await sameAsWalk(root, index);
        assert.equal(index.saveDue(root), false, 'and then quiet again');
        const saved = await readSavedIndex(savedIndexFile(state, root), root);
        assert.ok(typeof saved !== 'string' && saved.directories.some((each) => each.entries.some((entry) => entry.name === 'new.md')));
      } finally {
        index.close();
      }
    });
  });

  it('walks as without one when the file is damaged or the root is another directory now', async () => {
    await withScratch(async (root, state) => {
      (await indexOf(root, state)).close();
      const file = savedIndexFile(state, root);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 100));
      const damaged = await indexOf(root, state);
      await sameAsWalk(root, damaged);
      assert.equal(damaged.stats.loaded, 0);
      damaged.close();
      // Saved whole again on close; then the root is replaced by a copy (another inode).
      assert.ok(typeof (await readSavedIndex(file, root)) !== 'string');
      fs.renameSync(root, `${root}-old`);
      fs.cpSync(`${root}-old`, root, { recursive: true });
      const replaced = await indexOf(root, state);
      try {
        await sameAsWalk(root, replaced);
        assert.equal(replaced.stats.loaded, 0);
      } finally {
        replaced.close();
      }
    });
  });
});
