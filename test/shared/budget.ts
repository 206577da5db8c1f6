/**
 * The size of a randomised test, by time rather than by count: it runs cases while its time lasts (at least `min`,
 * at most `max`), so the suite keeps its length on a slow or busy machine while every run still covers `min` cases.
 * What a fixed count bought was the same cases every run; here each run draws a new seed (printed, and fixed by the
 * test's variable to repeat a run), so the runs together cover far more than one could.
 */
export class Budget {
  private readonly until: number;

  constructor(
    ms: number,
    private readonly min: number,
    private readonly max = Number.POSITIVE_INFINITY,
  ) {
    this.until = performance.now() + ms;
  }

  /** Whether to run case number `done` (counting from 0). */
  more(done: number): boolean {
    return done < this.min || (done < this.max && performance.now() < this.until);
  }
}

/** The seed `variable` names, or a new one (a test names it in its title, so a failure says how to repeat it). */
export function seedFrom(variable: string): number {
  const given = process.env[variable];
  return given !== undefined && given !== '' ? Number(given) : Math.floor(Math.random() * 2 ** 31);
}
