/**
 * What every integration spec uses: the extension's test API, a tool call through vscode.lm.invokeTool exactly as
 * a chat participant makes it, scratch folders inside the workspace, and settings changes that are undone.
 * Specs check the disk with node:fs: the workspace folders are `file:` URIs on this machine even though the window
 * is a web client (env.remoteName is set there).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope, FailureEnvelope, SuccessEnvelope } from '../../src/core/envelope';
import type { JsonSchema } from '../../src/core/contract/schema';
import type { AgentFsApi } from '../../src/vscode/activate';
import { sampleInput } from '../shared/schemaSamples';
import { writeTree } from '../shared/tree';
import { checkEnvelope } from '../shared/results';

const EXTENSION_ID = 'agent-fs.agent-fs';
export const TOOL_PREFIX = 'agentfs_';

export function extension(): vscode.Extension<AgentFsApi> {
  const found = vscode.extensions.getExtension<AgentFsApi>(EXTENSION_ID);
  assert.ok(found, `extension ${EXTENSION_ID} is not loaded`);
  return found;
}

export async function api(): Promise<AgentFsApi> {
  return extension().activate();
}

/** The manifest's tool contributions, read from the loaded extension (not from the source tree). */
export interface ContributedTool {
  readonly name: string;
  readonly when?: string;
  readonly tags?: readonly string[];
  readonly inputSchema: JsonSchema;
}

export function contributedTools(): readonly ContributedTool[] {
  const manifest = extension().packageJSON as { contributes?: { languageModelTools?: ContributedTool[] } };
  return manifest.contributes?.languageModelTools ?? [];
}

/** The text of a result part. Duck-typed: in 1.100 invokeTool's parts are not instances of the API's classes. */
function textOf(part: unknown): string | undefined {
  return typeof part === 'object' && part !== null && 'value' in part && typeof part.value === 'string' ? part.value : undefined;
}

/** Calls a tool the way a model's call arrives: vscode.lm.invokeTool, with VS Code's own checks in between. */
export async function callTool(operation: string, input: object, token?: vscode.CancellationToken): Promise<Envelope> {
  const result = await vscode.lm.invokeTool(TOOL_PREFIX + operation, { input, toolInvocationToken: undefined }, token);
  assert.equal(result.content.length, 1, 'a tool result holds exactly one part');
  const text = textOf(result.content[0]);
  assert.ok(text !== undefined, 'the part is a text part');
  const envelope = JSON.parse(text) as Envelope;
  assert.equal(envelope.operation, operation, 'operation in the envelope is the bare operation name');
  checkEnvelope(envelope);
  return envelope;
}

export function expectOk(envelope: Envelope): SuccessEnvelope & { data: Record<string, unknown> } {
  checkEnvelope(envelope);
  if (!envelope.ok) assert.fail(`expected ok, got ${envelope.error.code}: ${envelope.error.message}`);
  assert.equal(typeof envelope.data, 'object');
  return envelope as SuccessEnvelope & { data: Record<string, unknown> };
}

export function expectError(envelope: Envelope, code: string): FailureEnvelope {
  checkEnvelope(envelope);
  if (envelope.ok) assert.fail(`expected ${code}, got ok: ${JSON.stringify(envelope.data)}`);
  assert.equal(envelope.error.code, code, envelope.error.message);
  assert.ok(envelope.error.message.length > 0, 'an error carries a message');
  return envelope;
}

/** Asserts the listed fields of `data` (tools may gain fields; the ones listed must stay as they are). */
export function expectFields(data: Record<string, unknown>, expected: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(data[key], value, `data.${key}`);
}

export function folders(): readonly vscode.WorkspaceFolder[] {
  return vscode.workspace.workspaceFolders ?? [];
}

/** The first workspace folder on disk: the base directory when no setting narrows it. */
export function workspaceRoot(): string {
  const first = folders()[0];
  assert.ok(first, 'a folder is open');
  return first.uri.fsPath;
}

let scratchCounter = 0;

/**
 * A fresh folder inside the workspace for one test, as the path a model would pass (`rel`) and on disk (`abs`).
 * Its files are given as { 'a/b.txt': 'content' }; a key ending in '/' is an empty directory.
 */
export function scratch(
  label: string,
  files: Readonly<Record<string, string>> = {},
): { rel: (p?: string) => string; abs: (p?: string) => string } {
  const name = `${label.replace(/[^A-Za-z0-9_-]+/g, '-')}-${++scratchCounter}`;
  const root = path.join(workspaceRoot(), 'scratch', name);
  fs.mkdirSync(root, { recursive: true });
  writeTree(root, files);
  return {
    rel: (p = '') => (p === '' ? `scratch/${name}` : `scratch/${name}/${p}`),
    abs: (p = '') => (p === '' ? root : path.join(root, p)),
  };
}

export function readText(file: string): string {
  return fs.readFileSync(file, 'utf8');
}

export function exists(file: string): boolean {
  return fs.existsSync(file);
}

/**
 * Every file under a directory as text, directories as 'dir/': a snapshot to compare before and after a refused
 * call. Its `ignore` names top-level entries to leave out (`.vscode`, where a settings change lands).
 */
export { textTree as snapshot } from '../shared/tree';

/**
 * Turns auto save off for the suite it is called in: the web workbench saves edits after a delay by default, which
 * would clear a document's unsaved state mid-test.
 */
export function withoutAutoSave(): void {
  let autoSave: string | undefined;
  before(async () => {
    autoSave = vscode.workspace.getConfiguration('files').inspect<string>('autoSave')?.globalValue;
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('files').update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
  });
}

/**
 * Sets an agentFs setting for the duration of `body`, then restores it. Workspace settings by default, since the
 * extension lets a workspace tighten (readOnly, baseDirectory) but only the user loosen.
 */
export async function withSetting<T>(
  key: string,
  value: unknown,
  body: () => Promise<T>,
  target: vscode.ConfigurationTarget = vscode.ConfigurationTarget.Workspace,
): Promise<T> {
  const configuration = vscode.workspace.getConfiguration('agentFs');
  await configuration.update(key, value, target);
  try {
    return await body();
  } finally {
    await vscode.workspace.getConfiguration('agentFs').update(key, undefined, target);
  }
}

/**
 * An input with only the required properties, each a sample of its type that passes validation (used where the call
 * must be refused before any I/O). Path parameters name a file no spec creates.
 */
export function minimalInput(schema: JsonSchema): Record<string, unknown> {
  const input = sampleInput(schema, 'agentfs-probe.txt');
  assert.ok(input, 'a sample input for the schema');
  return input;
}

/** Tools whose `when` clause hides them in an untrusted or read-only workspace: the ones that change files. */
export function mutatingTools(): readonly ContributedTool[] {
  return contributedTools().filter((tool) => tool.when?.includes('isWorkspaceTrusted') === true);
}

/**
 * Polls `check` until it holds (context keys and settings reach the extension host asynchronously); fails, naming
 * `what`, only past `timeoutMs`, a bound for a hang that a busy machine never comes near (the suite's own is 30 s).
 */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 25_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * VS Code 1.100's web workbench never hands its tool list to the extension host: vscode.lm.tools stays empty there,
 * VS Code's own tools included, while invokeTool works. Checks of the listing run where the list is filled.
 */
export function toolListingWorks(): boolean {
  return vscode.lm.tools.length > 0 || !vscode.version.startsWith('1.100.');
}
