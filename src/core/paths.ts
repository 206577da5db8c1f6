/**
 * Lexical helpers for the absolute POSIX paths the core works with. No I/O. Every function takes and returns
 * normalised paths: absolute, '/'-separated, no '.' or '..' segments, no trailing '/' (except "/" itself).
 */

/** Resolves '.', '..' and repeated separators. '..' above the root stays at the root, as POSIX does. */
export function normalizeAbsolute(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return '/' + segments.join('/');
}

/** True when `path` is `base` or below it, compared by whole segments ("/a/b" does not contain "/a/bc"). */
export function isWithin(base: string, path: string): boolean {
  if (base === '/') return path.startsWith('/');
  return path === base || path.startsWith(base + '/');
}

/** `path` relative to `base` ('' for `base` itself); `path` must be within `base`. */
export function relativeTo(base: string, path: string): string {
  if (path === base) return '';
  return base === '/' ? path.slice(1) : path.slice(base.length + 1);
}

export function joinPath(base: string, relative: string): string {
  return normalizeAbsolute(`${base}/${relative}`);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function dirname(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

/** The extension with its dot ("a.tar.gz" → ".gz"), or '' when there is none or the name starts with the dot. */
export function extname(path: string): string {
  const name = basename(path);
  const index = name.lastIndexOf('.');
  return index <= 0 ? '' : name.slice(index);
}
