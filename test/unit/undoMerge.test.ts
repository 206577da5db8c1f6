/**
 * Undo as a merge, over the Node adapter on real temp directories: a real formatter (prettier) reformats part of a
 * file after an agent's edit, and undoing the edit keeps the formatter's lines and takes out the agent's, byte for
 * byte; an overlapping change refuses and changes nothing on the disk; a session's undo over three files, one of them
 * formatted since, is all or nothing; UTF-16 with a BOM, windows-1252 and CRLF come back exact. Changes made outside
 * Agent FS are recorded at the next call on the file (origin outside). A generated history of two agents and the
 * person editing one file checks every undo against a model: exactly the file a person expects, or a refusal where
 * the changes overlap, never anything else.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diffArrays } from 'diff';
import * as prettier from 'prettier';
import type { Envelope } from '../../src/core/envelope';
import { flagEncodingHost } from '../../src/core/encoding/host';
import type { Origin } from '../../src/core/history/origin';
import { invokeOperation, type Session } from '../../src/core/invoke';
import type { Policy } from '../../src/core/settings';
import { createNodeSession } from '../../src/node/host/session';
import { Budget, seedFrom } from '../shared/budget';
import { seeded } from '../shared/churn';
import { encodeAs } from '../shared/encodingCorpus';
import { checkEnvelope } from '../shared/results';
import { assertTree, snapshot } from '../shared/tree';
import { expectError, expectOk, makeTempDir, removeTree } from './helpers';

const SEED = seedFrom('AGENTFS_UNDO_MERGE_SEED');

const AGENT_A: Origin = { host: 'mcp', agent: 'claude-code', agent_version: '2.1.0', session: 'mcp-agent-a' };
const AGENT_B: Origin = { host: 'mcp', agent: 'codex', agent_version: '0.9.1', session: 'mcp-agent-b' };

interface Conflict {
  path: string;
  change: string;
  lines?: { now: { start_line: number; line_count: number }; before: { start_line: number; line_count: number } }[];
}

interface Listed {
  operation_id: string;
  operation: string;
  host?: string;
  agent?: string;
  session?: string;
  summary: string;
}

/** A workspace with a history, driven as agents drive it: each call under an origin. */
class Workspace {
  readonly tmp = makeTempDir('agentfs-undo-merge-');
  readonly base = path.join(this.tmp, 'base');
  readonly state = path.join(this.tmp, 'state');
  session: Session;

  constructor(policy: Partial<Policy> = {}, encoding?: string) {
    fs.mkdirSync(this.base);
    this.session = createNodeSession(this.base, policy, {
      stateDirectory: this.state,
      ...(encoding === undefined
        ? {}
        : { encodings: flagEncodingHost({ default: encoding as 'utf8', guess: false, candidates: [] }, '--encoding') }),
    });
  }

  async run(who: Origin | undefined, operation: string, input: unknown): Promise<Envelope> {
    const envelope = await invokeOperation(operation, input, this.session, undefined, undefined, who);
    checkEnvelope(envelope);
    return envelope;
  }

