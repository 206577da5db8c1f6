/**
 * Every reply with default arguments stays under 32 KB, on a workspace large enough that the old defaults did not
 * (3,000 files on realistic nested paths, a 1 MB log, 32 files of 8 KB), and a cut reply's `next_offset` leads to
 * exactly the rest, in the same order: following it page by page gives the whole listing, each entry once.
 */
import * as assert from 'node:assert/strict';
import type { Session } from '../../src/core/invoke';
import { createNodeSession } from '../../src/node/host/session';
import { call, expectOk, makeTempDir, removeTree, tempWorkspace, type TempWorkspace } from './helpers';

const BUDGET = 32 * 1024;
const WORDS = ['account', 'billing', 'catalog', 'dashboard', 'inventory', 'notifications', 'payments', 'reporting', 'search', 'settings'];

function fixture(ws: TempWorkspace): void {
  const files: Record<string, string> = {};
  for (let index = 0; index < 3000; index++) {
    const a = WORDS[index % WORDS.length] ?? 'x';
    const b = WORDS[Math.floor(index / WORDS.length) % WORDS.length] ?? 'x';
    files[`packages/${a}/src/components/${b}/${a}-${b}-${String(index).padStart(4, '0')}.service.ts`] =
      `export const value${index} = ${index};\n`;
  }
  for (let index = 0; index < 32; index++) files[`docs/chapter-${index}.md`] = `${'A line of prose, "quoted", in chapter.\n'.repeat(200)}`;
  // Source files as a project holds them: nested paths, quotes to escape, longer than a 32-way share of the budget.
  for (let index = 0; index < 32; index++) {
    files[`apps/server/src/domain/orders/infra/adapters/handlers/order-payment-repository-handler-${String(index).padStart(2, '0')}.ts`] = [
      "import { OrderRepository } from '../../infra/repositories/order-repository';",
      "import type { Request, Response } from '../../http/types';",
      '',
      `export async function handle${index}(request: Request, repository: OrderRepository): Promise<Response> {`,
      "  const order = await repository.find(request.params['id']);",
      "  if (!order) return { status: 404, body: { error: 'not found' } };",
      '  return { status: 200, body: order };',
      '}',
      '',
    ]
      .join('\n')
      .repeat(4);
  }
  files['logs/app.log'] = Array.from({ length: 20000 }, (_, index) => `2026-12-01T10:00:00Z INFO request ${index} served in 12 ms\n`).join(
    '',
  );
  ws.write(files);
}

async function replyBytes(session: Session, operation: string, input: Record<string, unknown>): Promise<number> {
  const envelope = await call(session, operation, input);
  expectOk(envelope, operation);
  return Buffer.byteLength(JSON.stringify(envelope));
}

/** Follows next_offset from the first page; returns the entries of every page, in order. */
async function allPages(
  session: Session,
  operation: string,
  input: Record<string, unknown>,
  entries: (data: Record<string, unknown>) => readonly unknown[],
): Promise<unknown[]> {
  const collected: unknown[] = [];
  let offset: number | undefined = 0;
  for (let pages = 0; offset !== undefined; pages++) {
    assert.ok(pages < 100, 'more than 100 pages');
    const data = expectOk(await call(session, operation, { ...input, offset }));
    collected.push(...entries(data));
    assert.equal(data.truncated, data.next_offset !== undefined, 'truncated exactly when there is a next_offset');
    offset = data.next_offset as number | undefined;
  }
  return collected;
}

/** The fixture workspace for the tests of one describe block, made before them and removed after. */
function withFixture(): { readonly session: Session } {
  let ws: TempWorkspace | undefined;
  before(function () {
    ws = tempWorkspace();
    fixture(ws);
  });
  after(function () {
    ws?.cleanup();
  });
  return {
    get session(): Session {
      if (!ws) throw new Error('the fixture is made in before()');
      return ws.session;
    },
  };
}

describe('replies with default arguments', function () {
  const ws = withFixture();

  const defaults: readonly [string, Record<string, unknown>][] = [
    ['read_file', { file_name: 'logs/app.log' }],
    ['read_many_files', { paths: Array.from({ length: 32 }, (_, index) => `docs/chapter-${index}.md`) }],
    [
      'read_many_files',
      {
        paths: Array.from(
          { length: 32 },
          (_, index) =>
            `apps/server/src/domain/orders/infra/adapters/handlers/order-payment-repository-handler-${String(index).padStart(2, '0')}.ts`,
        ),
      },
    ],
    ['list_files', {}],
    ['list_directory', {}],
    ['list_directory', { recursive: true }],
    ['directory_tree', {}],
    ['directory_tree', { max_depth: 10 }],
    ['search_files', { pattern: '**/*.ts' }],
    ['find_file', { file_name: 'service' }],
    ['search_content', { query: 'export' }],
    ['file_info', { path: 'logs/app.log' }],
    ['workspace_info', {}],
  ];
  for (const [operation, input] of defaults) {
    it(`${operation} ${JSON.stringify(input).slice(0, 60)}: at most ${BUDGET} bytes`, async function () {
      const bytes = await replyBytes(ws.session, operation, input);
      assert.ok(bytes <= BUDGET, `${operation} replied ${bytes} bytes`);
    });
  }

  it('the workspace is large enough that the old defaults did not fit', async function () {
    assert.ok((await replyBytes(ws.session, 'list_files', { max_results: 1000 })) > BUDGET);
    assert.ok((await replyBytes(ws.session, 'read_file', { file_name: 'logs/app.log', max_bytes: 256 * 1024 })) > BUDGET);
  });
});

