/**
 * How far ripgrep's sorted walk (`--sort=path`) has got, in search_content's reply order. It takes each directory's
 * entries by their names' bytes, depth first: the reply's order, except that a directory comes before a sibling whose
 * name goes on from the directory's with a character below '/' ("a/" before "a-b", "a.ts"; in the reply "a.ts" <
 * "a/x"), and where byte and code unit order part. So the least display path a later file can have is read from the
 * listings of the directories the walk is in: the least of their entries that come later in the walk.
 */
import type { ToolContext } from '../context';
import type { DirEntry } from '../ports/fs';
import { compareCodePoints } from '../walk/listing';
import { relativeTo } from '../paths';
import type { ConfinedPath } from '../confinement';
import { PDF_TEXT } from './fileFilter';

/** Code point order, which is UTF-8's byte order (ripgrep's); code units differ only where a surrogate meets U+E000–U+FFFF. */
function compareUtf8(a: string, b: string): number {
  if (!/[\uD800-\uDFFF]/.test(a) && !/[\uD800-\uDFFF]/.test(b)) return compareCodePoints(a, b);
  const x = Array.from(a, (character) => character.codePointAt(0) ?? 0);
  const y = Array.from(b, (character) => character.codePointAt(0) ?? 0);
  for (let index = 0; index < Math.min(x.length, y.length); index++) {
    const difference = (x[index] ?? 0) - (y[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return x.length - y.length;
}

function childOf(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}

export class SortedWalk {
  private readonly listings = new Map<string, Promise<readonly DirEntry[] | undefined>>();
  private readonly later = new Map<string, string | null>();
  private previous: readonly string[] | undefined;
  /** False once the walk did something this class does not expect (a file out of order, an unreadable listing). */
  holds = true;

  constructor(
    private readonly context: ToolContext,
    private readonly start: ConfinedPath,
  ) {}
  /** Notes the next file the walk reports, checking that it comes after the one before. */
  meet(path: string): void {
    const parts = relativeTo(this.start.absolute, path).split('/');
    const previous = this.previous;
    if (previous) {
      let order = 0;
      for (let index = 0; order === 0 && index < Math.min(previous.length, parts.length); index++)
        order = compareUtf8(previous[index] ?? '', parts[index] ?? '');
      if (order >= 0) this.holds = false;
    }
    this.previous = parts;
  }

  /** The least display path of any file the walk can report after `path`; undefined when none can follow. */
  async after(path: string): Promise<string | undefined> {
    let least: string | undefined;
    let directory = this.start.absolute;
    for (const name of relativeTo(this.start.absolute, path).split('/')) {
      const entry = await this.laterEntry(directory, name);
      if (entry !== undefined) {
        const display = this.context.paths.display(this.start.root, childOf(directory, entry));
        if (least === undefined || compareCodePoints(display, least) < 0) least = display;
      }
      directory = childOf(directory, name);
    }
    return least;
  }

  /** The least, as it sorts in the reply, of the entries of `directory` the walk meets after `name`. */
  private async laterEntry(directory: string, name: string): Promise<string | undefined> {
    const key = `${directory}\0${name}`;
    const known = this.later.get(key);
    if (known !== undefined) return known ?? undefined;
    let listing = this.listings.get(directory);
    if (!listing) {
      listing = this.context.workspace.fs.readDirectory(directory).catch(() => undefined);
      this.listings.set(directory, listing);
    }
    const entries = await listing;
    if (!entries) this.holds = false;
    let least: string | undefined;
    for (const entry of entries ?? []) {
      if (compareUtf8(entry.name, name) <= 0) continue;
      // A directory sorts as its files do, with '/' after its name; a sidecar as the .pdf it stands for.
      const sortsAs =
        entry.kind === 'directory' && !entry.isSymlink
          ? `${entry.name}/`
          : PDF_TEXT.test(entry.name)
            ? entry.name.slice(0, -4)
            : entry.name;
      if (least === undefined || compareCodePoints(sortsAs, least) < 0) least = sortsAs;
    }
    this.later.set(key, least ?? null);
    return least;
  }
}
