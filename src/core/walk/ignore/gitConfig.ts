/**
 * The two settings of git's config files that decide what git ignores — `core.excludesFile` and `core.ignoreCase` —
 * read from the files' text as git reads them: sections and names without regard to case, `[section "sub"]` and
 * the older `[section.sub]`, values trimmed, quoted, escaped and continued over lines, `#` and `;` comments, a name
 * alone meaning true, and `[include] path = …` read in place. `[includeIf …]` is not followed: its conditions
 * (the repository's folder, its branch, its remotes) are git's to evaluate.
 */

/** One `name = value` of a config file; `value` is null for a name written alone (git's "true"). */
export interface ConfigEntry {
  /** "section.name" or "section.subsection.name", the section and name in lower case. */
  readonly key: string;
  readonly value: string | null;
}

/** The entries of one config file's text, in order. A line git would reject ends the reading, as git stops there. */
export function configEntries(text: string): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  let section: string | undefined;
  let index = 0;
  const at = (): string => text[index] ?? '';
  const skipSpaces = (): void => {
    while (at() === ' ' || at() === '\t') index++;
  };
  const skipLine = (): void => {
    while (index < text.length && at() !== '\n') index++;
    index++;
  };
  while (index < text.length) {
    skipSpaces();
    const char = at();
    if (char === '\n' || char === '\r') {
      index++;
    } else if (char === '#' || char === ';') {
      skipLine();
    } else if (char === '[') {
      const header = readHeader(text, index + 1);
      if (!header) return entries;
      section = header.section;
      index = header.next;
    } else if (/[A-Za-z]/.test(char)) {
      if (section === undefined) return entries;
      const start = index;
      while (/[A-Za-z0-9-]/.test(at())) index++;
      const name = text.slice(start, index).toLowerCase();
      skipSpaces();
      if (at() === '=') {
        const value = readValue(text, index + 1);
        if (!value) return entries;
        entries.push({ key: `${section}.${name}`, value: value.value });
        index = value.next;
      } else if (at() === '\n' || at() === '\r' || at() === '' || at() === '#' || at() === ';') {
        entries.push({ key: `${section}.${name}`, value: null });
        skipLine();
      } else return entries;
    } else return entries;
  }
  return entries;
}

/** `[section]`, `[section "sub"]` or `[section.sub]` from just after its '['; the section key and where it ends. */
function readHeader(text: string, start: number): { section: string; next: number } | undefined {
  let index = start;
  while (/[A-Za-z0-9.-]/.test(text[index] ?? '')) index++;
  const name = text.slice(start, index);
  if (name === '') return undefined;
  if (text[index] === ']') return { section: name.toLowerCase(), next: index + 1 };
  if (text[index] !== ' ' && text[index] !== '\t') return undefined;
  while (text[index] === ' ' || text[index] === '\t') index++;
  if (text[index] !== '"') return undefined;
  let sub = '';
  for (index++; index < text.length && text[index] !== '"'; index++) {
    if (text[index] === '\n') return undefined;
    if (text[index] === '\\') index++;
    sub += text[index] ?? '';
  }
  if (text[index + 1] !== ']') return undefined;
  return { section: `${name.toLowerCase()}.${sub}`, next: index + 2 };
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', n: '\n', t: '\t', b: '\b' };

/** A value from just after its '=' to the end of its line: quotes, escapes, continued lines, comments, trimming. */
function readValue(text: string, start: number): { value: string; next: number } | undefined {
  let value = '';
  // Whitespace is kept only between non-blank parts: `pending` holds it until something follows.
  let pending = '';
  let quoted = false;
  let index = start;
  for (; index < text.length; index++) {
    const char = text[index] ?? '';
    if (char === '\n') {
      if (quoted) return undefined;
      return { value, next: index + 1 };
    }
    if (!quoted && (char === ' ' || char === '\t' || char === '\r')) {
      if (value !== '') pending += char === '\r' ? '' : char;
      continue;
    }
    if (!quoted && (char === '#' || char === ';')) {
      while (index < text.length && text[index] !== '\n') index++;
      return { value, next: index + 1 };
    }
    value += pending;
    pending = '';
    if (char === '"') {
      quoted = !quoted;
    } else if (char === '\\') {
      const next = text[++index] ?? '';
      if (next === '\n') continue;
      if (next === '\r' && text[index + 1] === '\n') {
        index++;
        continue;
      }
      const escaped = ESCAPES[next];
      if (escaped === undefined) return undefined;
      value += escaped;
    } else value += char;
  }
  return quoted ? undefined : { value, next: index };
}

/** git's reading of a boolean: a name alone, true, yes, on or a non-zero number is true. */
export function configBoolean(value: string | null): boolean | undefined {
  if (value === null) return true;
  const word = value.toLowerCase();
  if (['true', 'yes', 'on'].includes(word)) return true;
  if (['false', 'no', 'off', ''].includes(word)) return false;
  return /^-?\d+$/.test(word) ? Number(word) !== 0 : undefined;
}
