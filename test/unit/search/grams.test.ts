/**
 * What search/grams.ts says a query requires of a matching line, and the facts its folding rests on: the plans of
 * typical literals and patterns, every line a pattern matches in a random corpus holding each text its plan requires,
 * and no character outside ASCII but U+017F and U+212A matching an ASCII one under case-insensitive matching.
 */
import * as assert from 'node:assert/strict';
import type { GramPlan } from '../../../src/core/ports/contentIndex';
import { gramPlan } from '../../../src/core/search/grams';
import { Chooser, seeded } from '../../shared/churn';

/** Whether `line`, folded as the index folds text (ASCII lower-cased, U+017F and U+212A as s and k), meets `plan`. */
function meets(plan: GramPlan, line: string): boolean {
  const folded = [...line]
    .map((char) => (char === '\u017f' ? 's' : char === '\u212a' ? 'k' : char.charCodeAt(0) < 0x80 ? char.toLowerCase() : '\u0000'))
    .join('');
  if ('text' in plan) return folded.includes(plan.text);
  if ('and' in plan) return plan.and.every((part) => meets(part, line));
  return plan.or.some((part) => meets(part, line));
}

describe('search_content: what a query requires (grams.ts)', () => {
  it('reads literals and patterns as texts joined by and/or, folded to lower case', () => {
    assert.deepEqual(gramPlan('QUASAR_TOKEN_7f3a', false), { text: 'quasar_token_7f3a' });
    assert.deepEqual(gramPlan('café au lait', false), { and: [{ text: 'caf' }, { text: ' au lait' }] });
    assert.equal(gramPlan('ab', false), undefined);
    assert.deepEqual(gramPlan('QUASAR_TOKEN_[0-9a-f]{4}-\\d+', true), { text: 'quasar_token_' });
    assert.deepEqual(gramPlan('(alpha|omega) beta', true), { or: [{ text: 'alpha beta' }, { text: 'omega beta' }] });
    assert.deepEqual(gramPlan('\\bQUA[SZ]AR\\b', true), { or: [{ text: 'quasar' }, { text: 'quazar' }] });
    assert.deepEqual(gramPlan('foo.*bar', true), { and: [{ text: 'foo' }, { text: 'bar' }] });
    assert.deepEqual(gramPlan('(?:abc)+x', true), { text: 'abc' });
    // A back-reference is "anything"; without a group, `\\1` is the character U+0001 (the pattern compiles without `u`).
    for (const none of ['\\d{3}', 'a|bcd', '(foo)?', '.*', '[^abc]+', '(a)b\\1', '[']) assert.equal(gramPlan(none, true), undefined, none);
    assert.deepEqual(gramPlan('ab\\1', true), { text: 'ab\u0001' });
  });

  it('never requires a text a matching line lacks (1,000 random patterns over a random corpus)', () => {
    const chooser = new Chooser(seeded(7));
    const atoms = ['abc', 'Foo', 'bar', 'x', 'ſ', 'K', 'k', 's', '[sz]', '[a-c]', '\\d', '.', '(?:ab|cd)', 'é', ' ', '_'];
    const lines = Array.from({ length: 400 }, () =>
      Array.from({ length: 3 + chooser.int(20) }, () =>
        chooser.pick(['abc', 'foo', 'BAR', 'x', 'ſ', 'K', 's', 'z', 'cd', 'é', ' ', '_', '1', 'k']),
      ).join(''),
    );
    let checked = 0;
    for (let index = 0; index < 1000; index++) {
      const parts = Array.from({ length: 1 + chooser.int(5) }, () => {
        const atom = chooser.pick(atoms);
        return chooser.chance(0.2) ? `(?:${atom})${chooser.pick(['?', '*', '+', '{2}'])}` : atom;
      });
      const source = chooser.chance(0.2) ? `${parts.join('')}|${chooser.pick(atoms)}` : parts.join('');
      const plan = gramPlan(source, true);
      if (!plan) continue;
      for (const flags of ['u', 'iu', 'i', '']) {
        const regex = new RegExp(source, flags);
        for (const line of lines) {
          if (!regex.test(line)) continue;
          checked++;
          assert.ok(meets(plan, line), `/${source}/${flags} matches ${JSON.stringify(line)} but its plan ${JSON.stringify(plan)} says no`);
        }
      }
    }
    assert.ok(checked > 1000, `only ${checked} matching lines checked`);
  });

  it('only U+017F and U+212A match an ASCII character, and only case-insensitively', () => {
    const found: string[] = [];
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (/[\u0001-\u007f]/iu.test(char) || /[\u0001-\u007f]/i.test(char)) found.push(code.toString(16));
    }
    assert.deepEqual(found, ['17f', '212a']);
  });
});
