/**
 * Launches run side by side in lanes: each lane takes its launches one after another, the lanes at once, so two
 * windows share the machine's two cores where one left a core idle while it waited (on a language service, a
 * scripted model's turn, a page to render). A launch's output is held until it ends and then printed whole, so the
 * log reads launch by launch however they overlapped; its first line is printed when it starts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Launch<T> {
  readonly label: string;
  /** About how long it takes, in seconds: lanes are filled longest first, each to the least loaded. */
  readonly weight: number;
  readonly run: () => Promise<T>;
}

/** The output of the launch whose code is running, where one is being held. */
const held = new AsyncLocalStorage<string[]>();
let writeThrough: ((text: string) => void) | undefined;

/** Routes process.stdout through the launch that writes, once: a write outside any launch goes straight out. */
function holdOutput(): (text: string) => void {
  if (writeThrough) return writeThrough;
  const original = process.stdout.write.bind(process.stdout);
  writeThrough = (text) => void original(text);
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    const lines = held.getStore();
    if (!lines) return (original as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean)(chunk, ...rest);
    lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = rest.find((each): each is () => void => typeof each === 'function');
    callback?.();
    return true;
  };
  return writeThrough;
}

/** Splits `launches` into `count` lanes: longest first, each to the lane with the least weight so far. */
function intoLanes<T>(launches: readonly Launch<T>[], count: number): Launch<T>[][] {
  const lanes: { weight: number; launches: Launch<T>[] }[] = Array.from({ length: Math.max(1, count) }, () => ({
    weight: 0,
    launches: [],
  }));
  const byWeight = [...launches].sort((a, b) => b.weight - a.weight);
  for (const launch of byWeight) {
    const lightest = lanes.reduce((best, lane) => (lane.weight < best.weight ? lane : best));
    lightest.weight += launch.weight;
    lightest.launches.push(launch);
  }
  // Within a lane, the launches keep the order they were given in.
  return lanes.map((lane) => launches.filter((launch) => lane.launches.includes(launch)));
}

/**
 * Runs `launches` in `count` lanes and gives their results in the order given. With one lane the output goes straight
 * out as it is written; with more, each launch's is held and printed when it ends.
 */
export async function runInLanes<T>(launches: readonly Launch<T>[], count: number): Promise<T[]> {
  const results = new Map<Launch<T>, T>();
  if (count <= 1) {
    for (const launch of launches) results.set(launch, await launch.run());
  } else {
    const write = holdOutput();
    await Promise.all(
      intoLanes(launches, count).map(async (lane) => {
        for (const launch of lane) {
          write(`[${launch.label}] started\n`);
          const lines: string[] = [];
          try {
            results.set(launch, await held.run(lines, launch.run));
          } finally {
            write(lines.join(''));
          }
        }
      }),
    );
  }
  return launches.map((launch) => {
    const result = results.get(launch);
    if (result === undefined) throw new Error(`${launch.label} gave no result`);
    return result;
  });
}
