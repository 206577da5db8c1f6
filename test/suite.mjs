#!/usr/bin/env node
// `npm test`: the whole suite, phase by phase — the build, lint, the unit tests, the client matrix and the integration
// launches — stopping at the first phase that fails, and closing with each phase's time.
//
// `npm run test:busy` (`--busy`) runs the same with one busy loop per core beside it for the whole run, started and
// stopped here: the suite must pass on a machine that is doing other work, and this is how to see that it does. The
// phases learn it from AGENTFS_BUSY=1, so that a test that makes its own load to prove a bound under load does not
// add more.
//
// Plain JavaScript, so that it runs before the build that compiles the TypeScript.
import { spawn } from 'node:child_process';
import * as os from 'node:os';

const PHASES = ['build', 'lint', 'unit', 'matrix', 'integration'];

const busy = process.argv.includes('--busy');
const unknown = process.argv.slice(2).filter((argument) => argument !== '--busy');
if (unknown.length > 0) {
  process.stderr.write(`test/suite.mjs: unknown argument ${unknown.join(' ')} (known: --busy)\n`);
  process.exit(2);
}

/** One busy loop per core, as separate processes at normal priority, like another job on the machine. */
function startLoad() {
  return Array.from({ length: os.availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', detached: false }),
  );
}

function runPhase(phase, env) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', phase], { stdio: 'inherit', env });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(0)} s`;
}

const env = { ...process.env, ...(busy ? { AGENTFS_BUSY: '1' } : {}) };
const load = busy ? startLoad() : [];
const stopLoad = () => {
  for (const loop of load) loop.kill();
};
process.once('SIGINT', () => {
  stopLoad();
  process.exit(130);
});
process.once('SIGTERM', () => {
  stopLoad();
  process.exit(143);
});

const started = performance.now();
const times = [];
let failed;
try {
  for (const phase of PHASES) {
    const phaseStarted = performance.now();
    const code = await runPhase(phase, env);
    times.push([phase, performance.now() - phaseStarted, code]);
    if (code !== 0) {
      failed = phase;
      break;
    }
  }
} finally {
  stopLoad();
}

const lines = times.map(
  ([phase, ms, code]) => `  ${phase.padEnd(12)} ${seconds(ms).padStart(7)}${code === 0 ? '' : `  FAILED (exit ${code})`}`,
);
process.stdout.write(
  `\nnpm test${busy ? ` under load (${load.length} busy loops)` : ''}: ${failed ? `failed in ${failed}` : 'passed'}\n${lines.join('\n')}\n  ${'total'.padEnd(12)} ${seconds(performance.now() - started).padStart(7)}\n`,
);
process.exitCode = failed ? 1 : 0;
