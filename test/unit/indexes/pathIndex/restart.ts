/**
 * Changes made while no index runs, between a saved index and the next that starts from it (differential.test.ts):
 * the churn's random changes, and the ones a saved listing could be fooled by — a directory's times set back after a
 * change (touch -d), a directory replaced by a namesake (which ext4 may give the same inode number), a file become a
 * directory of its name, a .gitignore rewritten with its times set back — and the save file itself damaged.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Chooser, inventory, randomChange } from '../../../shared/churn';
import { savedIndexFile } from '../../../../src/node/indexes/savedIndex';

/** Sets the times of `full` back to `stat`'s (its change time moves on regardless: no process can set that). */
function setTimesBack(full: string, stat: fs.Stats): void {
  fs.utimesSync(full, stat.atimeMs / 1000, stat.mtimeMs / 1000);
}

/** One change of those the header lists; its description. */
function trickyChange(root: string, saveTo: string, chooser: Chooser): string {
  const { directories, files } = inventory(root);
  const kind = chooser.int(5);
  if (kind === 0 && directories.length > 0) {
    const directory = path.join(root, chooser.pick(directories));
    const before = fs.statSync(directory);
    fs.writeFileSync(path.join(directory, `offline-${chooser.int(1000)}.md`), 'made while no index ran QUASAR\n');
    setTimesBack(directory, before);
    return `offline file in ${directory}, its times set back`;
  }
  if (kind === 1 && directories.length > 0) {
    const relative = chooser.pick(directories);
    const directory = path.join(root, relative);
    const parent = path.dirname(directory);
    const [before, parentBefore] = [fs.statSync(directory), fs.statSync(parent)];
    const names = fs.readdirSync(directory);
    fs.rmSync(directory, { recursive: true, force: true });
    fs.mkdirSync(directory);
    // The namesake holds some of the same names, and new ones.
    for (const name of names.slice(0, 2)) fs.writeFileSync(path.join(directory, `${name}-namesake.md`), 'namesake\n');
    fs.writeFileSync(path.join(directory, 'notes.md'), 'namesake QUASAR\n');
    setTimesBack(directory, before);
    setTimesBack(parent, parentBefore);
    return `${relative} replaced by a namesake, times set back`;
  }
  // A .gitignore stays a file: the churn rewrites them.
  const plain = files.filter((file) => path.basename(file) !== '.gitignore');
  if (kind === 2 && plain.length > 0) {
    const relative = chooser.pick(plain);
    const file = path.join(root, relative);
    const parentBefore = fs.statSync(path.dirname(file));
    fs.rmSync(file);
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'inside.md'), 'was a file QUASAR\n');
    setTimesBack(path.dirname(file), parentBefore);
    return `file ${relative} became a directory`;
  }
  if (kind === 3) {
    const directory = directories.length > 0 && chooser.chance(0.6) ? chooser.pick(directories) : '';
    const full = path.join(root, directory, '.gitignore');
    const before = fs.existsSync(full) ? fs.statSync(full) : undefined;
    const rules = chooser.pick(['*.md\n', '*.ts\n!index.ts\n', 'src/\n', '', 'notes*\n', '/docs\n']);
    fs.writeFileSync(full, rules);
    if (before) setTimesBack(full, before);
    return `${directory || '.'}/.gitignore rewritten to ${JSON.stringify(rules)}`;
  }
  return damageSave(root, saveTo, chooser);
}

/** Damages the save file of `root`, as a crash, a disk or another version would. */
function damageSave(root: string, saveTo: string, chooser: Chooser): string {
  const file = savedIndexFile(saveTo, root);
  if (!fs.existsSync(file)) return 'no save file to damage';
  const text = fs.readFileSync(file, 'utf8');
  const newline = text.indexOf('\n');
  switch (chooser.int(5)) {
    case 0:
      fs.writeFileSync(file, text.slice(0, chooser.int(text.length)));
      return 'save file truncated';
    case 1: {
      const at = newline + 1 + chooser.int(text.length - newline - 1);
      const bytes = Buffer.from(text);
      bytes[at] = (bytes[at] ?? 0) ^ 0x01;
      fs.writeFileSync(file, bytes);
      return `save file altered at byte ${at}`;
    }
    case 2: {
      const header = JSON.parse(text.slice(0, newline)) as Record<string, unknown>;
      fs.writeFileSync(file, `${JSON.stringify({ ...header, version: 99 })}${text.slice(newline)}`);
      return 'save file of another version';
    }
    case 3:
      fs.writeFileSync(file, '');
      return 'save file empty';
    default: {
      const aside = `${file}.aside`;
      fs.renameSync(file, aside);
      fs.symlinkSync(aside, file);
      return 'save file replaced by a link to it';
    }
  }
}

/**
 * One to four changes while no index runs: the churn's and the tricky ones above, a short wait now and then (so that
 * some saved listings are past the racy window and are proven, not read again); their descriptions.
 */
export async function offlineChanges(root: string, saveTo: string, chooser: Chooser): Promise<string[]> {
  const done: string[] = [];
  for (let count = 1 + chooser.int(4); count > 0; count--) {
    if (chooser.chance(0.5)) {
      const change = randomChange(root, chooser);
      await change.apply();
      done.push(`while stopped: ${change.what}`);
    } else done.push(`while stopped: ${trickyChange(root, saveTo, chooser)}`);
  }
  if (chooser.chance(0.5)) await new Promise((resolve) => setTimeout(resolve, 50));
  return done;
}
