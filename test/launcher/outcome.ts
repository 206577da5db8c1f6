/**
 * What a launch of the integration suite comes to. The suite (in the extension host) prints one `RESULT {...}`
 * line; the launcher turns that, the launch's exit code, or the error that ended it into an Outcome, the same way
 * for every kind of launch.
 */

export interface Outcome {
  readonly label: string;
  readonly vscode: string;
  readonly passed: number;
  readonly failed: number;
  readonly pending: number;
  readonly seconds: number;
  readonly error?: string;
}

/** The suite's own count, from its RESULT line. */
export interface SuiteResult {
  vscode: string;
  passed: number;
  failed: number;
  pending: number;
}

/** One launch as its launcher tracks it: the window's last log lines are kept only to explain a failure. */
export interface SuiteLaunch {
  readonly label: string;
  /** The host's version, for a launch that ended before the suite said its own. */
  readonly vscode: string;
  readonly started: number;
  readonly windowLog: readonly string[];
  readonly say: (line: string) => void;
}

const secondsSince = (started: number): number => Math.round((Date.now() - started) / 1000);

const lastLines = (windowLog: readonly string[]): string => windowLog.slice(-40).join('\n');

/** A launch that ran to its end. A non-zero exit with no failed test (the host itself failed) counts as one failure. */
export function finishedOutcome(launch: SuiteLaunch, exitCode: number, result: SuiteResult | undefined): Outcome {
  const seconds = secondsSince(launch.started);
  if (!result) {
    launch.say(`the suite printed no result (exit code ${exitCode}); the window's log ends with:\n${lastLines(launch.windowLog)}`);
    return { label: launch.label, vscode: launch.vscode, passed: 0, failed: 1, pending: 0, seconds, error: 'no result' };
  }
  launch.say(
    `VS Code ${result.vscode}: ${result.passed} passed, ${result.failed} failed, ${result.pending} pending (${seconds} s, exit code ${exitCode})`,
  );
  const failed = exitCode !== 0 && result.failed === 0 ? 1 : result.failed;
  return { label: launch.label, vscode: result.vscode, passed: result.passed, failed, pending: result.pending, seconds };
}

/** A launch that an error ended (a timeout, a host that did not start): at least one failure. */
export function failedOutcome(launch: SuiteLaunch, error: unknown, result: SuiteResult | undefined): Outcome {
  launch.say(`failed: ${error instanceof Error ? error.message : String(error)}`);
  if (launch.windowLog.length > 0) launch.say(`the window's log ends with:\n${lastLines(launch.windowLog)}`);
  return {
    label: launch.label,
    vscode: result?.vscode ?? launch.vscode,
    passed: result?.passed ?? 0,
    failed: Math.max(1, result?.failed ?? 0),
    pending: result?.pending ?? 0,
    seconds: secondsSince(launch.started),
    error: String(error),
  };
}
