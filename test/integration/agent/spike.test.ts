import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, workspaceRoot } from '../helpers';
import { MARKER } from '../index';
import { card, click, rows, shot, startTurn, ui, scriptedModel } from './bridge';

const say = (...parts: unknown[]): void => console.log(MARKER + parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' '));

describe('spike', () => {
  it('runs one agent turn', async function () {
    this.timeout(400_000);
    await api();
    await new Promise((r) => setTimeout(r, 3000));
    say('anon', vscode.workspace.getConfiguration('chat').get('allowAnonymousAccess'));
    fs.writeFileSync(path.join(workspaceRoot(), 'a.txt'), 'hello\n');
    const turn = await startTurn(
      {
        marker: 'AFS-SPIKE-1',
        next: (results) =>
          results.length === 0
            ? { tool: 'agentfs_workspace_info', input: {} }
            : results.length === 1
              ? { tool: 'agentfs_read_file', input: { file_name: 'missing.txt' } }
              : results.length === 2
                ? { tool: 'agentfs_delete_file', input: { file_name: 'a.txt' } }
                : undefined,
        final: 'All done.',
      },
      'please inspect the workspace',
    );
    const stop = await turn.stopped;
    say('stop', JSON.stringify(stop).slice(0, 300));
    say('first tools', turn.run.firstRequest?.tools.map((t) => t.name));
    say('results0', turn.run.results);
    const c = await card();
    say('card', c);
    await shot('spike-card');
    fs.writeFileSync(path.join(workspaceRoot(), '..', 'chat.html'), await ui<string>({ action: 'html' }));
    await click('Skip');
    await turn.run.finished;
    await new Promise((r) => setTimeout(r, 2000));
    say('rows', await rows());
    await shot('spike-end');
    say('results', turn.run.results);
    const first = turn.run.firstRequest;
    say('first tools', first?.tools.map((t) => t.name));
    say('requests', (await scriptedModel()).requests.map((r) => ({ main: r.main, tools: r.tools.length, len: r.textLength })));
  });
});
