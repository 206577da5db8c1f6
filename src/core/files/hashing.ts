/**
 * The content hash of the contract ("sha256:" and the hex SHA-256 of a file's exact bytes), over bytes in memory or
 * given piece by piece. The core's own SHA-256 (@noble/hashes) runs anywhere but at about 200 MB/s; a port that
 * offers a native one (node:crypto, five times faster) is used for the large files streamed through edits and the
 * history.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import type { FileStat, FileSystem, IncrementalHash } from '../ports/fs';
import { CHUNK_BYTES } from '../ports/fs';

export function contentHash(bytes: Uint8Array): string {
  return `sha256:${bytesToHex(sha256(bytes))}`;
}

/** An incremental hash: the port's native one where it has one. `digest` gives the bare hex. */
export function incrementalHash(fs?: Pick<FileSystem, 'createHash'>): IncrementalHash {
  const native = fs?.createHash?.();
  if (native) return native;
  const hash = sha256.create();
  return { update: (bytes) => void hash.update(bytes), digest: () => bytesToHex(hash.digest()) };
}

/**
 * Hashes of large files one call has already computed, so that the history's before and after states and a
 * streamed edit do not each read a gibibyte again to hash it. An entry holds only while the file's size, modification
 * and change times are those it was hashed at (what git's index trusts too); the memo lives for one call.
 */
export class HashMemo {
  private readonly known = new Map<
    string,
    { readonly size: number; readonly mtimeMs: number; readonly ctimeMs: number; readonly hash: string }
  >();

  get(path: string, stat: FileStat | undefined): string | undefined {
    const entry = this.known.get(path);
    if (!entry || !stat || stat.kind !== 'file') return undefined;
    return entry.size === stat.size && entry.mtimeMs === stat.mtimeMs && entry.ctimeMs === stat.ctimeMs ? entry.hash : undefined;
  }

  set(path: string, stat: FileStat | undefined, hash: string): void {
    if (stat?.kind === 'file') this.known.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, hash });
  }
}

/**
 * The hex SHA-256 of a file read in chunks (never whole), through one reused buffer where the port reads into one,
 * and how many bytes it read. `onChunk` is told after each chunk (a caller's cancellation check).
 */
export async function hashFile(
  fs: FileSystem,
  path: string,
  onChunk: () => void = () => undefined,
): Promise<{ hex: string; size: number }> {
  const hash = incrementalHash(fs);
  const scratch = fs.readInto ? new Uint8Array(CHUNK_BYTES) : undefined;
  let size = 0;
  for (;;) {
    const chunk =
      scratch && fs.readInto
        ? scratch.subarray(0, await fs.readInto(path, size, scratch))
        : fs.readRange
          ? await fs.readRange(path, size, CHUNK_BYTES)
          : (await fs.readFile(path)).subarray(size);
    if (chunk.length === 0) break;
    hash.update(chunk);
    size += chunk.length;
    onChunk();
    if (!fs.readRange && !fs.readInto) break;
  }
  return { hex: hash.digest(), size };
}
