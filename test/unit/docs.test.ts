/**
 * The documents stay a user's guide (README.md) and a maintainer's set (docs/), and nothing points outside the
 * repository: every relative link and anchor in them resolves, and no comment in the sources cites a document the
 * repository does not hold (the design, the specification the project began from, an issue tracker).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..', '..', '..');
const read = (relative: string): string => fs.readFileSync(path.join(REPO, relative), 'utf8');

/** The Markdown files a reader follows links through. */
const DOCUMENTS = ['README.md', 'CHANGELOG.md', ...fs.readdirSync(path.join(REPO, 'docs')).map((name) => `docs/${name}`)].filter((file) =>
  file.endsWith('.md'),
);

/** GitHub's heading anchors: lower case, punctuation dropped (hyphens and underscores kept), spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] ?? '')));
}

/** Every sources' file a comment could be in: what git would ship as code, tests and build scripts. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(REPO, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && child !== 'test/hosts') walk(child);
      } else if (/\.(ts|mjs|js)$/.test(entry.name)) files.push(child);
    }
  };
  for (const top of ['src', 'test', 'bench']) walk(top);
  return [...files, 'esbuild.mjs', 'package.mjs', 'eslint.config.mjs', '.ci/run'];
}

describe('documents', function () {
  it('the README keeps the two Quick start commands and stays under 500 lines', function () {
    const readme = read('README.md');
    const quickStart = /## Quick start\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? assert.fail('no Quick start block');
    assert.match(quickStart, /^npm install && npm start +#/m);
    assert.match(quickStart, /^npm test +#/m);
    const lines = readme.split('\n').length;
    assert.ok(lines < 500, `README.md has ${lines} lines; maintainer material belongs in docs/`);
  });

  it('every relative link and anchor in the README, the CHANGELOG and docs/ resolves', function () {
    const broken: string[] = [];
    for (const file of DOCUMENTS) {
      const text = read(file).replace(/```[\s\S]*?```/g, '');
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = match[1] ?? '';
        if (/^[a-z]+:/i.test(link)) continue;
        const [target = '', anchor] = link.split('#');
        const targetFile = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
        if (!fs.existsSync(path.join(REPO, targetFile))) broken.push(`${file}: ${link} (no ${targetFile})`);
        else if (anchor !== undefined && targetFile.endsWith('.md') && !anchorsOf(read(targetFile)).has(anchor))
          broken.push(`${file}: ${link} (no heading #${anchor} in ${targetFile})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('every repository file or folder the documents name in code (`src/core/fs.ts`, `bench/`) is there', function () {
    // So a file that moves takes its mentions along.
    const missing: string[] = [];
    for (const file of DOCUMENTS) {
      for (const match of read(file).matchAll(/`((?:src|test|bench|agents|media|docs|\.ci)\/[\w./-]*(?:\.\w+|\/))`/g)) {
        const named = match[1] ?? '';
        if (!fs.existsSync(path.join(REPO, named))) missing.push(`${file}: ${named}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('no source comment points at a document outside the repository', function () {
    // The design lives in docs/design.md; the specification texts and the issue tracker the project began with do
    // not ship, so a comment names the reason or a section of docs/ instead.
    const outside = /DESIGN\.md|\bseeds?[ -]?0\d\d\b|\bseed[ ]plugin\b|\bthe[ ]seed'?s?\b|\b[Ii]ssue \d+\b|\bitem \d+\b/;
    const found: string[] = [];
    for (const file of sourceFiles()) {
      read(file)
        .split('\n')
        .forEach((line, index) => {
          if (outside.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, []);
  });
});
