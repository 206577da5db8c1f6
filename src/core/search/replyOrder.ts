/**
 * search_content's reply order — display path (code units, as every listing), then a PDF's page, then line; between
 * roots of one name, the first — and the first N matches in it, kept from matches that arrive in any order.
 */
import { compareCodePoints } from '../walk/listing';
import type { LineMatch } from '../ports/searcher';

/** A match that passed the core's rules, with the path the reply shows. */
export interface Accepted {
  readonly display: string;
  /** The sidecar it was found in, for a .pdf. */
  readonly via?: string;
  readonly match: LineMatch;
  /** The PDF page it is on, for a match in a PDF's text (documents.ts); its line counts within the page. */
  readonly page?: number;
  /** The index of the start that found it. */
  readonly root: number;
}

function inReplyOrder(a: Accepted, b: Accepted): number {
  return compareCodePoints(a.display, b.display) || (a.page ?? 0) - (b.page ?? 0) || a.match.line - b.match.line || a.root - b.root;
}

/** The `need` first, in the reply's order, of the matches it is given in any order; it sorts only now and then. */
export class Smallest {
  private items: Accepted[] = [];
  private sorted = true;

  constructor(private readonly need: number) {}

  add(item: Accepted): void {
    this.items.push(item);
    this.sorted = false;
    if (this.items.length >= 2 * this.need) this.trim();
  }

  /** The need-th so far, which only smaller ones can push out; undefined while there are fewer. */
  last(): Accepted | undefined {
    this.trim();
    return this.items[this.need - 1];
  }

  result(): Accepted[] {
    this.trim();
    return this.items;
  }

  private trim(): void {
    if (this.sorted) return;
    this.items.sort(inReplyOrder);
    if (this.items.length > this.need) this.items.length = this.need;
    this.sorted = true;
  }
}
