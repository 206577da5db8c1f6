/**
 * The `locale` launch: the main extension host with VS Code's display language set, once per language Agent FS
 * ships, and the suite test/integration/locale/ checking what the person and the model each get.
 *
 * code-server takes the language from `--locale`, but resolves one only when a language pack for it is installed:
 * it reads the user data's `languagepacks.json`, which installing a pack writes. The packs are Marketplace
 * extensions, out of reach offline, and what Agent FS shows does not come from them anyway (VS Code resolves an
 * extension's package.nls.<language>.json and its l10n bundle by the language alone). So each launch registers a
 * stub pack for its language — an entry in languagepacks.json pointing at a translations file with no messages, as
 * a pack that translates nothing of VS Code's own UI would — and VS Code runs in that language: vscode.env.language
 * is it, the manifest is read through its package.nls file, and vscode.l10n loads its bundle.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOSTS, type HostSpec } from './hosts';
import { runMarkedSuite } from './markedSuite';
import type { Outcome } from './outcome';

/** VS Code's ids of the languages Agent FS ships (l10n/, package.nls.<language>.json). */
const LOCALES = ['zh-cn', 'ja', 'de', 'fr', 'es', 'pt-br'] as const;

/**
 * The languages a host's launches check: every one on the newest host, Japanese alone on the older. How VS Code finds
 * an extension's translations is the same for every language, and every bundle's keys and placeholders are the unit
 * tests' (test/unit/l10n.test.ts); the older host is there to show the mechanism works on it, which one language
 * does, for a sixth of the launches.
 */
export function localesFor(host: HostSpec): readonly string[] {
  return host.id === HOSTS[HOSTS.length - 1]?.id ? LOCALES : ['ja'];
}

export interface LocaleOptions {
  readonly timeoutMs: number;
  readonly keep: boolean;
  readonly extension: string;
  readonly suite: string;
  readonly grep?: string;
}

/** Registers a stub language pack for `locale` in the launch's user data (see the header). */
export function registerLanguagePack(dir: string, locale: string): void {
  const translations = path.join(dir, 'language-pack', 'main.i18n.json');
  fs.mkdirSync(path.dirname(translations), { recursive: true });
  fs.writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  const packs = {
    [locale]: {
      hash: `agentfs-test-${locale}`,
      extensions: [{ extensionIdentifier: { id: `agentfs-test.language-pack-${locale}` }, version: '0.0.1' }],
      translations: { vscode: translations },
      label: locale,
    },
  };
  // The server reads it from its user data; the server data folder is written too, where its own state lives.
  for (const folder of ['user-data', 'server-data']) {
    const file = path.join(dir, 'state', folder, 'languagepacks.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(packs));
  }
}

export async function runLocaleChecks(host: HostSpec, locale: string, options: LocaleOptions): Promise<Outcome> {
  const label = `it ${host.id} locale ${locale}`;
  const say = (line: string): void => void process.stdout.write(`[${label}] ${line}\n`);
  say(`VS Code ${host.vscodeVersion}, display language ${locale} (a stub language pack)`);
  return runMarkedSuite(
    {
      host,
      label,
      // Trust off: the folder is trusted, as in the main suite.
      trust: false,
      timeoutMs: options.timeoutMs,
      keep: options.keep,
      serverArgs: ['--locale', locale],
      prepare: (dir) => {
        registerLanguagePack(dir, locale);
        const folder = path.join(dir, 'ws', 'project');
        fs.mkdirSync(folder, { recursive: true });
        return {
          target: { folder },
          env: {
            AGENTFS_IT_SCENARIO: 'locale',
            AGENTFS_IT_LOCALE: locale,
            ...(options.grep === undefined ? {} : { AGENTFS_IT_GREP: options.grep }),
          },
        };
      },
      editor: { extensionDevelopmentPath: options.extension, extensionTestsPath: options.suite },
    },
    say,
  );
}
