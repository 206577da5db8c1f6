/** find_file: exact first (case-insensitive basename, score 1), else the lax ranked fallback, else none; bounded. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FsError } from '../../src/core/ports/fs';
import { faultySession } from './faultInjection';
import { assertFields, assertTree, call, expectError, expectOk, tempWorkspace, type TempWorkspace } from './helpers';

interface Match {
  file_name: string;
  relative_path: string;
  score: number;
}

function matchesOf(data: Record<string, unknown>): Match[] {
  const matches = data.matches;
  assert.ok(Array.isArray(matches));
  for (const match of matches as unknown[]) {
    assert.equal(typeof match, 'object');
    const record = match as Record<string, unknown>;
    assert.deepEqual(Object.keys(record).sort(), ['file_name', 'relative_path', 'score']);
    assert.equal(typeof record.file_name, 'string');
    assert.equal(typeof record.relative_path, 'string');
    assert.equal(typeof record.score, 'number');
    assert.equal(path.posix.basename(record.relative_path as string), record.file_name);
  }
  assert.equal(data.count, matches.length);
  return matches as Match[];
}

describe('find_file', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({
      'report.md': 'r',
      'notes/report-final-2026.md': 'n',
      'notes/Summary.TXT': 's',
      'deep/a/b/summary.txt': 's2',
      'alphadir/file.txt': 'f',
      'package.json': '{}',
      'package.json.bak': '{}',
    });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('exact: case-insensitive basename, every match, score 1, match_type exact: {query, match_type, count, matches}', async function () {
    const before = ws.snap();
    const data = expectOk(await call(ws.session, 'find_file', { file_name: 'SUMMARY.txt' }), 'find_file');
    assertFields(data, { query: 'SUMMARY.txt', match_type: 'exact', count: 2 });
    assert.deepEqual(matchesOf(data), [
      { file_name: 'summary.txt', relative_path: 'deep/a/b/summary.txt', score: 1 },
      { file_name: 'Summary.TXT', relative_path: 'notes/Summary.TXT', score: 1 },
    ]);
    assertTree(ws.snap(), before);
  });

  it('an exact match wins over lax ones (package.json does not also return package.json.bak)', async function () {
    const data = expectOk(await call(ws.session, 'find_file', { file_name: 'package.json' }));
    assertFields(data, { match_type: 'exact', count: 1 });
    assert.deepEqual(matchesOf(data), [{ file_name: 'package.json', relative_path: 'package.json', score: 1 }]);
  });

  it('lax: "report_2026" finds notes/report-final-2026.md with 0 < score < 1, and not report.md', async function () {
    const data = expectOk(await call(ws.session, 'find_file', { file_name: 'report_2026' }));
    assertFields(data, { query: 'report_2026', match_type: 'lax' });
    const matches = matchesOf(data);
    assert.equal(matches[0]?.relative_path, 'notes/report-final-2026.md');
    assert.ok(!matches.some((match) => match.relative_path === 'report.md'), 'report.md lacks "2026"');
    for (const match of matches) assert.ok(match.score > 0 && match.score < 1, String(match.score));
  });

  it('lax: the typo "reprot" finds report.md (0 < score < 1)', async function () {
    const data = expectOk(await call(ws.session, 'find_file', { file_name: 'reprot' }));
    assertFields(data, { query: 'reprot', match_type: 'lax' });
    const matches = matchesOf(data);
    const report = matches.find((match) => match.relative_path === 'report.md');
    assert.ok(report, JSON.stringify(matches));
    assert.ok(report.score > 0 && report.score < 1);
  });

  it('lax matches are sorted by score, then path', async function () {
    const matches = matchesOf(expectOk(await call(ws.session, 'find_file', { file_name: 'summ' })));
    assert.ok(matches.length >= 2);
    for (let index = 1; index < matches.length; index++) {
      const previous = matches[index - 1];
      const current = matches[index];
      assert.ok(previous && current);
      assert.ok(
        previous.score > current.score || (previous.score === current.score && previous.relative_path < current.relative_path),
        JSON.stringify(matches),
      );
    }
  });

  it('none: ok true, match_type none, count 0, matches []', async function () {
    assertFields(expectOk(await call(ws.session, 'find_file', { file_name: 'zzqqxxkkww' })), {
      query: 'zzqqxxkkww',
      match_type: 'none',
      count: 0,
      matches: [],
    });
  });

  it('the lax fallback matches file names only, not directory names', async function () {
    const matches = matchesOf(expectOk(await call(ws.session, 'find_file', { file_name: 'alphadir' })));
    assert.ok(!matches.some((match) => match.relative_path === 'alphadir/file.txt'), JSON.stringify(matches));
  });

  it('a query with spaces and common file-name characters is accepted', async function () {
    ws.write({ 'docs/Meeting Notes (v2).md': 'm' });
    const data = expectOk(await call(ws.session, 'find_file', { file_name: 'meeting notes (v2).md' }));
    assertFields(data, { match_type: 'exact', count: 1 });
  });

  it('max_results caps the result (default 20) with truncated; LIMIT_EXCEEDED above 200', async function () {
    const many: Record<string, string> = {};
    for (let index = 0; index < 30; index++) many[`many/dup${String(index).padStart(2, '0')}/same.log`] = 'x';
    ws.write(many);
    const byDefault = expectOk(await call(ws.session, 'find_file', { file_name: 'same.log' }));
    assertFields(byDefault, { match_type: 'exact', count: 20 });
    assert.equal(matchesOf(byDefault)[0]?.relative_path, 'many/dup00/same.log');
    if ('truncated' in byDefault) assert.equal(byDefault.truncated, true);
    assertFields(expectOk(await call(ws.session, 'find_file', { file_name: 'same.log', max_results: 5 })), { count: 5 });
    assertFields(expectOk(await call(ws.session, 'find_file', { file_name: 'same.log', max_results: 200 })), { count: 30 });
    const error = expectError(
      await call(ws.session, 'find_file', { file_name: 'same.log', max_results: 201 }),
      'LIMIT_EXCEEDED',
      'find_file',
    );
    assert.match(error.message, /200/);
  });

  it('never offers links or anything reached through them', async function () {
    fs.writeFileSync(path.join(ws.outside, 'outside-only.txt'), 'o');
    fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
    fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.base, 'secret.txt'));
    assertFields(expectOk(await call(ws.session, 'find_file', { file_name: 'outside-only.txt' })), { count: 0, matches: [] });
    const secret = matchesOf(expectOk(await call(ws.session, 'find_file', { file_name: 'secret.txt' })));
    assert.deepEqual(secret, []);
  });

  it('LIST_FAILED when the tree cannot be read', async function () {
    const session = faultySession(ws.base, (method) => (method === 'readDirectory' ? new FsError('permission', 'EACCES') : undefined));
    expectError(await call(session, 'find_file', { file_name: 'report.md' }), 'LIST_FAILED', 'find_file');
  });
});
