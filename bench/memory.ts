/**
 * Peak resident memory, as the bench reports it: of a process of this machine through /proc (Linux; VmHWM reset
 * through clear_refs, then read after the call), and of one run of an external command through GNU time.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

/** Peak resident memory of one run: of the whole process (`peakKiB`) and, in-process, above what it held before. */
export interface Memory {
  readonly peakKiB: number;
  readonly extraKiB?: number;
}

/** Peak-memory bookkeeping through /proc (Linux): VmHWM is reset through clear_refs, then read after the call. */
export function memoryStatus(pid: number | 'self'): { rss: number; hwm: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string): number => parseInt(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 'NaN', 10);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** The peak memory of `pid` while `run` runs, and how much of it is above what the process held before. */
export async function peakOf(pid: number | 'self', run: () => Promise<unknown>): Promise<Memory | undefined> {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    return undefined;
  }
  const before = memoryStatus(pid);
  await run();
  const after = memoryStatus(pid);
  return before && after ? { peakKiB: after.hwm, extraKiB: Math.max(0, after.hwm - before.rss) } : undefined;
}

const hasTimeTool = fs.existsSync('/usr/bin/time');

/** The maximum resident size of one run of an external command (GNU time), the whole process. */
export function commandPeak(executable: string, args: readonly string[]): () => Promise<Memory | undefined> {
  return () => {
    if (!hasTimeTool) return Promise.resolve(undefined);
    const result = spawnSync('/usr/bin/time', ['-f', '%M', executable, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
    const kib = parseInt(result.stderr.trim().split('\n').pop() ?? '', 10);
    return Promise.resolve(Number.isFinite(kib) ? { peakKiB: kib } : undefined);
  };
}
