import * as assert from 'node:assert/strict';
import { callTool, expectFields, expectOk, scratch } from '../helpers';

describe('find_file', () => {
  it('finds an exact name first, with score 1', async () => {
    const s = scratch('find', { 'deep/down/Zebra-Unique-Name.md': 'z' });
    const { data } = expectOk(await callTool('find_file', { file_name: 'zebra-unique-name.md' }));
    expectFields(data, { query: 'zebra-unique-name.md', match_type: 'exact', count: 1 });
    assert.deepEqual(data.matches, [
      { file_name: 'Zebra-Unique-Name.md', relative_path: s.rel('deep/down/Zebra-Unique-Name.md'), score: 1 },
    ]);
  });

  it('falls back to a lax ranking that tolerates separators and typos', async () => {
    const s = scratch('find-lax', { 'reports/quokka-final-2031.md': 'q' });
    const { data } = expectOk(await callTool('find_file', { file_name: 'quokka_2031' }));
    expectFields(data, { match_type: 'lax' });
    const matches = data.matches as { relative_path: string; score: number }[];
    assert.equal(matches[0]?.relative_path, s.rel('reports/quokka-final-2031.md'));
    assert.ok(matches[0].score > 0 && matches[0].score < 1);
    const typo = expectOk(await callTool('find_file', { file_name: 'qoukka-final-2031.md' }));
    assert.equal((typo.data.matches as { relative_path: string }[])[0]?.relative_path, s.rel('reports/quokka-final-2031.md'));
  });

  it('answers ok with match_type none when nothing is close', async () => {
    expectFields(expectOk(await callTool('find_file', { file_name: 'zzqqxxjj-never-there.bin' })).data, {
      match_type: 'none',
      count: 0,
      matches: [],
    });
  });
});
