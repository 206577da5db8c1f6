/**
 * package.json's `contributes.languageModelTools` is generated from the tool definitions (esbuild.mjs). This proves
 * that the committed manifest is exactly what the definitions generate (so it cannot go stale), and that every entry
 * is complete. Generic: it reads both lists, so a tool added later is checked without editing this file.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { ERROR_CODES } from '../../src/core/errors';
import { SETTING_DEFAULTS } from '../../src/core/settings';
import type { JsonSchema } from '../../src/core/catalog/manifest';
import { languageModelTools, TOOL_DEFINITIONS } from '../../src/core/tools';
import { PLUGIN_OPERATIONS } from './schemaInputs';

interface RawTool {
  readonly [key: string]: unknown;
}

interface RawManifest {
  readonly contributes?: {
    readonly languageModelTools?: unknown;
    readonly configuration?: { readonly properties?: Readonly<Record<string, { readonly default?: unknown }>> };
  };
}

/** Read from disk, not through the core's import, so the test sees exactly what VS Code reads. */
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as RawManifest;

function readManifestTools(): RawTool[] {
  const tools = manifest.contributes?.languageModelTools;
  assert.ok(Array.isArray(tools), 'package.json has no contributes.languageModelTools array');
  return tools as RawTool[];
}

const PREFIX = 'agentfs_';
const manifestTools = readManifestTools();

function nonEmptyString(value: unknown, what: string): string {
  assert.equal(typeof value, 'string', `${what} is not a string`);
  assert.ok((value as string).trim().length > 0, `${what} is empty`);
  return value as string;
}

/** Every property at every depth has a description. */
function checkDescriptions(schema: JsonSchema, where: string): void {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    nonEmptyString(property.description, `${where}.${name}.description`);
    checkDescriptions(property, `${where}.${name}`);
    const items = property.items as JsonSchema | undefined;
    if (items && typeof items === 'object') checkDescriptions(items, `${where}.${name}[]`);
  }
}

