/**
 * The person's language, for what a host shows the person before and while a call runs: the invocation message and
 * the confirmation (`prepare`). The editor supplies VS Code's own translation (`vscode.l10n.t`, its bundles in
 * l10n/); every other host, and everything a model reads — error messages, results, descriptions — stays English.
 *
 * `message` is the English text with `{0}`, `{1}` … where `args` go, and doubles as the key of its translations, as
 * `vscode.l10n.t` takes it: every call passes it as a string literal, so test/unit/l10n.test.ts finds every key in
 * the sources and holds every bundle to them.
 */
type L10nArgument = string | number;

export interface Localizer {
  t(message: string, ...args: L10nArgument[]): string;
}

/** `message` with `{n}` replaced by `args[n]` (a placeholder with no argument stays as written). */
function formatMessage(message: string, args: readonly L10nArgument[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });
}

/** English: the message itself, formatted. The runner's and the MCP server's. */
export const ENGLISH: Localizer = { t: (message, ...args) => formatMessage(message, args) };

/**
 * A count in words: `one` for 1, `other` (with `{0}` for the count) for any other number, both keys as literals.
 * Two forms serve every language Agent FS ships (test/unit/l10n.test.ts holds the keys of both).
 */
export function countPhrase(l10n: Localizer, count: number, one: string, other: string): string {
  return count === 1 ? l10n.t(one) : l10n.t(other, count);
}
