/**
 * replace_in_files' query and replacement, compiled once: JavaScript's regular expressions (a literal is escaped
 * into one), JavaScript's replacement patterns ($1, $<name>, $$, $&), and what the content index may narrow by.
 *
 * A match never spans a line ending unless the pattern asks for one: the pattern is run over each line without its
 * terminator (so `^` and `$` are the line's ends, as in search_content), except when it names a line feed or a
 * carriage return itself (`\n`, `\r`, `[\r\n]`, `\x0A`, a literal query holding a line break), when it runs over the
 * whole text with the `m` flag. A literal's line breaks match either ending (`\r?\n`), and line breaks the
 * replacement writes take the ending of the line they land in, so a CRLF file stays CRLF.
 *
 * A pattern that can match the empty string is refused: it would put the replacement between characters (`a*`
 * replaces nothing with something at every position), which no rename means. The test is on the syntax tree, so it
 * holds for every text: each match consumes at least one character.
 */
import { type AST, RegExpParser } from '@eslint-community/regexpp';
import { ToolError } from '../errors';
import type { GramPlan } from '../ports/contentIndex';
import { gramPlan } from '../search/grams';

/** Characters a whole word may not touch: ASCII letters, digits and `_`, as `\w` and `\b` mean them. */
const WORD = 'A-Za-z0-9_';

export interface ReplaceQuery {
  readonly query: string;
  readonly replacement: string;
  readonly is_regex: boolean;
  readonly case_sensitive: boolean;
  readonly whole_word: boolean;
}

export interface ReplacePattern {
  /** Global (and, spanning lines, multiline): run over one line, or over the whole text. */
  readonly regex: RegExp;
  /** Whether the pattern asks for line endings, so it runs over the whole text. */
  readonly spansLines: boolean;
  /** The replacement as `String.prototype.replace` takes it. */
  readonly replacement: string;
  /** Whether the replacement writes a line break (which then takes the line's own ending). */
  readonly writesLineBreaks: boolean;
  /** What every match contains, as the content index can check it; undefined: it cannot narrow. */
  readonly plan: GramPlan | undefined;
  /**
   * Whether a whole text may hold a match at all: never false when it does. A cheap test before a text is split into
   * lines; undefined where no sound one is known.
   */
  readonly mayMatch?: (text: string) => boolean;
}

function escapeRegExp(text: string): string {
  // Only the syntax characters: under the 'u' flag escaping anything else (such as '-') is itself an error.
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

function invalid(message: string): ToolError {
  return new ToolError('INVALID_PATTERN', message, { field: 'query' });
}

/** The parsed pattern with the flags it compiles with (the `u` flag where it allows, as search_content). */
function parse(source: string, flags: string): { regex: RegExp; tree: AST.Pattern } {
  for (const unicode of [true, false]) {
    let regex: RegExp;
    try {
      regex = new RegExp(source, `${flags}${unicode ? 'u' : ''}`);
    } catch (error) {
      if (unicode) continue;
      throw invalid(
        `The query is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}. Fix it, or pass is_regex: false to replace the text literally.`,
      );
    }
    const tree = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, { unicode });
    return { regex, tree };
  }
  throw new Error('unreachable: a pattern that compiles without the u flag parses without it');
}

/** Whether a part of a pattern can match without consuming a character. */
function canBeEmpty(node: AST.Node): boolean {
  switch (node.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return node.alternatives.some((alternative) => alternative.elements.every(canBeEmpty));
    case 'Quantifier':
      return node.min === 0 || canBeEmpty(node.element);
    // Zero-width by definition; a back-reference matches nothing when its group took part in no match.
    case 'Assertion':
    case 'Backreference':
      return true;
    default:
      return false;
  }
}

/** Whether a pattern names a line feed or a carriage return anywhere (a character, a class member, a range). */
function namesLineBreak(node: AST.Node): boolean {
  switch (node.type) {
    case 'Character':
      return node.value === 0x0a || node.value === 0x0d;
    case 'CharacterClassRange':
      return node.min.value <= 0x0d && node.max.value >= 0x0a;
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return node.alternatives.some((alternative) => alternative.elements.some(namesLineBreak));
    case 'Assertion':
      return node.kind === 'lookahead' || node.kind === 'lookbehind'
        ? node.alternatives.some((each) => each.elements.some(namesLineBreak))
        : false;
    case 'Quantifier':
      return namesLineBreak(node.element);
    case 'CharacterClass':
      return node.elements.some(namesLineBreak);
    default:
      return false;
  }
}

/** The plan with its texts cut at line breaks: the index reads a file's own line endings, which may be CRLF. */
function withoutLineBreaks(plan: GramPlan | undefined): GramPlan | undefined {
  if (plan === undefined) return undefined;
  if ('text' in plan) {
    const parts = plan.text.split(/[\r\n]+/).filter((part) => part.length >= 3);
    return parts.length === 0 ? undefined : parts.length === 1 ? { text: parts[0] ?? '' } : { and: parts.map((text) => ({ text })) };
  }
  if ('and' in plan) {
    const parts = plan.and.map(withoutLineBreaks).filter((part): part is GramPlan => part !== undefined);
    return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { and: parts };
  }
  const parts = plan.or.map(withoutLineBreaks);
  return parts.some((part) => part === undefined) ? undefined : { or: parts as GramPlan[] };
}

/** Compiles the call's query and replacement; INVALID_PATTERN for a pattern that does not compile or can match nothing. */
export function compileReplace(input: ReplaceQuery): ReplacePattern {
  const { query, is_regex: isRegex, case_sensitive: caseSensitive } = input;
  let source = isRegex ? query : query.split(/\r?\n/).map(escapeRegExp).join('\\r?\\n');
  if (input.whole_word) source = `(?<![${WORD}])(?:${source})(?![${WORD}])`;
  const flags = `g${caseSensitive ? '' : 'i'}`;
  const first = parse(source, flags);
  const spansLines = namesLineBreak(first.tree);
  if (canBeEmpty(first.tree)) {
    throw invalid(
      `The query ${JSON.stringify(query.slice(0, 80))} can match the empty string, which would put the replacement between characters. Make every match take at least one character (for example "a+" rather than "a*").`,
    );
  }
  const regex = spansLines ? new RegExp(source, `${first.regex.flags}m`) : first.regex;
  const writesLineBreaks = /[\r\n]/.test(input.replacement);
  const plan = withoutLineBreaks(gramPlan(query, isRegex));
  return { regex, spansLines, replacement: input.replacement, writesLineBreaks, plan, ...prefilter(input, regex, spansLines) };
}

/**
 * A test of a whole text that is true whenever some line matches: the literal itself for a case-sensitive one, else
 * the pattern with `m` over the whole text. Not where the query looks around (a negative look-around may see a
 * neighbouring line's characters through the line break and refuse what the line alone would match).
 */
function prefilter(input: ReplaceQuery, regex: RegExp, spansLines: boolean): Pick<ReplacePattern, 'mayMatch'> {
  if (spansLines) return {};
  if (!input.is_regex && input.case_sensitive) {
    const { query } = input;
    return { mayMatch: (text) => text.includes(query) };
  }
  if (input.is_regex && /\(\?<?!/.test(input.query)) return {};
  const whole = new RegExp(regex.source, regex.flags.replace('g', '') + 'm');
  return { mayMatch: (text) => whole.test(text) };
}