  write(relative: string, content: string | Uint8Array): void {
    const full = path.join(this.base, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }

  read(relative: string): Buffer {
    return fs.readFileSync(path.join(this.base, relative));
  }

  text(relative: string): string {
    return this.read(relative).toString('utf8');
  }

  async list(): Promise<Listed[]> {
    return expectOk(await this.run(undefined, 'history_list', { limit: 200 })).operations as Listed[];
  }

  cleanup(): void {
    removeTree(this.tmp);
  }
}

/** The module the formatter tests edit: formatted as prettier leaves it, but for the table at its end. */
const MODULE = [
  "export const greeting = 'hello';",
  '',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function scale(values: number[], by: number): number[] {',
  '  return values.map((value) => value * by);',
  '}',
  '',
  'export const table = {alpha:1,   beta : 2,gamma:3};',
  '',
].join('\n');

const PRETTIER: prettier.Options = { parser: 'typescript', singleQuote: true, printWidth: 100 };

describe('undo as a merge: changes made since in other lines are kept', function () {
  this.timeout(120_000);
  let w: Workspace;

  beforeEach(function () {
    w = new Workspace();
  });

  afterEach(function () {
    w.cleanup();
  });

  it('keeps what prettier reformatted after an agent edit and takes out only the edit, byte for byte', async function () {
    w.write('src/module.ts', MODULE);
    const edited = expectOk(await w.run(AGENT_A, 'edit_file', { path: 'src/module.ts', old_string: "'hello'", new_string: "'hi there'" }));
    // The formatter runs over the whole file, as format-on-save does; it changes the table only.
    const formatted = await prettier.format(w.text('src/module.ts'), PRETTIER);
    assert.notEqual(formatted, w.text('src/module.ts'), 'prettier changed something');
    assert.ok(formatted.startsWith("export const greeting = 'hi there';\n"), 'and left the agent line alone');
    w.write('src/module.ts', formatted);

    const undone = expectOk(await w.run(AGENT_A, 'undo_operation', { operation_id: edited.operation_id }));
    const expected = await prettier.format(MODULE, PRETTIER);
    assert.equal(w.text('src/module.ts'), expected, 'the original, formatted: the formatter kept, the agent gone');
    assert.equal(w.text('src/module.ts'), formatted.replace("'hi there'", "'hello'"));
    assert.deepEqual(undone.restored, [
      { path: 'src/module.ts', action: 'restored', state: `file (${expected.length} bytes)`, merged: true },
    ]);

    // The timeline holds the formatter's change, as made outside Agent FS, between the edit and its undo.
    const listed = await w.list();
    assert.deepEqual(
      listed.map((each) => [each.operation, each.host]),
      [
        ['undo_operation', 'mcp'],
        ['outside_change', 'outside'],
        ['edit_file', 'mcp'],
      ],
    );
    const outside = expectOk(await w.run(undefined, 'history_get', { operation_id: listed[1]?.operation_id }));
    const diff = String((outside.changes as { diff?: string }[])[0]?.diff);
    assert.match(diff, /^-export const table = \{alpha:1, {3}beta : 2,gamma:3\};$/m);
    assert.match(diff, /^\+export const table = \{ alpha: 1, beta: 2, gamma: 3 \};$/m);
    assert.doesNotMatch(diff, /greeting/);

    // The undo is recorded like any change: undoing it puts the agent's edit back over the formatted file.
    expectOk(await w.run(AGENT_A, 'undo_operation', { operation_id: undone.operation_id }));
    assert.equal(w.text('src/module.ts'), formatted);
  });

  it('refuses an undo whose lines the formatter changed too, naming the lines, and changes nothing', async function () {
    w.write('src/module.ts', MODULE);
    const edited = expectOk(await w.run(AGENT_A, 'edit_file', { path: 'src/module.ts', old_string: "'hello'", new_string: '"hi"   ' }));
    w.write('src/module.ts', await prettier.format(w.text('src/module.ts'), PRETTIER));
    const held = snapshot(w.base);
    const refused = expectError(await w.run(AGENT_A, 'undo_operation', { operation_id: edited.operation_id }), 'UNDO_CONFLICT');
    assertTree(snapshot(w.base), held, 'a refused undo changes nothing');
    const conflicts = refused.details?.conflicts as Conflict[];
    assert.deepEqual(conflicts, [
      {
        path: 'src/module.ts',
        change: 'changed since',
        lines: [{ now: { start_line: 1, line_count: 1 }, before: { start_line: 1, line_count: 1 } }],
      },
    ]);
    assert.match(refused.message, /src\/module\.ts \(changed since\): line 1 now, where the undo would put back line 1/);
  });

  // diff3 and git call changes with no line between them a conflict; they do not overlap, so the undo takes both.
  it('keeps changes made right next to the undone lines, and refuses two insertions at one place', async function () {
    w.write('list.txt', lines(1, 8));
    const edited = expectOk(
      await w.run(AGENT_A, 'replace_lines', { path: 'list.txt', start_line: 4, end_line: 5, content: 'four\nfive\n' }),
    );
    // The person changes the line above and adds one right below, touching the agent's lines on both sides.
    w.write('list.txt', w.text('list.txt').replace('line 3\n', 'line three\n').replace('five\n', 'five\nadded below\n'));
    const undone = expectOk(await w.run(AGENT_A, 'undo_operation', { operation_id: edited.operation_id }));
    assert.equal(w.text('list.txt'), lines(1, 8).replace('line 3\n', 'line three\n').replace('line 5\n', 'line 5\nadded below\n'));
    assert.equal((undone.restored as { merged?: boolean }[])[0]?.merged, true);
    // The person inserts right before the agent's inserted line: the undo takes out the agent's line only.
    w.write('list.txt', lines(1, 4));
    const inserted = expectOk(await w.run(AGENT_A, 'insert_lines', { path: 'list.txt', position: 'after', line: 2, content: 'agent\n' }));
    w.write('list.txt', w.text('list.txt').replace('line 2\n', 'line 2\nperson\n'));
    expectOk(await w.run(AGENT_A, 'undo_operation', { operation_id: inserted.operation_id }));
    assert.equal(w.text('list.txt'), lines(1, 4).replace('line 2\n', 'line 2\nperson\n'));
    // Both of the agent's neighbours replaced since, and lines added on both sides of a line it appended: doing the
    // change again (the merge's check) meets one hunk of the person's around it, and must still place it.
    w.write('list.txt', lines(1, 4));
    const between = expectOk(await w.run(AGENT_A, 'insert_lines', { path: 'list.txt', position: 'after', line: 2, content: 'agent\n' }));
    w.write('list.txt', w.text('list.txt').replace('line 2\n', 'line two\n').replace('line 3\n', 'line three\n'));
    expectOk(await w.run(AGENT_A, 'undo_operation', { operation_id: between.operation_id }));
    assert.equal(w.text('list.txt'), 'line 1\nline two\nline three\nline 4\n');
    const appended = expectOk(await w.run(AGENT_A, 'insert_lines', { path: 'list.txt', position: 'end', content: 'agent\n' }));
    w.write('list.txt', w.text('list.txt').replace('agent\n', 'above\nagent\nbelow\n'));
    expectOk(await w.run(AGENT_A, 'undo_operation', { operation_id: appended.operation_id }));
    assert.equal(w.text('list.txt'), 'line 1\nline two\nline three\nline 4\nabove\nbelow\n');
    // The agent deleted line 3 and the person wrote a line where it was: putting line 3 back there is an insertion at
    // the very place of the person's, and which goes first is anyone's guess.
    w.write('list.txt', lines(1, 4));
    const deleted = expectOk(await w.run(AGENT_A, 'delete_lines', { path: 'list.txt', start_line: 3, end_line: 3 }));
    w.write('list.txt', w.text('list.txt').replace('line 2\n', 'line 2\nperson\n'));
    const held = snapshot(w.base);
    expectError(await w.run(AGENT_A, 'undo_operation', { operation_id: deleted.operation_id }), 'UNDO_CONFLICT');
    assertTree(snapshot(w.base), held, 'a refused undo changes nothing');
  });

  it('undoes a session over three files, one formatted since, and refuses all of it when one overlaps', async function () {
    const files = ['a.ts', 'b.ts', 'c.ts'];
    for (const file of files) w.write(file, MODULE.replace('hello', `hello from ${file}`));
    for (const file of files) expectOk(await w.run(AGENT_A, 'edit_file', { path: file, old_string: 'a + b', new_string: '(a + b) * 1' }));
    expectOk(await w.run(AGENT_B, 'write_file', { file_name: 'notes.md', content: 'not in the session\n' }));
    w.write('b.ts', await prettier.format(w.text('b.ts'), PRETTIER));
    // Another agent's edit in c.ts, far from the session's lines: kept as well.
    expectOk(await w.run(AGENT_B, 'edit_file', { path: 'c.ts', old_string: 'value * by', new_string: 'by * value' }));
    // The person changed one of the session's own lines in a.ts: the whole undo refuses.
    const agentA = w.text('a.ts');
    w.write('a.ts', agentA.replace('(a + b) * 1', '(a + b) * 2'));
    const held = snapshot(w.base);
    const refused = expectError(await w.run(AGENT_A, 'undo_last', { session: AGENT_A.session }), 'UNDO_CONFLICT');
    assertTree(snapshot(w.base), held, 'nothing changed, in any of the three files');
    assert.deepEqual(
      (refused.details?.conflicts as Conflict[]).map((each) => [each.path, each.lines?.[0]?.now.start_line]),
      [['a.ts', 4]],
    );
    assert.match(refused.message, /a\.ts \(changed since outside Agent FS, by the person or another program\): line 4 now/);

    w.write('a.ts', agentA);
    const formattedB = w.text('b.ts');
    const editedC = w.text('c.ts');
    const undone = expectOk(await w.run(AGENT_A, 'undo_last', { session: AGENT_A.session }));
    assert.equal((undone.undone_operation_ids as string[]).length, 3);
    assert.deepEqual(w.read('a.ts'), Buffer.from(MODULE.replace('hello', 'hello from a.ts')));
    assert.equal(w.text('b.ts'), formattedB.replace('(a + b) * 1', 'a + b'));
    assert.equal(w.text('b.ts'), await prettier.format(MODULE.replace('hello', 'hello from b.ts'), PRETTIER));
    assert.equal(w.text('c.ts'), editedC.replace('(a + b) * 1', 'a + b'));
    assert.ok(w.text('c.ts').includes('by * value'), "the other agent's edit stays");
    assert.equal(w.text('notes.md'), 'not in the session\n');
    assert.deepEqual([...snapshot(w.base).keys()].sort(), ['a.ts', 'b.ts', 'c.ts', 'notes.md']);
  });

  it('keeps a multi-file patch all or nothing: one file overlapping refuses the whole undo', async function () {
    w.write('one.txt', lines(1, 12));
    w.write('two.txt', lines(101, 112));
    const patch = [
      '--- a/one.txt',
      '+++ b/one.txt',
      '@@ -2,3 +2,3 @@',
      ' line 2',
      '-line 3',
      '+line 3 patched',
      ' line 4',
      '--- a/two.txt',
      '+++ b/two.txt',
      '@@ -2,3 +2,3 @@',
      ' line 102',
      '-line 103',
      '+line 103 patched',
      ' line 104',
      '',
    ].join('\n');
    const patched = expectOk(await w.run(AGENT_A, 'apply_patch', { patch }));
    w.write('one.txt', w.text('one.txt').replace('line 10\n', 'line 10 by hand\n'));
    w.write('two.txt', w.text('two.txt').replace('line 103 patched\n', 'line 103 by hand\n'));
    const held = snapshot(w.base);
    const refused = expectError(await w.run(AGENT_A, 'undo_operation', { operation_id: patched.operation_id }), 'UNDO_CONFLICT');
    assertTree(snapshot(w.base), held, 'one.txt, which would merge, is not written either');
    assert.deepEqual(refused.details?.paths, ['two.txt']);

    w.write('two.txt', w.text('two.txt').replace('line 103 by hand\n', 'line 103 patched\n').replace('line 110\n', 'line 110 by hand\n'));
    expectOk(await w.run(AGENT_A, 'undo_operation', { operation_id: patched.operation_id }));
    assert.equal(w.text('one.txt'), lines(1, 12).replace('line 10\n', 'line 10 by hand\n'));
    assert.equal(w.text('two.txt'), lines(101, 112).replace('line 110\n', 'line 110 by hand\n'));
  });

  it('refuses as before where there is nothing to merge: binary content, a deleted file', async function () {
    w.write('data.txt', lines(1, 8));
    const edited = expectOk(await w.run(AGENT_A, 'edit_file', { path: 'data.txt', old_string: 'line 2\n', new_string: 'line two\n' }));
    w.write('data.txt', Buffer.concat([w.read('data.txt'), Buffer.from([0, 1, 2, 0, 0, 0])]));
    let held = snapshot(w.base);
    const binary = expectError(await w.run(AGENT_A, 'undo_operation', { operation_id: edited.operation_id }), 'UNDO_CONFLICT');
    assert.deepEqual(binary.details?.conflicts, [{ path: 'data.txt', change: 'changed since' }]);
    assertTree(snapshot(w.base), held);
    fs.rmSync(path.join(w.base, 'data.txt'));
    held = snapshot(w.base);
    const deleted = expectError(await w.run(AGENT_A, 'undo_operation', { operation_id: edited.operation_id }), 'UNDO_CONFLICT');
    assert.deepEqual(deleted.details?.conflicts, [{ path: 'data.txt', change: 'deleted since' }]);
    assertTree(snapshot(w.base), held);
  });

  it('merges UTF-16 with a BOM and CRLF, and windows-1252 with CRLF, byte for byte', async function () {
    const cases = [
      { encoding: 'utf16le', bom: true, text: ['première ligne', 'ünïcödé ✓', 'milieu', 'encore', 'fin'], last: 'à la fin ✓' },
      { encoding: 'windows1252', bom: false, text: ['première ligne', 'café crème', 'milieu', 'encore', 'fin'], last: 'à la fin €' },
    ];
    for (const sample of cases) {
      w.cleanup();
      w = new Workspace({}, sample.encoding);
      const [first = '', second = '', ...rest] = sample.text;
      const bytesOf = (textLines: string[]): Buffer => Buffer.from(encodeAs(`${textLines.join('\r\n')}\r\n`, sample.encoding, sample.bom));
      w.write('f.txt', bytesOf(sample.text));
      const edited = expectOk(await w.run(AGENT_A, 'edit_file', { path: 'f.txt', old_string: second, new_string: 'deuxième' }));
      assert.deepEqual(w.read('f.txt'), bytesOf([first, 'deuxième', ...rest]), `${sample.encoding}: the edit kept the shape`);
      // The person changes the last line, in the file's own encoding and line endings.
      w.write('f.txt', bytesOf([first, 'deuxième', ...rest.slice(0, -1), sample.last]));
      const undone = expectOk(await w.run(AGENT_A, 'undo_operation', { operation_id: edited.operation_id }));
      assert.equal((undone.restored as { merged?: boolean }[])[0]?.merged, true);
      assert.deepEqual(w.read('f.txt'), bytesOf([...sample.text.slice(0, -1), sample.last]), `${sample.encoding}: byte for byte`);
    }
  });

  it('keeps a byte-order mark the person added since', async function () {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    w.write('bom.txt', lines(1, 6));
    const edited = expectOk(await w.run(AGENT_A, 'edit_file', { path: 'bom.txt', old_string: 'line 1\n', new_string: 'line one\n' }));
    w.write('bom.txt', Buffer.concat([bom, w.read('bom.txt')]));
    expectOk(await w.run(AGENT_A, 'undo_operation', { operation_id: edited.operation_id }));
    assert.deepEqual(w.read('bom.txt'), Buffer.concat([bom, Buffer.from(lines(1, 6))]));
  });
});

describe('changes made outside Agent FS are recorded at the next call on the file', function () {
  this.timeout(60_000);
  let w: Workspace;

  beforeEach(function () {
    w = new Workspace();
  });

  afterEach(function () {
    w.cleanup();
  });

  it('records what a shell command changed, as its own operation, and undo_last passes over it', async function () {
    w.write('log.txt', lines(1, 5));
    const first = expectOk(await w.run(AGENT_A, 'edit_file', { path: 'log.txt', old_string: 'line 1\n', new_string: 'line 1 agent\n' }));
    fs.appendFileSync(path.join(w.base, 'log.txt'), 'line 6 appended by a shell\n');
    const second = expectOk(await w.run(AGENT_B, 'edit_file', { path: 'log.txt', old_string: 'line 3\n', new_string: 'line 3 codex\n' }));
    // The call's result is as it always was: seeing the outside change adds nothing to it.
    assert.deepEqual(Object.keys(second).sort(), Object.keys(first).sort());
    const listed = await w.list();
    assert.deepEqual(
      listed.map((each) => [each.operation, each.agent]),
      [
        ['edit_file', 'codex 0.9.1'],
        ['outside_change', 'outside Agent FS'],
        ['edit_file', 'claude-code 2.1.0'],
      ],
    );
    const outside = listed[1];
    assert.match(outside?.session ?? '', /^outside-[a-z0-9]{10}$/);
    assert.equal(outside?.summary, 'changed outside Agent FS: log.txt');
    const got = expectOk(await w.run(undefined, 'history_get', { operation_id: outside?.operation_id }));
    assert.match(String((got.changes as { diff?: string }[])[0]?.diff), /^\+line 6 appended by a shell$/m);
    assert.equal(got.undo_available, true);

    // undo_last is Agent FS's last change, the codex edit, never the shell's append.
    const last = expectOk(await w.run(AGENT_B, 'undo_last', {}));
    assert.equal(last.undone_operation_id, second.operation_id);
    // Nothing changed outside since: no new outside record.
    assert.equal((await w.list()).filter((each) => each.operation === 'outside_change').length, 1);
    // The shell's append can be undone on its own, keeping the agent's line.
    expectOk(await w.run(undefined, 'undo_operation', { operation_id: outside?.operation_id }));
    assert.equal(w.text('log.txt'), lines(1, 5).replace('line 1\n', 'line 1 agent\n'));
  });

  it('records a file deleted outside and a file put back outside', async function () {
    w.write('kept.txt', 'one\n');
    expectOk(await w.run(AGENT_A, 'write_file', { file_name: 'kept.txt', content: 'two\n' }));
    fs.rmSync(path.join(w.base, 'kept.txt'));
    expectOk(await w.run(AGENT_A, 'write_file', { file_name: 'kept.txt', content: 'three\n' }));
    expectOk(await w.run(AGENT_A, 'delete_file', { file_name: 'kept.txt' }));
    w.write('kept.txt', 'four\n');
    expectOk(await w.run(AGENT_A, 'write_file', { file_name: 'kept.txt', content: 'five\n' }));
    const outside = (await w.list()).filter((each) => each.operation === 'outside_change');
    assert.equal(outside.length, 2);
    const [putBack, deleted] = await Promise.all(
      outside.map(async (each) => expectOk(await w.run(undefined, 'history_get', { operation_id: each.operation_id }))),
    );
    assert.deepEqual(
      (deleted?.changes as { change: string }[]).map((each) => each.change),
      ['deleted'],
    );
    assert.deepEqual(
      (putBack?.changes as { change: string }[]).map((each) => each.change),
      ['added'],
    );
  });
});

/** "line a\n" … "line b\n". */
function lines(from: number, to: number): string {
  let text = '';
  for (let at = from; at <= to; at++) text += `line ${at}\n`;
  return text;
}

// ---- The generated histories -------------------------------------------------------------------------------------

/** A line of the model: its text, and an id that changes whenever the line is changed (an unchanged line keeps it). */
interface Line {
  readonly id: number;
  readonly text: string;
}

/** Where an edit sits: the lines it put in (in order), the lines it took out, the lines around it when it was made. */
interface Place {
  readonly inserted: readonly Line[];
  readonly removed: readonly Line[];
  readonly left: number | undefined;
  readonly right: number | undefined;
  /** The text of those lines, for an undo by the text (undoneByText). */
  readonly leftText: string | undefined;
  readonly rightText: string | undefined;
}

/** What one recorded edit did, as the model keeps it to undo it. */
interface Edit {
  readonly operationId: string;
  /**
   * Every place the edit can be said to sit, the one it was made at first. Among lines that repeat, a pure insertion
   * or deletion has more than one: a "}" put in after a "}" is just as much a "}" put in before it. By the bytes the
   * places are the same edit, so undoing any of them is what a person expects; they part only when later changes
   * come between the repeated lines.
   */
  readonly places: readonly Place[];
  /** The file before and after it, to say what a failing case merged. */
  readonly before: string;
  readonly after: string;
  undone: boolean;
}

/**
 * What undoing the edit at `edit` gives, by the model: when the lines it put in are all still there, unchanged and
 * together, the file with them replaced by the lines it took out ('clean' when the lines around them are unchanged too,
 * else 'adjacent': changed since, but only next to it); when any of them changed since, a refusal ('overlap').
 */
function expectation(lines: readonly Line[], edit: Place): { kind: 'clean' | 'adjacent'; lines: Line[] } | { kind: 'overlap' } {
  const ids = lines.map((line) => line.id);
  let at: number;
  if (edit.inserted.length > 0) {
    at = ids.indexOf(edit.inserted[0]?.id ?? -1);
    if (at < 0 || edit.inserted.some((line, offset) => ids[at + offset] !== line.id)) return { kind: 'overlap' };
  } else {
    // A pure deletion goes back between its neighbours. With both there it must be where they are side by side (a
    // line put between them since is an insertion at its very place); with one changed or gone, next to the other.
    const leftAt = edit.left === undefined ? -1 : ids.indexOf(edit.left);
    const rightAt = edit.right === undefined ? ids.length : ids.indexOf(edit.right);
    const leftThere = edit.left === undefined || leftAt >= 0;
    const rightThere = edit.right === undefined || rightAt >= 0;
    if (leftThere && rightThere) {
      if (leftAt + 1 !== rightAt) return { kind: 'overlap' };
      at = rightAt;
    } else if (rightThere) at = rightAt;
    else if (leftThere) at = leftAt + 1;
    else return { kind: 'overlap' };
  }
  const end = at + edit.inserted.length;
  const leftIntact = edit.left === undefined ? at === 0 : ids[at - 1] === edit.left;
  const rightIntact = edit.right === undefined ? end === ids.length : ids[end] === edit.right;
  const result = [...lines.slice(0, at), ...edit.removed, ...lines.slice(end)];
  return { kind: leftIntact && rightIntact ? 'clean' : 'adjacent', lines: result };
}

/**
 * Every place an edit from `before` to `after` can be said to sit, `first` among them (see Edit.places). An edit
 * trimmed at both ends that replaces lines sits in one place only; a pure insertion or deletion sits wherever taking
 * out (or putting back) that many lines gives the other file. A line put back that is still in `after` by its id (the
 * "}" the edit is now said to have removed is the one it kept) comes back as a new line, `fresh`.
 */
function placesOf(before: readonly Line[], after: readonly Line[], first: Place, fresh: (text: string) => Line): Place[] {
  const places = [first];
  const removedCount = first.removed.length;
  const insertedCount = first.inserted.length;
  if (removedCount > 0 && insertedCount > 0) return places;
  const same = (a: readonly Line[], b: readonly Line[]): boolean =>
    a.length === b.length && a.every((line, at) => line.text === b[at]?.text);
  const kept = new Set(after.map((line) => line.id));
  for (let at = 0; at + insertedCount <= after.length; at++) {
    if (!same(before.slice(0, at), after.slice(0, at))) break;
    if (!same(before.slice(at + removedCount), after.slice(at + insertedCount))) continue;
    const left = after[at - 1]?.id;
    const right = after[at + insertedCount]?.id;
    if (left === first.left && right === first.right) continue;
    const removed = before.slice(at, at + removedCount).map((line) => (kept.has(line.id) ? fresh(line.text) : line));
    const leftText = after[at - 1]?.text;
    const rightText = after[at + insertedCount]?.text;
    places.push({ inserted: after.slice(at, at + insertedCount), removed, left, right, leftText, rightText });
  }
  return places;
}

/** `inserted`, where a diff from `removed` keeps a line, with that line's id. */
function keptByDiff(removed: readonly Line[], inserted: readonly Line[]): Line[] {
  const result = [...inserted];
  let from = 0;
  let to = 0;
  for (const part of diffArrays(
    removed.map((line) => line.text),
    inserted.map((line) => line.text),
  )) {
    if (part.added) to += part.count ?? part.value.length;
    else if (part.removed) from += part.count ?? part.value.length;
    else
      for (let k = 0; k < part.value.length; k++) {
        const kept = removed[from++];
        if (kept) result[to] = kept;
        to++;
      }
  }
  return result;
}

/**
 * `lines` with the edit at `place` undone by its text, where that gives `onDisk`: a stretch of lines with the text of
 * the lines it put in replaced by those it took out (a pure deletion put back next to a line with the text of one of
 * its neighbours), nothing else changed. Lines put back that are still in `lines` by their id come back as new lines,
 * `fresh`.
 */
function undoneByText(lines: readonly Line[], place: Place, onDisk: string, fresh: (text: string) => Line): Line[] | undefined {
  const present = new Set(lines.map((line) => line.id));
  const removed = place.removed.map((line) => (present.has(line.id) ? fresh(line.text) : line));
  const count = place.inserted.length;
  for (let at = 0; at + count <= lines.length; at++) {
    const here =
      count > 0
        ? place.inserted.every((line, offset) => lines[at + offset]?.text === line.text)
        : (place.leftText !== undefined && lines[at - 1]?.text === place.leftText) ||
          (place.rightText !== undefined && lines[at]?.text === place.rightText);
    if (!here) continue;
    const candidate = [...lines.slice(0, at), ...removed, ...lines.slice(at + count)];
    if (candidate.map((line) => `${line.text}\n`).join('') === onDisk) return candidate;
  }
  return undefined;
}

describe(`undo as a merge: generated histories of two agents and the person against a model (AGENTFS_UNDO_MERGE_SEED=${SEED})`, function () {
  this.timeout(300_000);

  it('gives exactly the expected file or refuses, never anything else; never refuses changes that do not overlap', async function () {
    const next = seeded(SEED);
    const pick = (count: number): number => Math.floor(next() * count);
    const budget = new Budget(20_000, 12);
    const tally = {
      cases: 0,
      clean: 0,
      mergedAdjacent: 0,
      refusedOverlap: 0,
      refusedRepeated: 0,
      alreadyUndone: 0,
      mergedByText: 0,
    };
    let lineIds = 0;
    // Every other history has lines that repeat, as braces and blank lines do in code. There a change since that
    // does not touch by the model may touch by content (removing one of two "}" lines is removing either), and a
    // line merge, git's too, may refuse; it must still never give a wrong file.
    let repeats = false;
    const newText = (): string =>
      repeats && next() < 0.15 ? (['}', '', '  return;'][pick(3)] ?? '') : `text ${lineIds + 1} ${pick(1000)}`;
    const newLine = (): Line => ({ id: ++lineIds, text: newText() });

    for (let done = 0; budget.more(done); done++) {
      tally.cases++;
      repeats = done % 2 === 1;
      const w = new Workspace({ durability: 'fast' });
      try {
        let lines: Line[] = Array.from({ length: 10 + pick(20) }, newLine);
        const bytes = (of: readonly Line[]): string => of.map((line) => `${line.text}\n`).join('');
        w.write('f.txt', bytes(lines));
        const edits: Edit[] = [];
        for (let step = 0; step < 14; step++) {
          const roll = next();
          const pending = edits.filter((edit) => !edit.undone);
          if (roll < 0.25 && pending.length > 0) {
            const edit = pending[pick(pending.length)];
            if (!edit) continue;
            const expectations = edit.places.map((place) => expectation(lines, place));
            // The weakest claim among the places: overlap where any overlaps, adjacent where any touches, else clean.
            const kind = (['overlap', 'adjacent', 'clean'] as const).find((k) => expectations.some((e) => e.kind === k)) ?? 'clean';
            const envelope = await w.run(AGENT_A, 'undo_operation', { operation_id: edit.operationId });
            const onDisk = w.text('f.txt');
            const context = `case ${done}, step ${step}, ${kind} (${edit.places.length} places); before the edit:\n${edit.before}after it:\n${edit.after}now:\n${bytes(lines)}`;
            if (envelope.ok) {
              const undoable = expectations.filter((e) => e.kind !== 'overlap');
              const merged = undoable.find((e) => bytes(e.lines) === onDisk);
              if (merged !== undefined) {
                lines = merged.lines;
                edit.undone = true;
                if (merged.kind === 'adjacent') tally.mergedAdjacent++;
                else tally.clean++;
                continue;
              }
              const byText = repeats
                ? edit.places.map((place) => undoneByText(lines, place, onDisk, (text) => ({ id: ++lineIds, text }))).find(Boolean)
                : undefined;
              if (byText !== undefined) {
                // Lines that repeat: the edit's lines, by the model, are gone, and equal ones stand where they were (a
                // "}" deleted and another put in its place). A merge sees only the text, as git's does, and takes the
                // equal lines for the edit's: it undid the edit by its text, changing nothing else.
                lines = byText;
                edit.undone = true;
                tally.mergedByText++;
                continue;
              }
              if (kind === 'overlap' && repeats) {
                // Lines that repeat: what the model calls a later change of the edit's lines may, by their text, be
                // the very change the undo makes (a "}" removed next to an equal one). Then the undo has nothing left
                // to change; anything else would be a wrong file.
                assert.equal(onDisk, bytes(lines), `${context}: an overlapping undo must refuse or change nothing, it gave:\n${onDisk}`);
                edit.undone = true;
                tally.alreadyUndone++;
                continue;
              }
              const wanted = undoable[0];
              assert.ok(wanted !== undefined, `${context}: an overlapping undo must refuse, it gave:\n${onDisk}`);
              assert.equal(onDisk, bytes(wanted.lines), `${context}: the undo gave another file than the model`);
            } else {
              assert.equal(envelope.error.code, 'UNDO_CONFLICT', `${context}: ${envelope.error.message}`);
              assert.equal(onDisk, bytes(lines), `${context}: a refused undo changed the file`);
              if (kind === 'overlap') tally.refusedOverlap++;
              // Where lines repeat, a change next to one of the equal lines stays a conflict (which of them a side
              // changed is a guess); anywhere else a refusal is of changes that do not overlap.
              else if (repeats) tally.refusedRepeated++;
              else assert.fail(`${context}: refused changes that do not overlap: ${envelope.error.message}`);
            }
            continue;
          }
          // An edit: replace 0–3 lines at a random place with 0–3 new ones. Lines it would put back as they were (the
          // same text at either end) are not changed, as a diff sees them: they keep their ids.
          let at = pick(lines.length + 1);
          let removed = lines.slice(at, at + Math.min(pick(4), lines.length - at));
          let inserted = Array.from({ length: removed.length === 0 ? 1 + pick(3) : pick(4) }, newLine);
          while (removed.length > 0 && inserted.length > 0 && removed[0]?.text === inserted[0]?.text) {
            removed = removed.slice(1);
            inserted = inserted.slice(1);
            at++;
          }
          while (removed.length > 0 && inserted.length > 0 && removed[removed.length - 1]?.text === inserted[inserted.length - 1]?.text) {
            removed = removed.slice(0, -1);
            inserted = inserted.slice(0, -1);
          }
          if (removed.length === 0 && inserted.length === 0) continue;
          // Lines of the same text inside the change: the person's (or a formatter's) keep their ids where a diff
          // keeps them, as a person reading the change sees them unchanged; an agent's edit is made of new lines
          // only, so that the model knows it as one stretch.
          if (roll < 0.45) inserted = keptByDiff(removed, inserted);
          else
            inserted = inserted.map((line) =>
              removed.some((one) => one.text === line.text) ? { id: line.id, text: `text ${line.id} new` } : line,
            );
          const removedCount = removed.length;
          const changed = [...lines.slice(0, at), ...inserted, ...lines.slice(at + removedCount)];
          if (roll < 0.45) {
            // The person (or a formatter): outside Agent FS.
            w.write('f.txt', bytes(changed));
          } else {
            const who = roll < 0.75 ? AGENT_A : AGENT_B;
            const written = expectOk(await w.run(who, 'write_file', { file_name: 'f.txt', content: bytes(changed) }));
            const [left, right] = [lines[at - 1], lines[at + removedCount]];
            const first: Place = { inserted, removed, left: left?.id, right: right?.id, leftText: left?.text, rightText: right?.text };
            edits.push({
              operationId: String(written.operation_id),
              places: placesOf(lines, changed, first, (text) => ({ id: ++lineIds, text })),
              before: bytes(lines),
              after: bytes(changed),
              undone: false,
            });
          }
          lines = changed;
        }
      } finally {
        w.cleanup();
      }
    }
    console.log(`      ${JSON.stringify(tally)}`);
    assert.ok(
      tally.clean > 0 && tally.mergedAdjacent > 0 && tally.refusedOverlap > 0,
      'the histories had merges, touching changes and overlaps',
    );
  });
});
