/**
 * Content the history keeps for a path's state: bytes in memory, or, for a large file, the file itself, which the
 * store links or copies without reading it into memory (store.ts). A leaf, so the state reader and the store share it.
 */

/**
 * Bytes, or a large file by its absolute path (on the disk the store is on), its size and its modification time when
 * it was hashed (a hard link to it that still shows both is the file that was hashed).
 */
export type StoredContent = Uint8Array | { readonly file: string; readonly size: number; readonly mtimeMs?: number };

export function contentSize(content: StoredContent): number {
  return content instanceof Uint8Array ? content.length : content.size;
}

/** Above this, content is hashed streaming and kept by reference. */
export const LARGE_CONTENT_BYTES = 8 * 1024 * 1024;
