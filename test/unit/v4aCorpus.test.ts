/**
 * Real commits replayed as V4A patches: a git repository with a generated history (corpus/history.ts: edits in
 * several places, added, deleted and renamed files, CRLF and windows-1252 files, files without a final newline,
 * repeated chunks), each commit turned into the V4A patch a model would write (corpus/toV4a.ts), applied with
 * apply_patch to the parent's tree, and every file compared byte for byte with git's own tree of the commit.
 *
 * Nothing may come out wrong. A refusal is allowed only where a section is truly ambiguous (PATCH_FAILED saying so,
 * the section's lines occurring more than once below where the search starts, at the lines the refusal names), and
 * the disk must be untouched by it; the commit is then tried again with more context, as a model would.
 *
 * The history is replayed twice: with the "@@" lines that name the place under the grammar, and with the enclosing
 * heading repeated for a second section under it, as models write them (toV4a.ts, `enclosing`): those sections,
 * whose "@@" line lies above where the search starts, apply wherever their lines occur once below it (`anchor_above`).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { EncodingHost } from '../../src/core/encoding/host';
import { LOCAL_CODEC } from '../../src/core/encoding/codec';
import { createNodeSession } from '../../src/node/host/session';
import { checkout, filesBelow, generateHistory } from './corpus/history';
import { type Anchors, commitPatch, type SectionFacts } from './corpus/toV4a';
import { call, makeTempDir, removeTree } from './helpers';

const SEED = 1;
const COMMITS = 60;
/** Context lines per attempt: a model's first patch, then what it writes after an ambiguous refusal. */
const CONTEXTS = [3, 6, 12, 25, 100];

/** windows-1252 for *.w1252.* files, UTF-8 for the rest: the encoding setting a person with such files makes. */
const W1252_BY_NAME: EncodingHost = {
  settingsFor: (absolute) => ({ default: /\.w1252\.\w+$/.test(absolute) ? 'windows1252' : 'utf8', guess: false, candidates: [] }),
  codec: LOCAL_CODEC,
  settingName: 'files.encoding',
};

function occurrences(facts: SectionFacts): number[] {
  const found: number[] = [];
  for (let at = facts.cursor; at + facts.old.length <= facts.lines.length; at++)
    if (facts.old.every((line, offset) => facts.lines[at + offset] === line)) found.push(at);
  return found;
}

function treeDifferences(actual: Map<string, Buffer>, expected: Map<string, Buffer>): string[] {
  const found: string[] = [];
  for (const [name, bytes] of expected) {
    const have = actual.get(name);
    if (!have) found.push(`${name}: missing`);
    else if (!have.equals(bytes)) found.push(`${name}: differs`);
  }
  for (const name of actual.keys()) if (!expected.has(name)) found.push(`${name}: should not exist`);
  return found;
}

describe('apply_patch: a git history replayed as V4A patches', function () {
  this.timeout(900000);
  let tmp = '';
  before(function () {
    tmp = makeTempDir('agentfs-v4a-corpus-');
  });
  after(function () {
    removeTree(tmp);
  });

  for (const anchors of ['nearest', 'enclosing'] as const) {
    it(`every commit applies byte for byte as git has it; only truly ambiguous sections are refused (${anchors} "@@" lines)`, async function () {
      await replay(path.join(tmp, anchors), anchors);
    });
  }
});

