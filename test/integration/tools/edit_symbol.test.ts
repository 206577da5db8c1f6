import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { callTool, expectError, expectOk, scratch, snapshot } from '../helpers';

describe('edit_symbol', () => {
  it('replaces a method whole in a CRLF file, every other byte kept, and undo gives the bytes back', async () => {
    const text =
      'class Store:\r\n    def get(self, key):\r\n        return self.data[key]\r\n\r\n    def put(self, key, value):\r\n        self.data[key] = value\r\n';
    const s = scratch('edit-symbol', { 'store.py': text });
    const { data } = expectOk(
      await callTool('edit_symbol', {
        path: s.rel('store.py'),
        symbol: 'Store/get',
        action: 'replace',
        text: '    def get(self, key, default=None):\n        return self.data.get(key, default)',
      }),
    );
    assert.equal(data.newline, 'crlf');
    assert.equal(
      fs.readFileSync(s.abs('store.py'), 'utf8'),
      'class Store:\r\n    def get(self, key, default=None):\r\n        return self.data.get(key, default)\r\n\r\n    def put(self, key, value):\r\n        self.data[key] = value\r\n',
    );
    expectOk(await callTool('undo_operation', { operation_id: data.operation_id }));
    assert.equal(fs.readFileSync(s.abs('store.py'), 'utf8'), text);
  });

  it('refuses a name that matches nothing, naming the nearest, and changes nothing', async () => {
    const s = scratch('edit-symbol-missing', { 'a.go': 'package a\n\nfunc Load() {}\n' });
    const refused = expectError(
      await callTool('edit_symbol', { path: s.rel('a.go'), symbol: 'Lod', action: 'replace', text: '' }),
      'SYMBOL_NOT_FOUND',
    );
    assert.deepEqual(refused.error.details?.nearest, ['Load']);
    assert.deepEqual(snapshot(s.abs()), { 'a.go': 'package a\n\nfunc Load() {}\n' });
  });
});
