/**
 * The workload the kill test runs in processes it then kills (processWorker.ts churn), and the checks it makes
 * afterwards: every file holds a whole version (its old or its new bytes, never a mix), a directory replaced by a
 * move is whole, and no staging file is left.
 *
 *   w/f0..f4.txt   replaced by write_file, 64 B to 1 MiB, content derived from its header line
 *   p/p0..p5.txt   changed together by one apply_patch
 *   d/t            replaced by move_directory of d/s (built by two write_file calls) with overwrite
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeOperation, type Session } from '../../../src/core/invoke';
import { isStagingName } from '../../../src/core/files/staging';
import { checkEnvelope } from '../../shared/results';

const SIZES = [64, 4096, 65536, 1024 * 1024];
const WRITE_FILES = 5;
const PATCH_FILES = 6;

/** The bytes of version `version` of a written file of `size` bytes: a header, then filler derived from both. */
function writtenContent(version: number, size: number): string {
  const header = `v${version} ${size}\n`;
  const unit = `${version.toString(36)}-`;
  return header + unit.repeat(Math.ceil(size / unit.length)).slice(0, Math.max(0, size - header.length));
}

function patchContent(index: number, generation: number): string {
  return `patch file p${index}\ngen=${generation}\nend\n`;
}

function treeContent(name: string, generation: number): string {
  return `tree gen=${generation} file ${name}\n`;
}

/** Lays out the files the workload changes. */
export function setUpChurn(root: string): void {
  const put = (relative: string, content: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), content);
  };
  for (let index = 0; index < WRITE_FILES; index++) put(`w/f${index}.txt`, writtenContent(0, 64));
  for (let index = 0; index < PATCH_FILES; index++) put(`p/p${index}.txt`, patchContent(index, 0));
  put('d/t/a.txt', treeContent('a', 0));
  put('d/t/b.txt', treeContent('b', 0));
}

async function must(session: Session, operation: string, input: Record<string, unknown>): Promise<void> {
  const envelope = await invokeOperation(operation, input, session);
  checkEnvelope(envelope);
  if (!envelope.ok) throw new Error(`${operation} failed: ${envelope.error.code} ${envelope.error.message}`);
}

/** One call (or, for a move, the calls that build its source and the move), chosen by `random`. */
export async function churnStep(session: Session, root: string, random: () => number): Promise<string> {
  const pick = random();
  const version = Math.floor(random() * 1e9);
  if (pick < 0.45) {
    const file = `w/f${Math.floor(random() * WRITE_FILES)}.txt`;
    const size = SIZES[Math.floor(random() * SIZES.length)] ?? 64;
    await must(session, 'write_file', { file_name: file, content: writtenContent(version, size) });
    return `write ${file} ${size}`;
  }
  if (pick < 0.75) {
    let patch = '';
    for (let index = 0; index < PATCH_FILES; index++) {
      const current = /gen=(\d+)/.exec(fs.readFileSync(path.join(root, `p/p${index}.txt`), 'utf8'))?.[1] ?? '0';
      patch += `--- a/p/p${index}.txt\n+++ b/p/p${index}.txt\n@@ -1,3 +1,3 @@\n patch file p${index}\n-gen=${current}\n+gen=${version}\n end\n`;
    }
    await must(session, 'apply_patch', { patch });
    return `patch ${PATCH_FILES} files`;
  }
  await must(session, 'write_file', { file_name: 'd/s/a.txt', content: treeContent('a', version) });
  await must(session, 'write_file', { file_name: 'd/s/b.txt', content: treeContent('b', version) });
  await must(session, 'move_directory', { source_path: 'd/s', destination_path: 'd/t', overwrite: true });
  return 'move d/s over d/t';
}

/** What is wrong with the tree now: torn or missing files, a torn directory, staging files left behind. */
export function churnProblems(root: string): string[] {
  const problems: string[] = [];
  const read = (relative: string): string | undefined => {
    try {
      return fs.readFileSync(path.join(root, relative), 'utf8');
    } catch {
      return undefined;
    }
  };
  for (let index = 0; index < WRITE_FILES; index++) {
    const text = read(`w/f${index}.txt`);
    const header = /^v(\d+) (\d+)\n/.exec(text ?? '');
    if (!header || text !== writtenContent(Number(header[1]), Number(header[2])))
      problems.push(`w/f${index}.txt is torn or missing (${text?.length ?? 'missing'})`);
  }
  for (let index = 0; index < PATCH_FILES; index++) {
    const text = read(`p/p${index}.txt`);
    const generation = /gen=(\d+)/.exec(text ?? '')?.[1];
    if (generation === undefined || text !== patchContent(index, Number(generation))) problems.push(`p/p${index}.txt is torn or missing`);
  }
  const a = read('d/t/a.txt');
  const b = read('d/t/b.txt');
  const generation = /gen=(\d+)/.exec(a ?? '')?.[1];
  if (generation === undefined || a !== treeContent('a', Number(generation)) || b !== treeContent('b', Number(generation)))
    problems.push(`d/t is not a whole tree: a=${JSON.stringify(a)} b=${JSON.stringify(b)}`);
  const entries = fs.existsSync(path.join(root, 'd/t')) ? fs.readdirSync(path.join(root, 'd/t')).sort() : [];
  if (entries.join(',') !== 'a.txt,b.txt') problems.push(`d/t holds ${entries.join(',')}`);
  problems.push(...stagingLeft(root).map((each) => `staging file left: ${each}`));
  return problems;
}

/** Every staging name below `root`, relative to it. */
export function stagingLeft(root: string): string[] {
  const found: string[] = [];
  const visit = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (isStagingName(entry.name)) found.push(child);
      if (entry.isDirectory()) visit(child);
    }
  };
  visit('');
  return found;
}
