/** Which Agent FS tools the agent called across the agent launch's scenarios, whatever file they are in. */
import type { ScenarioResult } from './scenario';

export const called = new Set<string>();

export function remember(result: ScenarioResult): void {
  for (const each of result.results) called.add(each.tool);
}
