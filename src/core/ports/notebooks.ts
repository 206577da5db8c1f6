/**
 * The editor's open notebooks, where the host has an editor. A notebook open in it is changed through the editor
 * (VS Code's notebook API) rather than on disk, so that the notebook editor, its undo stack and its kernel keep
 * up; a notebook no editor has open is changed on disk like any file.
 */

/** A new cell as the editor takes it. */
export interface EditorCell {
  readonly kind: 'code' | 'markdown' | 'raw';
  readonly language: string;
  readonly source: string;
}

/** One change of an open notebook; indexes are those of the notebook as the steps before this one left it. */
export type EditorStep =
  | { readonly kind: 'source'; readonly index: number; readonly source: string }
  | { readonly kind: 'insert'; readonly index: number; readonly cell: EditorCell }
  | { readonly kind: 'delete'; readonly index: number }
  | { readonly kind: 'move'; readonly from: number; readonly to: number }
  | { readonly kind: 'clear_outputs'; readonly index: number };

export interface NotebookEditors {
  /** Whether a notebook document for this absolute path is open (unsaved ones are refused before: FILE_DIRTY_IN_EDITOR). */
  isOpen(absolutePath: string): boolean;
  /**
   * Makes `steps` in the open notebook as one change and saves it, so the file on disk is the editor's notebook
   * again. Rejects when the editor refuses a step; then nothing of the change stays.
   */
  apply(absolutePath: string, steps: readonly EditorStep[]): Promise<void>;
}
