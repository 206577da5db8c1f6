/**
 * The README's tool and error-code tables are what src/core/readmeTables.ts writes from the definitions: the
 * committed README holds exactly that (`npm run build` rewrites it), every code has its row, and a changed parameter
 * or result field changes the table.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERROR_CODES } from '../../src/core/errors';
import { errorTable, rewriteReadme, toolTable, undocumentedCodes } from '../../src/core/catalog/readmeTables';
import { object, optional, STRING } from '../../src/core/contract/results';
import type { Tool } from '../../src/core/tool';
import { findTool, TOOL_DEFINITIONS } from '../../src/core/tools';

const README = path.join(__dirname, '..', '..', '..', 'README.md');

describe('README tables generated from the definitions', function () {
  it('the committed README holds the tables the definitions generate (npm run build rewrites them)', function () {
    const readme = fs.readFileSync(README, 'utf8');
    assert.equal(rewriteReadme(readme, TOOL_DEFINITIONS), readme, 'README.md is out of date: run npm run build');
  });

  it('every error code has exactly one row; every tool one row, in the definitions order', function () {
    assert.deepEqual(undocumentedCodes(), []);
    const errors = errorTable();
    for (const code of ERROR_CODES) assert.match(errors, new RegExp(`\`${code}\``), code);
    const rows = toolTable(TOOL_DEFINITIONS)
      .split('\n')
      .filter((line) => /^\| `[a-z_]+` \|/.test(line));
    assert.deepEqual(
      rows.map((row) => /^\| `([a-z_]+)`/.exec(row)?.[1]),
      TOOL_DEFINITIONS.map((tool) => tool.name),
    );
  });

  it('parameters show their defaults and caps, results their fields, nested ones and enums, as the definitions say', function () {
    const row = (name: string): string =>
      toolTable(TOOL_DEFINITIONS)
        .split('\n')
        .find((line) => line.startsWith(`| \`${name}\` |`)) ?? assert.fail(name);
    assert.match(row('list_files'), /`max_results` \(default 1000, at most 5000\)/);
    assert.match(row('list_files'), /`path` \(default "\."\)/);
    assert.match(row('apply_patch'), /`patch` \(at most 1 MiB\)/);
    assert.match(row('read_many_files'), /`paths` \(at most 32\)/);
    assert.match(row('insert_lines'), /`position` \(`before` \/ `after` \/ `end`\)/);
    assert.match(row('find_file'), /`matches` \[`file_name`, `relative_path`, `score`\]/);
    assert.match(row('path_exists'), /`path_type` \(`file` \/ `directory` \/ `other` \/ `missing`\)/);
    assert.match(row('read_file'), /`next_start_line`.*`mime_type` \(`image\/png`/);
    assert.match(row('edit_file'), /`edits`\? \[/);
    // The fields every tool that changes files gets are told once, below the table, not in each row.
    assert.doesNotMatch(row('write_file'), /operation_id/);
    assert.match(
      toolTable(TOOL_DEFINITIONS),
      /^Every tool that changes files adds `operation_id`, `undo_available`, `history_warning`\?, `problems`\?/m,
    );
  });

  it("a parameter or result field changed in a tool's definition changes its row", function () {
    const base = findTool('path_exists') ?? assert.fail();
    const changed: Tool = {
      ...base,
      inputSchema: { ...base.inputSchema, properties: { ...base.inputSchema.properties, follow: { type: 'boolean', default: true } } },
      outputSchema: object({ path: STRING, exists: STRING, target: optional(STRING) }),
    };
    const [before, after] = [[base], [changed]].map((tools) => toolTable(tools).split('\n')[2] ?? '');
    assert.doesNotMatch(before ?? '', /follow|target/);
    assert.match(after ?? '', /`follow` \(default true\).*`target`\?/);
  });
});