describe('manifest (package.json contributes.languageModelTools) ↔ code (src/core/tools)', function () {
  it('is exactly what the definitions generate (else run `npm run build` and commit package.json)', function () {
    assert.deepEqual(manifestTools, JSON.parse(JSON.stringify(languageModelTools())));
  });

  it('lists the same operations, each once, as agentfs_<operation>', function () {
    const fromManifest = manifestTools.map((tool) => nonEmptyString(tool.name, 'name'));
    const fromCode = TOOL_DEFINITIONS.map((tool) => PREFIX + tool.name);
    assert.equal(new Set(fromManifest).size, fromManifest.length, `duplicate names in the manifest: ${fromManifest.join(', ')}`);
    assert.equal(new Set(fromCode).size, fromCode.length, 'duplicate names in TOOL_DEFINITIONS');
    assert.deepEqual([...fromManifest].sort(), [...fromCode].sort());
    for (const operation of PLUGIN_OPERATIONS)
      assert.ok(fromManifest.includes(PREFIX + operation), `plugin operation ${operation} missing`);
  });

  for (const tool of manifestTools) {
    const name = typeof tool.name === 'string' ? tool.name : '(unnamed)';
    describe(name, function () {
      const definition = TOOL_DEFINITIONS.find((each) => PREFIX + each.name === name);
      const schema = tool.inputSchema as JsonSchema | undefined;

      it('has toolReferenceName = name, displayName, modelDescription, userDescription, canBeReferencedInPrompt, icon, tags', function () {
        assert.match(name, /^agentfs_[a-z][a-z0-9_]*$/);
        assert.equal(tool.toolReferenceName, name);
        nonEmptyString(tool.displayName, 'displayName');
        const modelDescription = nonEmptyString(tool.modelDescription, 'modelDescription');
        assert.ok(modelDescription.length >= 80, `modelDescription is too short to guide a model: ${modelDescription}`);
        nonEmptyString(tool.userDescription, 'userDescription');
        assert.equal(typeof tool.canBeReferencedInPrompt, 'boolean');
        assert.match(nonEmptyString(tool.icon, 'icon'), /^\$\([a-z0-9-]+\)$/, 'icon must be a codicon reference like $(file)');
        assert.ok(Array.isArray(tool.tags) && tool.tags.length > 0, 'tags');
        for (const tag of tool.tags as unknown[]) nonEmptyString(tag, 'tag');
      });

      it('every error code its modelDescription names is a real code', function () {
        const named = String(tool.modelDescription).match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [];
        for (const code of named)
          assert.ok((ERROR_CODES as readonly string[]).includes(code), `unknown code ${code} in ${name}'s modelDescription`);
      });

      it('inputSchema: an object, additionalProperties false, a description on every property, required ⊆ properties', function () {
        assert.ok(schema && typeof schema === 'object', 'no inputSchema');
        assert.equal(schema.type, 'object');
        assert.equal(schema.additionalProperties, false);
        assert.ok(schema.properties && typeof schema.properties === 'object', 'no properties');
        checkDescriptions(schema, 'inputSchema');
        for (const required of schema.required ?? []) assert.ok(required in schema.properties, `required "${required}" is not a property`);
      });

      it('inputSchema compiles with ajv (strict), and every default satisfies its own property schema', function () {
        assert.ok(schema);
        const ajv = new Ajv({ strict: true, allErrors: true });
        assert.doesNotThrow(() => ajv.compile(schema));
        for (const [property, propertySchema] of Object.entries(schema.properties ?? {})) {
          if (propertySchema.default === undefined) continue;
          const validate = ajv.compile(propertySchema);
          assert.ok(
            validate(propertySchema.default),
            `default of ${property} does not match its schema: ${ajv.errorsText(validate.errors)}`,
          );
        }
      });

      it('its path parameters are properties of its schema holding a path or a list of paths', function () {
        assert.ok(definition, `no definition in TOOL_DEFINITIONS for ${name}`);
        assert.ok(schema);
        for (const parameter of Object.keys(definition.pathParameters)) {
          const property: JsonSchema | undefined = schema.properties?.[parameter];
          assert.ok(property, `path parameter ${parameter} is not in the schema`);
          const type: unknown = property.type === 'array' ? (property.items as JsonSchema | undefined)?.type : property.type;
          assert.equal(type, 'string', `path parameter ${parameter} is not a string or a list of strings`);
        }
      });

      it('a `when` clause hides it for agentFs.readOnly and untrusted workspaces exactly when it changes files', function () {
        assert.ok(definition);
        if (definition.effect === 'read') {
          assert.equal(tool.when, undefined, `read tool ${name} must not be hidden`);
          return;
        }
        const when = nonEmptyString(tool.when, 'when');
        assert.ok(!when.includes('||'), `an "or" could show the tool anyway: ${when}`);
        const terms = when.split('&&').map((term) => term.trim());
        assert.ok(terms.includes('!config.agentFs.readOnly'), `when lacks !config.agentFs.readOnly: ${when}`);
        assert.ok(terms.includes('isWorkspaceTrusted'), `when lacks isWorkspaceTrusted: ${when}`);
      });
    });
  }

  it('plugin operations keep their parameter names', function () {
    const expected: Readonly<Record<string, readonly string[]>> = {
      read_file: ['file_name'],
      write_file: ['file_name', 'content'],
      delete_file: ['file_name'],
      copy_file: ['source_path', 'destination_path', 'overwrite'],
      move_file: ['source_path', 'destination_path', 'overwrite'],
      create_directory: ['directory_name'],
      delete_directory: ['directory_path', 'recursive'],
      copy_directory: ['source_path', 'destination_path', 'overwrite'],
      move_directory: ['source_path', 'destination_path', 'overwrite'],
      list_files: ['path', 'recursive'],
      path_exists: ['path'],
      find_file: ['file_name'],
    };
    for (const [operation, parameters] of Object.entries(expected)) {
      const schema = manifestTools.find((tool) => tool.name === PREFIX + operation)?.inputSchema as JsonSchema | undefined;
      assert.ok(schema, operation);
      // The plugin's parameters must all be there (optional ones may be added), with its defaults.
      for (const parameter of parameters) assert.ok(parameter in (schema.properties ?? {}), `${operation}.${parameter}`);
    }
    const property = (operation: string, parameter: string): JsonSchema | undefined =>
      (manifestTools.find((tool) => tool.name === PREFIX + operation)?.inputSchema as JsonSchema | undefined)?.properties?.[parameter];
    for (const operation of ['copy_file', 'move_file', 'copy_directory', 'move_directory'])
      assert.equal(property(operation, 'overwrite')?.default, false, operation);
    assert.equal(property('delete_directory', 'recursive')?.default, false);
    assert.equal(property('list_files', 'recursive')?.default, true);
  });
});

