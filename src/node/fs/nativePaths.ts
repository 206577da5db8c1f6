/** The core's absolute POSIX paths and the platform's own, one into the other. */
import * as nodePath from 'node:path';

/** POSIX form of a native absolute path, as the core expects ("C:\\a" → "/C:/a" on Windows). */
export function toPosixPath(nativePath: string): string {
  const resolved = nodePath.resolve(nativePath);
  return nodePath.sep === '/' ? resolved : '/' + resolved.split(nodePath.sep).join('/');
}

/** The native form of one of the core's absolute paths ("/C:/a" → "C:\\a" on Windows). */
export function toNativePath(posixPath: string): string {
  return nodePath.sep === '/' ? posixPath : posixPath.slice(1).split('/').join(nodePath.sep);
}
