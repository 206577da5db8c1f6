import * as vscode from 'vscode';
import type { Envelope } from '../core/envelope';

/**
 * The "Agent FS" log: one line per call with the tool, its duration and its outcome. Never inputs or file
 * contents, which may be private.
 */
export class CallLog implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel('Agent FS', { log: true });

  record(operation: string, startedAt: number, outcome: Envelope | 'cancelled'): void {
    const elapsed = `${Math.round(performance.now() - startedAt)} ms`;
    if (outcome === 'cancelled') this.channel.info(`${operation} cancelled after ${elapsed}`);
    else if (outcome.ok) this.channel.info(`${operation} ok in ${elapsed}`);
    else this.channel.warn(`${operation} ${outcome.error.code} in ${elapsed}`);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
