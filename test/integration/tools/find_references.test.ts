import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { callTool, eventually, expectOk, scratch } from '../helpers';

interface Reference {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

describe('find_references', function () {
  this.timeout(120_000);

  it('asks the TypeScript language service: the import counts, the same word in a comment does not', async () => {
    // A project of its own (tsconfig.json), as code is kept: the service then knows every file of it, open or not.
    const s = scratch('find-references', {
      'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
      'lib.ts': 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n',
      'use.ts':
        "import { greet as hello } from './lib';\n// greet is mentioned here only in a comment\nexport const said = hello('you');\n",
    });
    // The service loads the project on its first request: the document is opened as a person would, and the call is
    // repeated until the service has answered (approximate false) rather than for a fixed time.
    await vscode.window.showTextDocument(vscode.Uri.file(s.abs('lib.ts')), { preview: true });
    let found: Record<string, unknown> = {};
    const answered = async (): Promise<boolean> => {
      found = expectOk(await callTool('find_references', { path: s.rel('lib.ts'), symbol: 'greet' })).data;
      return found.approximate === false && (found.references as Reference[]).some((reference) => reference.path.endsWith('use.ts'));
    };
    await eventually(answered, 'the TypeScript service answers for lib.ts', 90_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; the last answer: ${JSON.stringify(found)}`);
    });
    const references = found.references as Reference[];
    assert.deepEqual(
      references.slice(0, 2).map((reference) => [reference.path.replace(/^.*\//, ''), reference.line, reference.column, reference.text]),
      [
        ['lib.ts', 1, 17, 'export function greet(name: string): string {'],
        ['use.ts', 1, 10, "import { greet as hello } from './lib';"],
      ],
    );
    // Whatever else the service counts (the alias's calls), never the comment that merely spells the name.
    assert.ok(!references.some((reference) => reference.path.endsWith('use.ts') && reference.line === 2), 'a comment is no reference');
  });
});
