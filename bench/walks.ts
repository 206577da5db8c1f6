/** Walks of the whole tree: the glob search, the fuzzy file-name search and the recursive listings. */
import type { Bench } from './harness';

export async function run(bench: Bench): Promise<void> {
  const { tree } = bench.generated;
  const fd = (workload: string, tool: string, args: readonly string[]): ReturnType<Bench['command']>[] => {
    if (bench.hasFd) return [bench.command(tool, 'fdfind', [...args, tree])];
    bench.skip(workload, 'fdfind', 'not installed (apt-get install fd-find)');
    return [];
  };

  if (bench.wants('glob')) {
    const workload = 'glob **/*.md';
    const mcp = await bench.mcp();
    await bench.measure(workload, [
      bench.ours('agentfs search_files', 'search_files', { pattern: '**/*.md', max_results: 200 }, (data) => `${String(data.total)} paths`),
      // fd honours .gitignore in a git repository, as search_files does; -H: dot files too, as search_files shows them.
      ...fd(workload, 'fdfind -H -g *.md', ['-H', '-g', '*.md']),
      {
        tool: 'MCP search_files',
        reference: true,
        run: async () => `${(await mcp.call('search_files', { path: tree, pattern: '**/*.md' })).split('\n').length} lines`,
      },
    ]);
    bench.target('glob search_files ≤ 1.2× fd (ignores honoured)', workload, 'agentfs', 'fdfind', 1.2);
    bench.target('glob: ahead of the MCP server', workload, 'agentfs', 'MCP', 1);
  }

  if (bench.wants('fuzzy')) {
    const workload = 'fuzzy file name';
    await bench.measure(workload, [
      bench.ours(
        'agentfs find_file "user controler"',
        'find_file',
        { file_name: 'user controler', max_results: 20 },
        (data) => `${String(data.count)} shown, ${String(data.match_type)}`,
      ),
      ...fd(workload, "fdfind -H 'user.*contr'", ['-H', 'user.*contr']),
    ]);
    bench.target('fuzzy find_file ≤ 1.5× fd', workload, 'agentfs', 'fdfind', 1.5);
  }

  if (bench.wants('list')) {
    const workload = 'recursive listing (returns 1,000)';
    const mcp = await bench.mcp();
    const entries = (data: Record<string, unknown>): string => `${String(data.total)} entries, ${String(data.ignored_count)} ignored`;
    await bench.measure(workload, [
      bench.ours('agentfs list_directory', 'list_directory', { recursive: true, include_hidden: true, max_entries: 1000 }, entries),
      bench.ours(
        'agentfs list_files',
        'list_files',
        { recursive: true, max_results: 1000 },
        (data) => `${String(data.total)} files, ${String(data.ignored_count)} ignored`,
      ),
      bench.ours(
        'agentfs list_directory include_ignored',
        'list_directory',
        { recursive: true, include_hidden: true, include_ignored: true, max_entries: 1000 },
        entries,
      ),
      bench.command('find', 'find', [tree]),
      {
        tool: 'MCP directory_tree',
        reference: true,
        run: async () => `${(await mcp.call('directory_tree', { path: tree })).length} chars`,
      },
    ]);
    bench.target('list_directory (recursive) ≤ 1.5× find', workload, 'agentfs list_directory', 'find', 1.5);
    bench.target('list_files (recursive) ≤ 1.5× find', workload, 'agentfs list_files', 'find', 1.5);
    bench.target('listing: ahead of the MCP server', workload, 'agentfs list_directory', 'MCP', 1);
  }
}
