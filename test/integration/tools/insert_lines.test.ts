import * as assert from 'node:assert/strict';
import { callTool, expectError, expectOk, readText, scratch } from '../helpers';

describe('insert_lines', () => {
  it("inserts before, after and at the end; appended text ends as the content does, the file's missing newline supplied", async () => {
    const s = scratch('insert-lines', { 'a.txt': 'b\nd', 'open.txt': 'alpha\nbeta' });
    expectOk(await callTool('insert_lines', { path: s.rel('a.txt'), position: 'before', line: 1, content: 'a' }));
    expectOk(await callTool('insert_lines', { path: s.rel('a.txt'), position: 'after', line: 2, content: 'c' }));
    expectOk(await callTool('insert_lines', { path: s.rel('a.txt'), position: 'end', content: 'e' }));
    assert.equal(readText(s.abs('a.txt')), 'a\nb\nc\nd\ne');
    expectOk(await callTool('insert_lines', { path: s.rel('open.txt'), position: 'end', content: 'omega\n' }));
    assert.equal(readText(s.abs('open.txt')), 'alpha\nbeta\nomega\n');
  });

  it('position "end" takes no line', async () => {
    const s = scratch('insert-lines-end', { 'a.txt': 'a\n' });
    expectError(await callTool('insert_lines', { path: s.rel('a.txt'), position: 'end', line: 1, content: 'x' }), 'INVALID_INPUT');
    assert.equal(readText(s.abs('a.txt')), 'a\n');
  });
});
