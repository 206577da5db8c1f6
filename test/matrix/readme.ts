/**
 * The documented setup for each tested client, read from docs/clients.md itself (the README links there), so the
 * matrix runs exactly what a person copies: the fenced blocks of the client's paragraph ("**Claude Code** (*tested*:
 * 2.1.332) …" up to the next client), with the example path of dist/mcp.js replaced by the built one.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../launcher/hosts';

const EXAMPLE_SERVER = '/path/to/agent-fs/dist/mcp.js';

export interface ReadmeSetup {
  /** The version docs/clients.md says it tested. */
  readonly version: string;
  /** The fenced blocks of the client's section by their language (sh, json, toml), the server path filled in. */
  readonly blocks: readonly { readonly language: string; readonly text: string }[];
}

export function readmeSetup(clientName: string, server: string): ReadmeSetup {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'clients.md'), 'utf8');
  const start = readme.indexOf(`**${clientName}** (*tested*: `);
  assert.ok(start >= 0, `docs/clients.md has no tested section for ${clientName}`);
  const rest = readme.slice(start);
  const end = rest.slice(2).search(/\n\*\*[A-Za-z]|\n#/);
  const section = end < 0 ? rest : rest.slice(0, end + 2);
  const version = /\(\*tested\*: ([0-9.]+)/.exec(section)?.[1];
  assert.ok(version !== undefined, `docs/clients.md names no tested version for ${clientName}`);
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((match) => ({
    language: match[1] ?? '',
    text: (match[2] ?? '').split(EXAMPLE_SERVER).join(server),
  }));
  return { version, blocks };
}

/** The one block of `language` in the client's section. */
export function readmeBlock(clientName: string, language: string, server: string): string {
  const found = readmeSetup(clientName, server).blocks.filter((block) => block.language === language);
  assert.equal(found.length, 1, `docs/clients.md's ${clientName} section has one ${language} block`);
  return found[0]?.text ?? '';
}
