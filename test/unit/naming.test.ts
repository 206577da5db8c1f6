/**
 * Tools name each other, in descriptions and in messages, only through naming.ts (`toolRef`), and each host renders
 * the names its own way (`agentfs_x` in the editor, `x` over MCP and in the runner) with the facts it keeps (a trash,
 * a confirmation). These tests fail on a reference to a tool a host does not list, on a marker left unrendered, and
 * on a tool name written by hand anywhere in a description or in the text of the sources' strings.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { invokeOperation, prepareOperation } from '../../src/core/invoke';
import { definitionBytes } from '../../src/core/catalog/manifest';
import { EDITOR_NAMING, hasMarkers, type HostNaming, mcpNaming, referencedTools, renderText, RUNNER_NAMING } from '../../src/core/naming';
import { languageModelTools, TOOL_DEFINITIONS } from '../../src/core/tools';
import { mcpTool, serverNaming } from '../../src/node/mcp/server';
import { createNodeSession } from '../../src/node/host/session';
import { expectError, expectOk, tempWorkspace } from './helpers';

const REPO = path.join(__dirname, '..', '..', '..');
const OPERATIONS: readonly string[] = TOOL_DEFINITIONS.map((tool) => tool.name);
const READ_TOOLS = TOOL_DEFINITIONS.filter((tool) => tool.effect === 'read').map((tool) => tool.name);

/** Each host with the tools it lists: a read-only MCP server or editor lists the read tools only. */
const HOSTS: readonly { readonly name: string; readonly naming: HostNaming; readonly tools: readonly string[] }[] = [
  { name: 'the editor', naming: EDITOR_NAMING, tools: OPERATIONS },
  { name: 'the editor, read-only', naming: EDITOR_NAMING, tools: READ_TOOLS },
  { name: 'the MCP server', naming: mcpNaming(true), tools: OPERATIONS },
  { name: 'the MCP server, --confirm never', naming: mcpNaming(false), tools: OPERATIONS },
  { name: 'the MCP server, --read-only', naming: mcpNaming(true), tools: READ_TOOLS },
  { name: 'the runner', naming: RUNNER_NAMING, tools: OPERATIONS },
];

/** `agentfs_<operation>` or a bare operation name as a word: a tool name someone wrote by hand. */
const HAND_WRITTEN = new RegExp(`\\bagentfs_[a-z_]+|(?<![\\w./-])(?:${OPERATIONS.join('|')})(?![\\w/-])`);

/** Every description text of a tool: its model and user descriptions and each parameter's description. */
function descriptionsOf(tool: (typeof TOOL_DEFINITIONS)[number]): string[] {
  const parameters = Object.values(tool.inputSchema.properties).map((schema) => String(schema.description ?? ''));
  const advice = Object.values(tool.caps).map((cap) => cap.advice);
  return [tool.modelDescription, tool.userDescription, ...parameters, ...advice];
}