describe('next_offset: exactly the rest, in the same order', function () {
  const ws = withFixture();

  it('list_files: the pages make up the whole sorted list, as one call with a large max_results gives it', async function () {
    const whole = expectOk(await call(ws.session, 'list_files', { max_results: 5000 }));
    const paged = await allPages(ws.session, 'list_files', {}, (data) => data.files as string[]);
    assert.equal(paged.length, whole.total);
    assert.deepEqual(paged, whole.files);
  });

  it('list_directory: recursive pages, by default size and by max_entries, give the same entries once each', async function () {
    const byDefault = await allPages(ws.session, 'list_directory', { recursive: true }, (data) =>
      (data.entries as { relative_path: string }[]).map((entry) => entry.relative_path),
    );
    const bySize = await allPages(ws.session, 'list_directory', { recursive: true, max_entries: 1000 }, (data) =>
      (data.entries as { relative_path: string }[]).map((entry) => entry.relative_path),
    );
    const { total } = expectOk(await call(ws.session, 'list_directory', { recursive: true }));
    assert.equal(byDefault.length, total);
    assert.equal(new Set(byDefault).size, byDefault.length);
    assert.deepEqual(byDefault, bySize);
  });

  it('search_files and find_file: pages of the default size give what the largest pages give', async function () {
    const small = await allPages(ws.session, 'search_files', { pattern: '**/billing-*.ts' }, (data) => data.matches as unknown[]);
    const large = await allPages(
      ws.session,
      'search_files',
      { pattern: '**/billing-*.ts', max_results: 200 },
      (data) => data.matches as unknown[],
    );
    assert.equal(small.length, 300);
    assert.deepEqual(small, large);
    const found = await allPages(ws.session, 'find_file', { file_name: 'catalog service' }, (data) => data.matches as unknown[]);
    const foundLarge = await allPages(
      ws.session,
      'find_file',
      { file_name: 'catalog service', max_results: 200 },
      (data) => data.matches as unknown[],
    );
    const first = expectOk(await call(ws.session, 'find_file', { file_name: 'catalog service' }));
    assert.equal(found.length, first.total);
    assert.deepEqual(found, foundLarge);
  });

  it('directory_tree: the pages draw the lines of the whole tree, in order', async function () {
    const lines = await allPages(ws.session, 'directory_tree', { max_depth: 10 }, (data) =>
      String(data.tree)
        .split('\n')
        .slice(1)
        .filter((line) => !line.startsWith('… ')),
    );
    const first = expectOk(await call(ws.session, 'directory_tree', { max_depth: 10 }));
    assert.equal(lines.length, Number(first.directories) + Number(first.files));
    assert.ok(String(lines[lines.length - 1]).includes('└── '));
  });

  it('an offset past the end gives an empty page, not an error', async function () {
    const data = expectOk(await call(ws.session, 'list_files', { offset: 999999 }));
    assertEmpty(data.files);
    assert.equal(data.truncated, false);
  });
});

function assertEmpty(value: unknown): void {
  assert.deepEqual(value, []);
}

describe('history_list: offset / next_offset', function () {
  it('pages through the recorded operations, newest first, as one call lists them', async function () {
    const ws = tempWorkspace();
    const state = makeTempDir('agentfs-history-pages-');
    try {
      const session = createNodeSession(ws.base, {}, { stateDirectory: state });
      for (const name of ['a.txt', 'b.txt', 'c.txt']) expectOk(await call(session, 'write_file', { file_name: name, content: name }));
      const whole = expectOk(await call(session, 'history_list', {}));
      const first = expectOk(await call(session, 'history_list', { limit: 2 }));
      assert.equal(first.truncated, true);
      assert.equal(first.next_offset, 2);
      const rest = expectOk(await call(session, 'history_list', { limit: 2, offset: 2 }));
      assert.equal(rest.truncated, false);
      assert.equal('next_offset' in rest, false);
      const ids = (data: Record<string, unknown>): unknown[] =>
        (data.operations as { operation_id: unknown }[]).map((operation) => operation.operation_id);
      assert.deepEqual([...ids(first), ...ids(rest)], ids(whole));
      assert.equal(ids(whole).length, 3);
    } finally {
      ws.cleanup();
      removeTree(state);
    }
  });
});
