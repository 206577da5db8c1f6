import * as assert from 'node:assert/strict';
import { callTool, expectFields, expectOk, scratch } from '../helpers';

describe('directory_tree', () => {
  it('draws a markdown tree with box-drawing characters and counts', async () => {
    const s = scratch('tree', { 'src/main.ts': 'x', 'src/util/strings.ts': 'y', 'README.md': 'z' });
    const { data } = expectOk(await callTool('directory_tree', { path: s.rel() }));
    expectFields(data, { directories: 2, files: 3, truncated: false });
    const tree = data.tree as string;
    assert.match(tree, /├── |└── /);
    for (const name of ['src/', 'util/', 'main.ts', 'strings.ts', 'README.md']) assert.ok(tree.includes(name), `${name} in\n${tree}`);
  });

  it('stops at max_depth', async () => {
    const s = scratch('tree-depth', { 'one/two/three/deep.txt': 'x' });
    const { data } = expectOk(await callTool('directory_tree', { path: s.rel(), max_depth: 1 }));
    const tree = data.tree as string;
    assert.ok(tree.includes('one/'));
    assert.ok(!tree.includes('deep.txt'), tree);
  });
});
