/**
 * Translations: every string the person reads in VS Code, in every language Agent FS ships. The runtime strings are
 * the literal first arguments of `l10n.t(…)` calls (vscode.l10n.t in src/vscode, the core's Localizer in its
 * prepare texts) and the two forms of `countPhrase(…)`, found here in the sources with TypeScript's parser; each
 * l10n/bundle.l10n.<language>.json must translate exactly those, and each package.nls.<language>.json exactly the keys
 * of package.nls.json. A translation keeps its original's placeholders ({0}), code spans, setting links (#a.b#),
 * command links and icons, and is not the English left in place.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..', '..');
/** VS Code's language ids of the translations Agent FS ships. */
const LANGUAGES = ['zh-cn', 'ja', 'de', 'fr', 'es', 'pt-br'] as const;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * The two places that pass a caller's key on: the core's English Localizer and countPhrase, and the editor's bridge
 * to vscode.l10n.t. Everything else names its key.
 */
const PASS_THROUGH = new Set(['src/core/ports/l10n.ts:one', 'src/core/ports/l10n.ts:other', 'src/vscode/session.ts:message']);

interface Found {
  readonly keys: Set<string>;
  readonly dynamic: string[];
}

/** The keys the sources pass to `….l10n.t(key, …)` and `countPhrase(l10n, n, one, other)`; calls whose key is not a literal. */
function keysInSources(): Found {
  const keys = new Set<string>();
  const dynamic: string[] = [];
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const literal = (node: ts.Node | undefined, where: ts.Node): void => {
      if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) keys.add(node.text);
      else if (node && ts.isIdentifier(node) && PASS_THROUGH.has(`${path.relative(ROOT, file)}:${node.text}`)) return;
      else {
        const { line } = source.getLineAndCharacterOfPosition(where.getStart());
        dynamic.push(`${path.relative(ROOT, file)}:${line + 1}`);
      }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        if (ts.isPropertyAccessExpression(callee) && callee.name.text === 't' && /(^|\.)l10n$/.test(callee.expression.getText(source)))
          literal(node.arguments[0], node);
        else if (ts.isIdentifier(callee) && callee.text === 'countPhrase') {
          literal(node.arguments[2], node);
          literal(node.arguments[3], node);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { keys, dynamic };
}

/** What a translation must carry over from its original, as a sorted list. */
function tokens(text: string): string[] {
  const patterns = [/\{\d+\}/g, /`[^`]+`/g, /#[\w.]+#/g, /\]\([^)]*\)/g, /\$\([\w-]+\)/g];
  return patterns.flatMap((pattern) => text.match(pattern) ?? []).sort();
}

/** Words that are the same in a language as in English (Spanish and Portuguese say "byte" too). */
const SAME_WORDS: Readonly<Record<string, readonly string[]>> = { es: ['1 byte', '{0} bytes'], 'pt-br': ['1 byte', '{0} bytes'] };

/** English left in place: the same text, where the original has words to translate. */
function untranslated(original: string, translation: string): boolean {
  const words = original.replace(/\{\d+\}|`[^`]+`|#[\w.]+#|\$\([\w-]+\)|\([^)]*\)|Agent FS/g, '');
  return translation === original && /[A-Za-z]{3,}/.test(words);
}

function readJson(file: string): Record<string, string> {
  const full = path.join(ROOT, file);
  assert.ok(fs.existsSync(full), `${file} is missing`);
  return JSON.parse(fs.readFileSync(full, 'utf8')) as Record<string, string>;
}

function checkBundle(file: string, originals: ReadonlyMap<string, string>, language: string): void {
  const bundle = readJson(file);
  assert.deepEqual(
    [...originals.keys()].filter((key) => !(key in bundle)),
    [],
    `${file} lacks these keys`,
  );
  assert.deepEqual(
    Object.keys(bundle).filter((key) => !originals.has(key)),
    [],
    `${file} has keys nothing uses`,
  );
  for (const [key, original] of originals) {
    const translation = bundle[key] ?? '';
    assert.ok(translation.trim().length > 0, `${file}: "${key}" is empty`);
    assert.deepEqual(tokens(translation), tokens(original), `${file}: "${key}" keeps the placeholders and code of "${original}"`);
    if (!SAME_WORDS[language]?.includes(original)) assert.ok(!untranslated(original, translation), `${file}: "${key}" is left in English`);
  }
}

/** The manifest as VS Code reads it in `language`: every string that is a whole `%key%` replaced, English the fallback. */
function resolvedManifest(language: string | undefined): { contributes: { languageModelTools: Record<string, unknown>[] } } {
  const english = readJson('package.nls.json');
  const strings = language === undefined ? english : { ...english, ...readJson(`package.nls.${language}.json`) };
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const key = /^%(.+)%$/.exec(value)?.[1];
      return key === undefined ? value : (strings[key] ?? value);
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, resolve(item)]));
    return value;
  };
  return resolve(readJson('package.json')) as { contributes: { languageModelTools: Record<string, unknown>[] } };
}

describe('translations', function () {
  const found = keysInSources();
  const runtime = new Map([...found.keys].map((key) => [key, key]));
  const manifest = new Map(Object.entries(readJson('package.nls.json')));

  it('every l10n.t and countPhrase call passes its key as a literal, so the key can be found', function () {
    assert.deepEqual(found.dynamic, []);
    assert.ok(runtime.size > 50, `only ${runtime.size} keys found in src/`);
  });

  it('package.json names the l10n folder, and the vsix ships it and the manifest translations', function () {
    const packageJson = readJson('package.json') as unknown as { l10n?: string };
    assert.equal(packageJson.l10n, './l10n');
    const ignore = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!l10n\/\*\.json$/m);
    assert.match(ignore, /^!package\.nls\*\.json$/m);
  });

  for (const language of LANGUAGES) {
    it(`${language}: what the model reads of the manifest (names, descriptions, schemas) is the English, byte for byte`, function () {
      const model = (tool: Record<string, unknown>): string =>
        JSON.stringify([tool.name, tool.toolReferenceName, tool.modelDescription, tool.inputSchema, tool.tags, tool.when]);
      const english = resolvedManifest(undefined).contributes.languageModelTools;
      const translated = resolvedManifest(language).contributes.languageModelTools;
      assert.deepEqual(translated.map(model), english.map(model));
      // …while what the person reads of them is translated.
      const shown = (tools: Record<string, unknown>[]): unknown[] => tools.map((tool) => [tool.displayName, tool.userDescription]);
      for (const [index, pair] of shown(translated).entries())
        assert.notDeepEqual(pair, shown(english)[index], `${language}: tool ${index}`);
    });

    it(`${language}: the runtime bundle translates every key, keeping placeholders`, function () {
      checkBundle(`l10n/bundle.l10n.${language}.json`, runtime, language);
    });

    it(`${language}: package.nls.${language}.json translates every manifest string, keeping code and links`, function () {
      checkBundle(`package.nls.${language}.json`, manifest, language);
    });
  }
});
