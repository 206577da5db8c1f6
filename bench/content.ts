/** Content search: a literal and a regular expression planted in 50 files, ripgrep's fast path and the pure scan. */
import { GENERATOR, TOKEN, TOKEN_REGEX } from './generate';
import type { Bench } from './harness';

export async function run(bench: Bench): Promise<void> {
  const { tree } = bench.generated;
  for (const [key, query, isRegex] of [
    ['literal', TOKEN, false],
    ['regex', TOKEN_REGEX, true],
  ] as const) {
    if (!bench.wants(key)) continue;
    const workload = `content ${key} (${GENERATOR.tokenFiles} files)`;
    const input = { query, is_regex: isRegex, case_sensitive: true, max_results: 200 };
    const describe = (data: Record<string, unknown>): string => `${String(data.count)} matches (${String(data.engine)})`;
    if (!bench.rg) bench.skip(workload, 'rg', 'not installed (apt-get install ripgrep)');
    await bench.measure(workload, [
      ...(bench.rg ? [bench.ours('agentfs search_content (ripgrep)', 'search_content', input, describe)] : []),
      bench.ours('agentfs search_content (scan)', 'search_content', input, describe, bench.scanSession),
      ...(bench.rg
        ? [bench.command(`rg --hidden${isRegex ? '' : ' -F'}`, bench.rg, ['--hidden', ...(isRegex ? [] : ['-F']), query, tree])]
        : []),
      bench.command(`grep -r${isRegex ? 'E' : 'F'}`, 'grep', [
        '-r',
        isRegex ? '-E' : '-F',
        isRegex ? query.replace('\\d', '[0-9]') : query,
        tree,
      ]),
    ]);
    bench.target(`${key} content search, ripgrep path ≤ 1.5× rg`, workload, 'agentfs search_content (ripgrep)', 'rg', 1.5);
    bench.target(`${key} content search, scan ≤ 5× rg`, workload, 'agentfs search_content (scan)', 'rg', 5);
  }
}
