/** The small project `npm start` and the screenshot open: a few files worth pointing the tools at. */
import * as fs from 'node:fs';
import * as path from 'node:path';

const FILES: Readonly<Record<string, string>> = {
  'README.md':
    '# Demo project\n\nA scratch workspace for trying Agent FS. Nothing here matters: change it freely.\n\nTry **Agent FS: Run Tool…** from the command palette.\n',
  'notes/todo.md': '- [ ] read docs/report-final-2026.md\n- [ ] move drafts/ into archive/\n',
  'notes/ideas.txt': 'A tool result is one JSON envelope.\nEvery path stays inside the base directory.\n',
  'docs/report-final-2026.md': '# Report 2026\n\nFigures go here.\n',
  'docs/report-draft-2025.md': '# Report 2025 (draft)\n',
  'drafts/letter.txt': 'Dear reader,\n',
  'src/hello.ts': 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
};

/** Writes the demo files into `dir` (made if missing) and returns it. */
export function createDemoWorkspace(dir: string): string {
  for (const [file, content] of Object.entries(FILES)) {
    const target = path.join(dir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
  return dir;
}
