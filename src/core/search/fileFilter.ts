/**
 * Which files search_content's results may come from, whatever engine found them: the ones file_pattern matches
 * (relative to the root), and the sidecar rule — a .pdf is searched through its .pdf.txt, shown as the .pdf.
 */
import type { Minimatch } from 'minimatch';
import type { ToolContext } from '../context';
import { basename, relativeTo } from '../paths';
import type { ConfinedPath } from '../confinement';

/** A PDF's text sidecar: "x.pdf.txt" stands for "x.pdf". */
export const PDF_TEXT = /\.pdf\.txt$/i;
const PDF = /\.pdf$/i;

export class FileFilter {
  private readonly existence = new Map<string, Promise<boolean>>();

  constructor(
    private readonly context: ToolContext,
    private readonly start: ConfinedPath,
    private readonly pattern: Minimatch | undefined,
  ) {}

  /** Whether a file is searched at all: it passes file_pattern, or it is the sidecar of a .pdf that does. */
  searches(absolute: string): boolean {
    return this.pattern === undefined || this.matches(absolute) || (PDF_TEXT.test(absolute) && this.matches(absolute.slice(0, -4)));
  }

  /** Whether a root-relative path passes file_pattern. */
  matches(absolute: string): boolean {
    return this.pattern === undefined || this.pattern.match(relativeTo(this.start.root.path, absolute));
  }

  exists(absolute: string): Promise<boolean> {
    let known = this.existence.get(absolute);
    if (!known) {
      known = this.context.workspace.fs.stat(absolute).then(
        (stat) => stat?.kind === 'file' && !stat.isSymlink,
        () => false,
      );
      this.existence.set(absolute, known);
    }
    return known;
  }

  /**
   * What a file found by an engine stands for: itself, a .pdf (for its sidecar), or nothing (a .pdf whose sidecar is
   * searched instead, or a file file_pattern rejects).
   */
  async resolve(absolute: string): Promise<{ display: string; via?: string } | undefined> {
    const display = this.context.paths.display(this.start.root, absolute);
    if (PDF_TEXT.test(absolute)) {
      const pdf = absolute.slice(0, -4);
      if (await this.exists(pdf)) {
        if (!this.matches(pdf) && !this.matches(absolute)) return undefined;
        return { display: this.context.paths.display(this.start.root, pdf), via: basename(absolute) };
      }
    } else if (PDF.test(absolute) && (await this.exists(`${absolute}.txt`))) return undefined;
    return this.matches(absolute) ? { display } : undefined;
  }
}
