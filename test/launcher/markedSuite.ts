/**
 * A launch whose suite reports as the integration suite does (lines starting with MARKER and one `RESULT {...}`):
 * the web and locale launches' share of what run.ts does for the main suite, kept beside them so run.ts only names
 * them.
 */
import { failedOutcome, finishedOutcome, type Outcome, type SuiteLaunch, type SuiteResult } from './outcome';
import { type LaunchSpec, withLaunch } from './session';

const MARKER = '[agentfs-it] ';

/** Runs `spec` (its window in test mode) and turns what its suite printed into an Outcome. */
export async function runMarkedSuite(spec: Omit<LaunchSpec, 'open'>, say: (line: string) => void): Promise<Outcome> {
  const started = Date.now();
  const windowLog: string[] = [];
  const launch: SuiteLaunch = { label: spec.label, vscode: spec.host.vscodeVersion, started, windowLog, say };
  let result: SuiteResult | undefined;
  let onExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => {
    onExit = resolve;
  });
  try {
    const exitCode = await withLaunch(
      {
        ...spec,
        open: {
          onLog: (_level, message) => {
            if (!message.startsWith(MARKER)) {
              // Kept only to explain a failure: the last lines are enough.
              if (windowLog.push(message) > 200) windowLog.shift();
              return;
            }
            for (const line of message.split('\n')) {
              const text = line.startsWith(MARKER) ? line.slice(MARKER.length) : line;
              if (text.startsWith('RESULT ')) result = JSON.parse(text.slice('RESULT '.length)) as SuiteResult;
              else process.stdout.write(`  ${text}\n`);
            }
          },
          // The workbench calls codeAutomationExit with the test run's exit code once run() settles.
          onExit: (code) => onExit(code),
        },
      },
      () => exited,
      (code) => code === 0 && result !== undefined && result.failed === 0,
    );
    return finishedOutcome(launch, exitCode, result);
  } catch (error) {
    return failedOutcome(launch, error, result);
  }
}