async function replay(tmp: string, anchors: Anchors): Promise<void> {
  const repo = path.join(tmp, 'repo');
  const work = path.join(tmp, 'work');
  const expectedDir = path.join(tmp, 'expected');
  const { commits } = generateHistory(repo, SEED, COMMITS);
  checkout(repo, commits[0] ?? '', work);
  const session = createNodeSession(work, {}, { encodings: W1252_BY_NAME });
  const counts = {
    commits: 0,
    files: 0,
    sections: 0,
    anchored: 0,
    anchorAbove: 0,
    anchorAboveApplied: 0,
    anchorAboveRefusedAmbiguous: 0,
    endOfFile: 0,
    appliedByteExact: 0,
    refusedAmbiguous: 0,
    appliedAfterMoreContext: 0,
    wrong: 0,
    crlfFilesPatched: 0,
    windows1252FilesPatched: 0,
    noFinalNewlinePatched: 0,
    moves: 0,
    adds: 0,
    deletes: 0,
  };
  const wrong: string[] = [];
  for (let index = 1; index < commits.length; index++) {
    const parent = commits[index - 1] ?? '';
    const commit = commits[index] ?? '';
    checkout(repo, commit, expectedDir);
    const expected = filesBelow(expectedDir);
    counts.commits++;
    let applied = false;
    for (const [attempt, context] of CONTEXTS.entries()) {
      const patch = commitPatch(repo, parent, commit, context, anchors);
      if (attempt === 0) {
        counts.files += patch.files.length;
        counts.sections += patch.sections.length;
        counts.anchored += patch.sections.filter((each) => each.anchor !== undefined).length;
        counts.anchorAbove += patch.sections.filter((each) => each.anchorAbove).length;
        counts.endOfFile += patch.sections.filter((each) => each.endOfFile).length;
      }
      const before = filesBelow(work);
      const envelope = await call(session, 'apply_patch', { patch: patch.text });
      if (envelope.ok) {
        const differences = treeDifferences(filesBelow(work), expected);
        if (differences.length > 0) {
          counts.wrong++;
          wrong.push(`commit ${index} (context ${context}): ${differences.join('; ')}`);
        } else if (attempt === 0) counts.appliedByteExact++;
        else counts.appliedAfterMoreContext++;
        const reported = (envelope.data as { files: { path: string; hunks: { stage?: string }[] }[] }).files;
        for (const file of reported) {
          const facts = patch.sections.filter((each) => each.file === file.path);
          for (const [number, hunk] of file.hunks.entries()) {
            // Exact everywhere: an "@@" line above the search is its own stage, and no match is fuzzy.
            const above = facts[number]?.anchorAbove === true;
            assert.equal(hunk.stage, above ? 'anchor_above' : 'exact', `commit ${index}, ${file.path} section ${number + 1}`);
            if (above && attempt === 0) counts.anchorAboveApplied++;
          }
        }
        for (const file of patch.files) {
          if (file.action === 'add') counts.adds++;
          if (file.action === 'delete') counts.deletes++;
          if (file.action === 'move') counts.moves++;
          if (file.action !== 'update' && file.action !== 'move') continue;
          if (file.shape.crlf) counts.crlfFilesPatched++;
          if (file.shape.encoding === 'windows1252') counts.windows1252FilesPatched++;
          if (!file.shape.finalNewline) counts.noFinalNewlinePatched++;
        }
        applied = true;
        break;
      }
      // A refusal: only for a section whose lines truly occur more than once below where its search starts.
      const { error } = envelope;
      const where = `commit ${index} (context ${context}): ${error.message}`;
      assert.equal(error.code, 'PATCH_FAILED', where);
      assert.match(error.message, /is ambiguous/, where);
      const facts = patch.sections.find((each) => each.file === error.details?.file && each.section === error.details.section);
      assert.ok(facts, where);
      assert.ok(facts.anchor === undefined || facts.anchorAbove, `${where}: a section anchored below the search is never ambiguous`);
      if (facts.anchorAbove && attempt === 0) counts.anchorAboveRefusedAmbiguous++;
      const found = occurrences(facts);
      assert.ok(found.length > 1 && found.includes(facts.start), where);
      assert.deepEqual(
        error.details?.matches_at_lines,
        found.slice(0, 20).map((at) => at + 1),
        where,
      );
      assert.deepEqual(treeDifferences(filesBelow(work), before), [], `${where}: a refusal changed the disk`);
      if (attempt === 0) counts.refusedAmbiguous++;
    }
    // Start the next commit from git's tree whatever happened, so one failure is counted once.
    if (!applied || wrong.length > 0) checkout(repo, commit, work);
  }
  console.log(`      V4A replay of ${COMMITS} generated commits, ${anchors} "@@" lines: ${JSON.stringify(counts)}`);
  assert.deepEqual(wrong, []);
  assert.equal(counts.wrong, 0);
  assert.equal(counts.appliedByteExact + counts.appliedAfterMoreContext, counts.commits, 'every commit applied in the end');
  // The corpus holds what it is for.
  assert.ok(counts.crlfFilesPatched > 0, 'CRLF files patched');
  assert.ok(counts.windows1252FilesPatched > 0, 'windows-1252 files patched');
  assert.ok(counts.noFinalNewlinePatched > 0, 'files without a final newline patched');
  assert.ok(counts.moves > 0 && counts.adds > 0 && counts.deletes > 0, 'moves, adds and deletes');
  assert.ok(counts.anchored > 0 && counts.endOfFile > 0, 'anchored and end-of-file sections');
  assert.ok(counts.refusedAmbiguous > 0, 'ambiguous sections met (the repeated chunks are for that)');
  if (anchors === 'enclosing') assert.ok(counts.anchorAboveApplied > 0, '"@@" lines above the search met, and applied');
}
