/** How much of a file a read takes at once, and what it refuses: the limits read_file, read_many_files and file_info share. */

/**
 * Files up to this size are read whole (10 MiB hashes in about 75 ms). It equals the edit tools' cap
 * (editing.ts EDIT_MAX_BYTES), so every file an edit accepts gets a content_hash from a read.
 */
export const WHOLE_READ_BYTES = 10 * 1024 * 1024;
/** Without ranged reads a file is read whole to read any of it; above this that is refused. */
export const UNRANGED_READ_CAP = 64 * 1024 * 1024;
/** Step of backward (tail) scans: a hundred log lines usually fit in one. */
export const TAIL_CHUNK_BYTES = 64 * 1024;

/**
 * The bytes of a file a read returns when the call names no max_bytes (read_file; read_many_files shares it among its
 * files): about 500 lines of code, and with JSON escaping and the other fields a reply under 32 KB. The cap, what
 * max_bytes may ask for, stays the setting agentFs.maxReadBytes.
 */
export const DEFAULT_READ_BYTES = 20 * 1024;

/**
 * read_many_files' default byte budget, shared evenly by its files: smaller than read_file's, since each of up to 32
 * entries carries its own fields (path, hashes, line numbers) besides its content.
 */
export const DEFAULT_READ_MANY_BYTES = 16 * 1024;
