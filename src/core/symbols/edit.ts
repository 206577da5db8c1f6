/**
 * edit_symbol's edit as a TextEditKind (edit/textEdit.ts), so it takes edit_file's pipeline whole: the file decoded
 * exactly and written back in its encoding, BOM and line endings, expected_hash, dry runs, the confirmation over the
 * edit threshold, history and undo. The symbol is found in the very text the edit rewrites, so its lines cannot have
 * moved between the lookup and the change. A file above the in-memory size is refused: finding a symbol takes the
 * whole text, which the streamed edits of large files never hold.
 */
import { limitExceeded } from '../contract/caps';
import { insertLinesAt, replaceLineRange } from '../edit/lineEdits';
import type { TextEditKind } from '../edit/textEdit';
import { toolRef } from '../naming';
import { humanSize } from '../read/bytes';
import { findSymbol, type Outliner } from './symbols';

export type SymbolAction = 'replace' | 'insert_before' | 'insert_after';

/** What edit_symbol answers besides the edit fields. */
export interface SymbolEditFields {
  readonly symbol: string;
  readonly action: SymbolAction;
  readonly start_line: number;
  readonly end_line: number;
  readonly total_lines: number;
}

interface Found {
  readonly symbol: string;
  readonly start: number;
  readonly end: number;
}

export function symbolKind(
  outliner: Outliner,
  namePath: string,
  action: SymbolAction,
  text: string,
  largeLimit: number,
): TextEditKind<Found, SymbolEditFields> {
  return {
    describe: (l10n, path) =>
      action === 'replace'
        ? l10n.t('Replacing {0} in {1}', namePath, path)
        : action === 'insert_before'
          ? l10n.t('Inserting lines before {0} in {1}', namePath, path)
          : l10n.t('Inserting lines after {0} in {1}', namePath, path),
    windows(file) {
      throw limitExceeded(
        'size_bytes',
        largeLimit,
        `${file.display} is above ${humanSize(largeLimit)}; symbols are found in files of at most that size. Edit it by lines with ${toolRef('replace_lines')}. Nothing was changed.`,
        file.display,
      );
    },
    rewrite({ text: whole, display }) {
      const found = findSymbol(outliner(whole), namePath, display);
      const start = found.startLine;
      const end = found.endLine;
      const rewritten =
        action === 'replace'
          ? replaceLineRange(whole, start, end, text, display)
          : insertLinesAt(whole, action === 'insert_before' ? 'before' : 'after', action === 'insert_before' ? start : end, text, display);
      return { text: rewritten, extra: { symbol: found.namePath, start, end } };
    },
    finish(extras, { totalLines }) {
      const [found] = extras;
      return {
        symbol: found?.symbol ?? namePath,
        action,
        start_line: found?.start ?? 0,
        end_line: found?.end ?? 0,
        total_lines: totalLines,
      };
    },
  };
}
