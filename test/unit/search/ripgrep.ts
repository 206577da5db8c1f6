/**
 * The ripgrep the ripgrep-engine tests run. Without one they fail, saying what is missing, rather than pass for the
 * scan or stay pending: `npm run test:unit` installs it first (test/launcher/install.ts, `unit`).
 */
import { findRipgrepOnPath } from '../../../src/node/search/ripgrep';

export function ripgrepForTests(): string {
  const rg = findRipgrepOnPath();
  if (rg === undefined) {
    throw new Error(
      'ripgrep (rg) is not on PATH, and the ripgrep-engine tests need it: `npm run test:unit` installs it (as root: node out/test/launcher/install.js unit), or install it yourself (sudo apt-get install ripgrep).',
    );
  }
  return rg;
}
