/**
 * The history store as versions before the pack wrote it, read so that a store in that layout keeps its records: it
 * is read as it is until the first change, which migrates it into a pack once (store.ts).
 *
 *   <directory>/operations/<operation id>.json   one record per file
 *   <directory>/blobs/<sha-256 hex>               file content, a file per blob (large ones stay there after migration)
 *   <directory>/journal                           "agentfs-history-journal 1 <generation>", then a line per change:
 *                                                 "+<id> <hex>:<size> … [@<session>]" reserved, "*<id> …" content
 *                                                 added after it, "-<id>" pruned or given up
 *
 * A store older still has no journal: its record files are its records. A line counts only once its newline is there,
 * and a line naming an id or a blob of the wrong form is skipped, so no string from a model names a path.
 */
import type { FileSystem } from '../ports/fs';

/** Operation ids: lower-case base-36 time, a counter and a random tail. Also the only names the store accepts. */
export const OPERATION_ID_PATTERN = /^[a-z0-9]{1,20}(-[a-z0-9]{1,20}){0,3}$/;

/** A blob's name: the SHA-256 of its bytes, in hex. */
export const BLOB_FILE = /^[0-9a-f]{64}$/;
const JOURNAL_HEADER = /^agentfs-history-journal 1 ([0-9a-z]{12})$/;
const RECORD_FILE = /^([a-z0-9-]+)\.json$/;

const decoder = new TextDecoder();

/** The ids a journal's text leaves live, in the order it added them. */
function liveIds(text: string): string[] {
  const live = new Set<string>();
  for (const line of text.split('\n').slice(1, -1)) {
    const id = (line.split(' ', 1)[0] ?? '').slice(1);
    if (!OPERATION_ID_PATTERN.test(id)) continue;
    if (line.startsWith('+')) live.add(id);
    else if (line.startsWith('-')) live.delete(id);
  }
  return [...live];
}

/** Whether `directory` holds a store in the old layout (a journal, or a folder of records). */
export async function hasLegacyStore(fs: FileSystem, directory: string): Promise<boolean> {
  return (await fs.stat(`${directory}/journal`)) !== undefined || (await fs.stat(`${directory}/operations`))?.kind === 'directory';
}

/**
 * The records of an old-layout store, oldest first, each checked by `accept` (its version and id); a record file
 * that does not read or parse is left out, as the old store left it out. The journal says which records are live;
 * without one, every record file is.
 */
export async function readLegacyRecords<R>(
  fs: FileSystem,
  directory: string,
  accept: (parsed: unknown, id: string) => R | undefined,
): Promise<R[]> {
  let ids: string[];
  const journal = await fs.readFile(`${directory}/journal`).catch(() => undefined);
  const text = journal ? decoder.decode(journal) : '';
  if (journal && JOURNAL_HEADER.test(text.split('\n', 1)[0] ?? '')) ids = liveIds(text);
  else {
    const names = await fs.readDirectory(`${directory}/operations`).catch(() => []);
    ids = names.flatMap((entry) => {
      const id = RECORD_FILE.exec(entry.name)?.[1];
      return id !== undefined && OPERATION_ID_PATTERN.test(id) ? [id] : [];
    });
  }
  const records: { id: string; record: R }[] = [];
  for (const id of ids) {
    try {
      const record = accept(JSON.parse(decoder.decode(await fs.readFile(`${directory}/operations/${id}.json`))) as unknown, id);
      if (record !== undefined) records.push({ id, record });
    } catch {
      // Unreadable or torn: the old store skipped it too.
    }
  }
  return records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((each) => each.record);
}
