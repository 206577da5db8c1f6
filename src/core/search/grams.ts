/**
 * What a search_content query requires of a matching line, as a content index can check it (ports/contentIndex.ts):
 * texts every match contains, combined by and/or, from the literal itself or from the regular expression's syntax
 * tree (regexpp, the parser ESLint uses, so every pattern JavaScript accepts is read as JavaScript reads it).
 *
 * The texts are folded as the index folds the files' text: ASCII letters to lower case (so one plan serves both
 * cases), and every character outside ASCII, and NUL, ends a text, since the index cannot know how a file's encoding
 * spells it. Under case-insensitive matching `s` and `k` also match U+017F and U+212A; the index reads those two as
 * `s` and `k` in UTF-8 and UTF-16 text, and treats files in other encodings as candidates (src/node/indexes/contentIndex.ts).
 *
 * The plan is sound, never complete: whatever it cannot follow (classes of many characters, optional parts,
 * back-references, look-around) it treats as "anything", which only widens the candidates.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import type { GramPlan } from '../ports/contentIndex';

/** Shortest text the index can look up (trigrams). */
const GRAM = 3;
/** Most strings a part of the pattern is followed as exactly ("a|b" twice is 4); past it the part is "anything". */
const MAX_EXACT = 16;
/** Most characters a class may stand for and still be followed exactly. */
const MAX_CLASS = 4;

/** "Any text" (no requirement) is undefined throughout. */
type Plan = GramPlan | undefined;

function and(parts: readonly Plan[]): Plan {
  const kept = parts.filter((part): part is GramPlan => part !== undefined);
  return kept.length === 0 ? undefined : kept.length === 1 ? kept[0] : { and: kept };
}

function or(parts: readonly Plan[]): Plan {
  if (parts.length === 0 || parts.some((part) => part === undefined)) return undefined;
  const kept = parts as readonly GramPlan[];
  return kept.length === 1 ? kept[0] : { or: kept };
}

/** One character as the index reads it: lower-case ASCII, or undefined for anything else (which ends a text). */
function folded(code: number): string | undefined {
  if (code <= 0 || code >= 0x80) return undefined;
  return code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : String.fromCharCode(code);
}

/** A text's requirement: its runs of foldable characters, each long enough to look up. */
function textPlan(text: string): Plan {
  const parts: Plan[] = [];
  let run = '';
  for (const char of text) {
    const unit = folded(char.codePointAt(0) ?? 0);
    if (unit !== undefined) run += unit;
    else {
      if (run.length >= GRAM) parts.push({ text: run });
      run = '';
    }
  }
  if (run.length >= GRAM) parts.push({ text: run });
  return and(parts);
}

/** What a part of a pattern matches: exactly one of `exact` (folded strings), or else anything satisfying `plan`. */
interface Info {
  readonly exact: readonly string[] | undefined;
  readonly plan: Plan;
}

const ANYTHING: Info = { exact: undefined, plan: undefined };
const EMPTY: Info = { exact: [''], plan: undefined };

/** The requirement of "one of these strings". */
function exactPlan(strings: readonly string[]): Plan {
  return or(strings.map((string) => (string.length >= GRAM ? { text: string } : undefined)));
}

function planOf(info: Info): Plan {
  return info.exact ? exactPlan(info.exact) : info.plan;
}

/** A sequence: exact strings joined while their product stays small, the requirements of the rest and-ed. */
function sequence(elements: readonly Info[]): Info {
  const plans: Plan[] = [];
  let exact: string[] = [''];
  let whole = true;
  for (const element of elements) {
    if (element.exact && exact.length * element.exact.length <= MAX_EXACT) {
      const joined: string[] = [];
      for (const head of exact) for (const tail of element.exact) joined.push(head + tail);
      exact = [...new Set(joined)];
      continue;
    }
    whole = false;
    plans.push(exactPlan(exact));
    if (element.exact) exact = [...element.exact];
    else {
      plans.push(element.plan);
      exact = [''];
    }
  }
  if (whole) return { exact, plan: undefined };
  plans.push(exactPlan(exact));
  return { exact: undefined, plan: and(plans) };
}

function alternatives(branches: readonly AST.Alternative[]): Info {
  const infos = branches.map((branch) => sequence(branch.elements.map(element)));
  if (infos.every((info) => info.exact !== undefined)) {
    const union = [...new Set(infos.flatMap((info) => info.exact ?? []))];
    if (union.length <= MAX_EXACT) return { exact: union, plan: undefined };
  }
  return { exact: undefined, plan: or(infos.map(planOf)) };
}

/** The characters a class stands for, folded, when they are few and all foldable. */
function classInfo(node: AST.CharacterClass): Info {
  if (node.negate) return ANYTHING;
  const units = new Set<string>();
  for (const member of node.elements) {
    if (member.type === 'Character') {
      const unit = folded(member.value);
      if (unit === undefined) return ANYTHING;
      units.add(unit);
    } else if (member.type === 'CharacterClassRange') {
      if (member.max.value - member.min.value >= MAX_CLASS * 2) return ANYTHING;
      for (let code = member.min.value; code <= member.max.value; code++) {
        const unit = folded(code);
        if (unit === undefined) return ANYTHING;
        units.add(unit);
      }
    } else return ANYTHING;
    if (units.size > MAX_CLASS) return ANYTHING;
  }
  return units.size === 0 ? ANYTHING : { exact: [...units], plan: undefined };
}

function quantified(node: AST.Quantifier): Info {
  if (node.min === 0) return ANYTHING;
  const inner = element(node.element);
  // x{n} for a small n is x written n times; x{n,} and x+ require what x requires, at least once.
  if (node.min === node.max && node.min <= GRAM) return sequence(Array.from({ length: node.min }, () => inner));
  return { exact: undefined, plan: planOf(inner) };
}

function element(node: AST.Element): Info {
  switch (node.type) {
    case 'Character': {
      const unit = folded(node.value);
      return unit === undefined ? ANYTHING : { exact: [unit], plan: undefined };
    }
    case 'CharacterClass':
      return classInfo(node);
    case 'Group':
    case 'CapturingGroup':
      return alternatives(node.alternatives);
    case 'Quantifier':
      return quantified(node);
    // Zero-width: they add no character (look-around is not followed; it only narrows what the rest matches).
    case 'Assertion':
      return EMPTY;
    default:
      return ANYTHING;
  }
}

/**
 * What every line matching the query contains, or undefined when nothing can be said (the search is then not
 * narrowed).
 */
export function gramPlan(query: string, isRegex: boolean): GramPlan | undefined {
  if (!isRegex) return textPlan(query);
  // As query.ts compiles it: with the `u` flag where the pattern allows, without it otherwise.
  for (const unicode of [true, false]) {
    let pattern: AST.Pattern;
    try {
      pattern = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(query, 0, query.length, { unicode });
    } catch {
      continue;
    }
    return planOf(alternatives(pattern.alternatives));
  }
  return undefined;
}