describe('settings: contributes.configuration ↔ the defaults table (src/core/settings.ts)', function () {
  const declared = manifest.contributes?.configuration?.properties ?? {};

  it('declares exactly the settings the table has', function () {
    assert.deepEqual(Object.keys(declared).sort(), Object.keys(SETTING_DEFAULTS).sort());
  });

  for (const [key, value] of Object.entries(SETTING_DEFAULTS)) {
    it(`${key} defaults to ${JSON.stringify(value)} in both`, function () {
      assert.deepEqual(declared[key]?.default, value);
    });
  }
});

describe('the Agent FS custom agent (contributes.chatAgents) ↔ the definitions', function () {
  const raw = manifest as RawManifest & {
    readonly publisher?: string;
    readonly name?: string;
    readonly contributes?: { readonly chatAgents?: readonly { readonly path?: string }[] };
  };
  const agents = raw.contributes?.chatAgents ?? [];

  /** The front matter's list under `key`: one `  - <item>` line each, up to the next key. */
  function frontMatterList(text: string, key: string): string[] {
    const block = new RegExp(`^---\\n[\\s\\S]*?^${key}:\\n((?:[ \\t]+- .+\\n)+)`, 'm').exec(text);
    assert.ok(block?.[1], `the agent has no ${key}: list in its front matter`);
    return block[1]
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.replace(/^\s+-\s+/, '').trim());
  }

  function agentText(): string {
    assert.equal(agents.length, 1, 'one custom agent');
    return fs.readFileSync(path.join(__dirname, '..', '..', '..', nonEmptyString(agents[0]?.path, 'chatAgents[0].path')), 'utf8');
  }

  it("offers every Agent FS tool, each once, by its qualified name, and of Copilot's only tools that touch no file", function () {
    const listed = frontMatterList(agentText(), 'tools');
    assert.equal(new Set(listed).size, listed.length, `a tool listed twice: ${listed.join(', ')}`);
    const ours = TOOL_DEFINITIONS.map((tool) => `${raw.publisher ?? ''}.${raw.name ?? ''}/${PREFIX}${tool.name}`);
    // A tool missing here is one the agent can never call.
    assert.deepEqual(listed.filter((name) => name.includes('/agentfs_')).sort(), [...ours].sort());
    // The agentfs set, which names the same tools where VS Code lets the extension contribute sets (catalog/agent.ts).
    assert.equal(listed[0], 'agentfs');
    // VS Code 1.139's names (tool set / tool); the agent-mode tests check what the first request really offers.
    assert.deepEqual(
      listed.filter((name) => !name.includes('/agentfs_') && name !== 'agentfs'),
      [...COPILOT_TOOLS_KEPT],
    );
  });

  it('lets a subagent be itself only: a subagent of another agent would have the built-in file tools back', function () {
    const name = /^name: (.+)$/m.exec(agentText())?.[1];
    assert.equal(name, 'Agent FS');
    assert.deepEqual(frontMatterList(agentText(), 'agents'), [name]);
  });
});

/**
 * Copilot's tools the Agent FS agent keeps: everything its default agent offers on VS Code 1.139 except what reads,
 * lists, searches, creates or edits files (read_file, list_dir, file_search, grep_search, view_image, create_file,
 * create_directory, replace_string_in_file, insert_edit_into_file, the notebook editors, new workspaces) and
 * run_vscode_command, which runs any command. Its notebook summary stays: it lists the cell ids run_notebook_cell
 * takes, with kinds and execution, and no text.
 */
const COPILOT_TOOLS_KEPT = [
  'read/problems',
  'execute/runInTerminal',
  'execute/getTerminalOutput',
  'execute/sendToTerminal',
  'execute/killTerminal',
  'read/terminalLastCommand',
  'read/terminalSelection',
  'execute/createAndRunTask',
  'execute/runTask',
  'read/getTaskOutput',
  'execute/runTests',
  'execute/testFailure',
  'read/getNotebookSummary',
  'execute/runNotebookCell',
  'read/readNotebookCellOutput',
  'usages',
  'rename',
  'todo',
  'agent/runSubagent',
  'vscode/askQuestions',
  'vscode/vscodeAPI',
  'vscode/extensions',
  'vscode/installExtension',
  'vscode/memory',
  'vscode/resolveMemoryFileUri',
  'web/githubRepo',
  'web/githubTextSearch',
] as const;