/** The text of every string and template literal in a source file (the parts between substitutions), with its line. */
function stringsIn(file: string): { text: string; line: number; call?: string }[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { text: string; line: number; call?: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
      const parent = node.parent;
      const call = ts.isCallExpression(parent) ? parent.expression.getText(source) : undefined;
      // Module specifiers are paths, not text.
      if (!ts.isImportDeclaration(parent) && !ts.isExportDeclaration(parent))
        found.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, call });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('tool names in descriptions and messages', function () {
  it('no description names a tool by hand, and none of the schemas or user descriptions holds a marker', function () {
    for (const tool of TOOL_DEFINITIONS) {
      for (const text of descriptionsOf(tool)) {
        const plain = text.replace(/\uE000[a-z_]+\uE001/g, '').replace(/\uE002[a-z]+:[^\uE001]*\uE001/g, '');
        assert.doesNotMatch(plain, HAND_WRITTEN, `${tool.name}: "${text}" names a tool without toolRef`);
      }
      assert.equal(hasMarkers(JSON.stringify(tool.inputSchema)), false, `${tool.name}'s schema: rendered by no host`);
      assert.equal(hasMarkers(tool.userDescription), false, `${tool.name}'s userDescription: shown by pickers as written`);
    }
  });

  for (const host of HOSTS) {
    it(`${host.name}: every tool a description refers to is one it lists, and the names come out as it calls them`, function () {
      for (const operation of host.tools) {
        const tool = TOOL_DEFINITIONS.find((each) => each.name === operation) ?? assert.fail(operation);
        for (const text of descriptionsOf(tool)) {
          for (const referenced of referencedTools(text))
            assert.ok(host.tools.includes(referenced), `${operation} refers to ${referenced}, which ${host.name} does not list`);
          const rendered = renderText(text, host.naming);
          assert.equal(hasMarkers(rendered), false, rendered);
          for (const referenced of referencedTools(text)) assert.ok(rendered.includes(host.naming.toolName(referenced)), rendered);
        }
      }
    });
  }

  it('host facts: deletes go to the trash in the editor only; confirmation is promised only where the host asks', function () {
    const deleteFile = TOOL_DEFINITIONS.find((tool) => tool.name === 'delete_file') ?? assert.fail();
    assert.match(renderText(deleteFile.modelDescription, EDITOR_NAMING), /trash/);
    assert.match(renderText(deleteFile.modelDescription, EDITOR_NAMING), /agentfs_delete_directory/);
    for (const naming of [mcpNaming(true), RUNNER_NAMING]) assert.doesNotMatch(renderText(deleteFile.modelDescription, naming), /trash/);
    assert.match(renderText(deleteFile.modelDescription, mcpNaming(true)), /confirm/);
    assert.doesNotMatch(renderText(deleteFile.modelDescription, RUNNER_NAMING), /confirm/);
    assert.doesNotMatch(renderText(deleteFile.modelDescription, serverNaming('never')), /confirm/);
  });

  it('no MCP or runner definition names a VS Code setting: there, only the flags exist', function () {
    // A setting is `agentFs.x`, or one of VS Code's own (`files.exclude`, `search.useIgnoreFiles`, `chat.tools...`).
    const setting = /\b(?:agentFs|files|search|chat|editor|workbench)\.[a-zA-Z]+/;
    for (const tool of TOOL_DEFINITIONS) {
      for (const naming of [mcpNaming(true), mcpNaming(false), RUNNER_NAMING]) {
        const listed = mcpTool(tool, naming);
        const text = JSON.stringify({ description: listed.description, input: listed.inputSchema });
        assert.doesNotMatch(text, setting, `${tool.name} tells a model outside the editor of a setting it cannot set`);
      }
    }
  });

  it('the manifest, the definition budget and the MCP tool list render with their host naming', function () {
    for (const [index, entry] of languageModelTools().entries()) {
      const tool = TOOL_DEFINITIONS[index] ?? assert.fail();
      assert.equal(entry.modelDescription, renderText(tool.modelDescription, EDITOR_NAMING));
      assert.equal(hasMarkers(JSON.stringify(entry)), false, entry.name);
      const listed = mcpTool(tool, mcpNaming(true));
      assert.equal(listed.name, tool.name);
      assert.equal(listed.description, renderText(tool.modelDescription, mcpNaming(true)));
      assert.ok(definitionBytes(tool) >= definitionBytes(tool, mcpNaming(true)), tool.name);
    }
  });

  it('no string in the sources names a tool by hand, and every toolRef names a tool', function () {
    const offenders: string[] = [];
    for (const file of sourceFiles(path.join(REPO, 'src'))) {
      const relative = path.relative(REPO, file);
      for (const { text, line, call } of stringsIn(file)) {
        if (call === 'toolRef') {
          if (!OPERATIONS.includes(text)) offenders.push(`${relative}:${line}: toolRef('${text}') names no tool`);
          continue;
        }
        // Prose only: an identifier-like string ('read_file' as a key or a name) is code, not text a reader sees.
        if (/\s/.test(text) && HAND_WRITTEN.test(text)) offenders.push(`${relative}:${line}: ${JSON.stringify(text.slice(0, 120))}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('messages come out in the host names: the envelope, a read_many_files entry, a refusal shown before the call', async function () {
    const ws = tempWorkspace();
    try {
      const editor = { ...ws.session, naming: EDITOR_NAMING };
      const runner = createNodeSession(ws.base, {}, { locks: false, ripgrep: false });
      const missing = { file_name: 'nope.txt' };
      assert.match(expectError(await invokeOperation('read_file', missing, editor), 'FILE_NOT_FOUND').message, /agentfs_find_file/);
      const bare = expectError(await invokeOperation('read_file', missing, runner), 'FILE_NOT_FOUND').message;
      assert.match(bare, /\bfind_file\b/);
      assert.doesNotMatch(bare, /agentfs_|[\uE000-\uE002]/);
      const entries = expectOk(await invokeOperation('read_many_files', { paths: ['nope.txt'] }, editor)) as {
        files: { error: { message: string } }[];
      };
      assert.match(entries.files[0]?.error.message ?? '', /agentfs_find_file/);
      const prepared = await prepareOperation('read_file', missing, editor);
      assert.match(prepared.refusal?.message ?? '', /agentfs_find_file/);
    } finally {
      ws.cleanup();
    }
  });
});
