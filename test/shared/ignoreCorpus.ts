/**
 * A corpus of ignore-rule trees for the tests that hold the finding tools to git (test/unit/gitignoreOracle.test.ts and
 * the editor host's copy): rule sets shaped like the ones people commit — language and editor templates, allow-lists,
 * rules written with classes, ranges, escapes, `**` in every position, trailing spaces, CRLF and a BOM — each written
 * into a tree of names made to meet its rules: names that match each rule, the same names in other cases, copies at
 * other depths, directories that directory rules name (and files of the same names), and re-included names below
 * ignored and not ignored folders. Which of them git shows is git's to say; the corpus only makes sure every rule has
 * something to decide. Every choice comes from a seeded generator, so a failing tree is named by its seed.
 *
 * Node's own modules only: the editor host's tests load it too.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chooser, seeded } from './churn';
import { writeTree } from './tree';

/** Rule templates: lines of the kind real .gitignore files are made of, one template per ecosystem or editor. */
const TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  node: [
    'node_modules/',
    'jspm_packages/',
    '*.log',
    'npm-debug.log*',
    'yarn-error.log*',
    '.npm',
    'dist',
    '.next/',
    'out/',
    '.cache/',
    'coverage/',
    '*.tgz',
    '.eslintcache',
    '!.vscode/extensions.json',
  ],
  python: [
    '__pycache__/',
    '*.py[cod]',
    '*$py.class',
    '*.so',
    '.Python',
    'build/',
    'develop-eggs/',
    '*.egg-info/',
    '.eggs/',
    '.venv',
    'venv/',
    'ENV/',
    '.pytest_cache/',
    '.mypy_cache/',
    'instance/',
    '.ipynb_checkpoints',
    '*.manifest',
    '*.spec',
  ],
  java: [
    '*.class',
    '*.jar',
    '!gradle/wrapper/gradle-wrapper.jar',
    '*.war',
    'hs_err_pid*',
    'target/',
    '.gradle',
    '**/build/',
    '!src/**/build/',
    'out/',
    '.idea/',
    '*.iml',
  ],
  go: ['*.exe', '*.exe~', '*.dll', '*.test', '*.out', 'vendor/', 'go.work', '/bin/'],
  rust: ['/target', '**/*.rs.bk', 'Cargo.lock', '*.pdb', 'debug/', 'target/'],
  c: [
    '*.o',
    '*.ko',
    '*.obj',
    '*.elf',
    '*.so',
    '*.so.*',
    '*.a',
    '*.lib',
    '*.dSYM/',
    '*.su',
    '*.idb',
    '*.pdb',
    '*.mod*',
    'modules.order',
    'Module.symvers',
    '*.i*86',
    '*.x86_64',
    '*.hex',
  ],
  visualStudio: [
    '[Dd]ebug/',
    '[Dd]ebugPublic/',
    '[Rr]elease/',
    '[Rr]eleases/',
    'x64/',
    'x86/',
    '[Aa][Rr][Mm]/',
    'bld/',
    '[Bb]in/',
    '[Oo]bj/',
    '[Ll]og/',
    '*.[Cc]ache',
    '!?*.[Cc]ache/',
    '*.suo',
    '*.user',
    '*.userosscache',
    '*.sln.docstates',
    '**/[Pp]ackages/*',
    '!**/[Pp]ackages/build/',
    '*.nupkg',
    '_ReSharper*/',
    '*.[Rr]e[Ss]harper',
    'ipch/',
    '*.aps',
    '*.ncb',
    '*.VC.db',
    'Generated\\ Files/',
    '[Tt]est[Rr]esult*/',
    '*.vsp',
    '~$*',
    '*~',
    'ServiceFabricBackup/',
    '*.rptproj.bak',
  ],
  unity: [
    '/[Ll]ibrary/',
    '/[Tt]emp/',
    '/[Oo]bj/',
    '/[Bb]uild/',
    '/[Bb]uilds/',
    '/[Ll]ogs/',
    '/[Uu]ser[Ss]ettings/',
    '/[Mm]emoryCaptures/',
    '/[Aa]ssets/Plugins/Editor/JetBrains*',
    '.vs/',
    '*.pidb.meta',
    '*.pdb.meta',
    '*.mdb.meta',
    'sysinfo.txt',
    '*.apk',
    '*.unitypackage',
    'crashlytics-build.properties',
  ],
  umbraco: [
    '**/App_Data/[Ll]ogs/',
    '**/App_Data/[Pp]review/',
    '**/App_Data/TEMP/',
    '**/App_Data/NuGetBackup/',
    '!**/App_Data/[Pp]ackages/*',
    '!**/[Uu]mbraco/[Aa]ssets/*',
    '!**/[Uu]mbraco/[Ll]ib/*',
    '!**/[Uu]mbraco/[Vv]iews/*',
    'umbraco/*',
    '**/wwwroot/media/',
    '**/umbraco/Data/TEMP/',
  ],
  jetbrains: [
    '.idea/**/workspace.xml',
    '.idea/**/tasks.xml',
    '.idea/**/usage.statistics.xml',
    '.idea/**/dictionaries',
    '.idea/**/shelf',
    '.idea/**/dataSources/',
    '.idea/**/dataSources.ids',
    'cmake-build-*/',
    '*.iws',
    'out/',
    '.idea_modules/',
    'atlassian-ide-plugin.xml',
    'fabric.properties',
    '.idea/replstate.xml',
  ],
  macos: [
    '.DS_Store',
    '.AppleDouble',
    '.LSOverride',
    'Icon\r\r',
    '._*',
    '.DocumentRevisions-V100',
    '.fseventsd',
    '.Spotlight-V100',
    '.TemporaryItems',
    '.Trashes',
    '.VolumeIcon.icns',
    '.com.apple.timemachine.donotpresent',
    '.AppleDB',
    'Network Trash Folder',
    'Temporary Items',
    '.apdisk',
  ],
  windows: [
    'Thumbs.db',
    'Thumbs.db:encryptable',
    'ehthumbs.db',
    'ehthumbs_vista.db',
    '*.stackdump',
    '[Dd]esktop.ini',
    '$RECYCLE.BIN/',
    '*.cab',
    '*.msi',
    '*.msix',
    '*.msm',
    '*.msp',
    '*.lnk',
  ],
  vim: [
    '[._]*.s[a-v][a-z]',
    '!*.svg',
    '[._]*.sw[a-p]',
    '[._]s[a-rt-v][a-z]',
    '[._]ss[a-gi-z]',
    '[._]sw[a-p]',
    'Session.vim',
    'Sessionx.vim',
    '.netrwhist',
    '*~',
    '[._]*.un~',
    'tags',
  ],
  emacs: [
    '*~',
    '\\#*\\#',
    '/.emacs.desktop',
    '/.emacs.desktop.lock',
    '*.elc',
    'auto-save-list',
    'tramp',
    '.\\#*',
    '*_archive',
    '*_flymake.*',
    '/eshell/history',
    '/eshell/lastdir',
    '/elpa/',
    '*.rel',
    '/auto/',
    '.cask/',
    'dist/',
    'flycheck_*.el',
    '/server/',
    '.projectile',
    '.dir-locals.el',
    '/network-security.data',
  ],
  latex: [
    '*.aux',
    '*.lof',
    '*.log',
    '*.lot',
    '*.fls',
    '*.out',
    '*.toc',
    '*.fmt',
    '*.fot',
    '*.cb',
    '*.cb2',
    '.*.lb',
    '*.dvi',
    '*.xdv',
    '*-converted-to.*',
    '.pdf',
    '*.bbl',
    '*.bcf',
    '*.blg',
    '*-blx.aux',
    '*-blx.bib',
    '*.run.xml',
    '*.fdb_latexmk',
    '*.synctex',
    '*.synctex(busy)',
    '*.synctex.gz',
    '*.synctex.gz(busy)',
    '*.pdfsync',
    'latex.out/',
    '*.alg',
    '*.loa',
    'acs-*.bib',
    '*.thm',
    '*.nav',
    '*.pre',
    '*.snm',
    '*.vrb',
    '*.soc',
    '*.cut',
    '*.cpt',
    '*.spl',
    '*.ent',
    '*.lox',
    '*.mf',
    '*.mp',
    '*.t[1-9]',
    '*.t[1-9][0-9]',
    '*.tfm',
    '*.[1-9]',
    '*.[1-9][0-9]',
    '*.[1-9][0-9][0-9]',
    '*.[1-9]R',
    '*.[1-9][0-9]R',
    '*.[1-9][0-9][0-9]R',
    '*.eps',
    '*.md5',
    '*.auxlock',
    '*.slg',
    '*.slo',
    '*.sls',
  ],
  android: [
    '*.apk',
    '*.aar',
    '*.ap_',
    '*.aab',
    '*.dex',
    '*.class',
    'bin/',
    'gen/',
    'out/',
    '.gradle/',
    'build/',
    'local.properties',
    'proguard/',
    '*.log',
    '.navigation/',
    'captures/',
    '*.iml',
    '.idea/workspace.xml',
    '.idea/tasks.xml',
    '.externalNativeBuild',
    '.cxx/',
    '*.jks',
    '*.keystore',
    'google-services.json',
    'freeline.py',
    'freeline/',
    'freeline_project_description.json',
    'fastlane/report.xml',
    'fastlane/Preview.html',
    'fastlane/screenshots',
    'fastlane/test_output',
    'vcs.xml',
    'lint/intermediates/',
    'lint/generated/',
    'lint/outputs/',
    'lint/tmp/',
  ],
  terraform: [
    '**/.terraform/*',
    '*.tfstate',
    '*.tfstate.*',
    'crash.log',
    'crash.*.log',
    '*.tfvars',
    '*.tfvars.json',
    'override.tf',
    'override.tf.json',
    '*_override.tf',
    '*_override.tf.json',
    '!example_override.tf',
    '.terraformrc',
    'terraform.rc',
  ],
  ruby: [
    '*.gem',
    '*.rbc',
    '/.config',
    '/coverage/',
    '/InstalledFiles',
    '/pkg/',
    '/spec/reports/',
    '/spec/examples.txt',
    '/test/tmp/',
    '/test/version_tmp/',
    '/tmp/',
    '.dat*',
    '.repl_history',
    'build/',
    '/.yardoc/',
    '/_yardoc/',
    '/doc/',
    '/rdoc/',
    '/.bundle/',
    '/vendor/bundle',
    '/lib/bundler/man/',
    '.rvmrc',
  ],
  xcode: [
    'xcuserdata/',
    '*.xcscmblueprint',
    '*.xccheckout',
    'build/',
    'DerivedData/',
    '*.moved-aside',
    '*.pbxuser',
    '!default.pbxuser',
    '*.mode1v3',
    '!default.mode1v3',
    '*.mode2v3',
    '!default.mode2v3',
    '*.perspectivev3',
    '!default.perspectivev3',
    '*.hmap',
    '*.ipa',
    '*.dSYM.zip',
    '*.dSYM',
    'timeline.xctimeline',
    'playground.xcworkspace',
    '.build/',
    'Pods/',
    'Carthage/Build/',
    'fastlane/report.xml',
  ],
  allowList: ['*', '!*/', '!.gitignore', '!*.xml', '!*.md', '!src/**', 'src/**/*.tmp'],
  allowListDirs: ['/*', '!/src/', '/src/*', '!/src/keep/', '!/docs/', '!README.md', '!/.gitignore'],
  anchored: [
    '/root-only.txt',
    'docs/*.md',
    '!docs/keep.md',
    'docs/**/*.tmp',
    'a/**/b',
    '**/logs',
    'logs/**',
    '**/foo/bar',
    'foo/**/',
    '**/*.min.js',
    '/config/*.local.*',
    'assets/**/cache/',
    '!assets/important/cache/',
  ],
  negations: [
    'build/',
    '!build/keep.txt',
    'dist/*',
    '!dist/keep.txt',
    '*.log',
    '!important.log',
    'tmp/**',
    '!tmp/**/',
    '!tmp/**/*.keep',
    'cache',
    '!cache/',
    'cache/*',
  ],
  escapes: [
    '\\!important.txt',
    '\\#notes.txt',
    'trailing\\ ',
    'two\\ \\ ',
    'spaced name.txt   ',
    'hash#inside',
    'back\\\\slash',
    '\\*literal-star',
    'q\\?mark',
    '\\[bracket]',
    '[[]open',
    'end\\]',
  ],
  classes: [
    '[[:digit:]]*.tmp',
    '[[:upper:]]*.BAK',
    '[[:lower:]][[:digit:]].out',
    '[a-c]*.dat',
    '[!a-c]*.dat',
    '[^0-9]*.num',
    '[]x]*.br',
    '[a-]*.dash',
    '[[:alpha:][:digit:]]?.cls',
    '[[:space:]]*.sp',
    '[[:punct:]]*.pu',
    '[[:xdigit:]][[:xdigit:]].hex',
    '[[:bogus:]]*.never',
    '[unclosed.txt',
    '*.[oa]',
    'file[0-9][0-9].txt',
    '[A-Z]*.caps',
  ],
  unicode: ['café/', '*.résumé', 'naïve?.txt', '[é]tude', 'Ünïcode*', '日本語/', '*.тест', 'ÅNGSTRÖM.md'],
  stars: [
    '***',
    'x/***/y',
    '**/deep/**/leaf',
    '**/**/twice',
    'a**b',
    '**.orig',
    'mid*dle/*.x',
    '*/only-one-level',
    '*/*/two-levels.txt',
    'top/**',
    '**/',
    '/**/anchored-any',
  ],
};

const TEMPLATE_NAMES = Object.keys(TEMPLATES);

/** One rule set: its lines and how its file is written. */
interface RuleSet {
  readonly lines: readonly string[];
  readonly crlf: boolean;
  readonly bom: boolean;
}

/** Where a tree's rules are written. */
type RuleSource =
  | { readonly kind: 'gitignore'; readonly directory: string }
  | { readonly kind: 'info-exclude' }
  | { readonly kind: 'global' }
  | { readonly kind: 'excludes-file' };

export interface CorpusTree {
  readonly name: string;
  readonly ruleSet: RuleSet;
  readonly source: RuleSource;
  /** The repository has core.ignoreCase set to true. */
  readonly ignoreCase: boolean;
  /** Relative paths of the files to make (each holds NEEDLE), '/'-separated. */
  readonly files: readonly string[];
}

/** The word every corpus file holds, for search_content. */
export const NEEDLE = 'needle';

/** Names Agent FS hides always (its default agentFs.hiddenPaths) or VS Code excludes by default: left out of the trees. */
const NEVER_SHOWN = /^(\.env(\..*)?|.*\.pem|.*\.key|id_rsa.*|id_ed25519.*|\.git|\.DS_Store|Thumbs\.db|CVS|\.svn|\.hg|.*\.code-search)$/i;

/** A rule set of the corpus: lines from one to three templates, some rewritten the ways people write rules. */
function ruleSet(chooser: Chooser): RuleSet {
  const lines: string[] = [];
  const templates = Array.from({ length: 1 + chooser.int(3) }, () => chooser.pick(TEMPLATE_NAMES));
  for (const template of new Set(templates)) {
    if (chooser.chance(0.5)) lines.push(`# ${template}`);
    for (const line of TEMPLATES[template] ?? []) {
      if (!chooser.chance(0.75)) continue;
      lines.push(chooser.chance(0.15) ? variant(line, chooser) : line);
      if (chooser.chance(0.05)) lines.push('');
    }
  }
  return { lines, crlf: chooser.chance(0.15), bom: chooser.chance(0.08) };
}

/** A rule rewritten: anchored, made a directory rule, negated, given `**​/`, its case changed, trailing blanks. */
function variant(line: string, chooser: Chooser): string {
  const body = line.replace(/^!/, '');
  switch (chooser.int(7)) {
    case 0:
      return body.startsWith('/') ? body.slice(1) : `/${body}`;
    case 1:
      return body.endsWith('/') ? body.slice(0, -1) : `${body}/`;
    case 2:
      return line.startsWith('!') ? body : `!${body}`;
    case 3:
      return body.startsWith('**/') ? body : `**/${body.replace(/^\//, '')}`;
    case 4:
      return swapCase(line);
    case 5:
      return `${line}${chooser.pick([' ', '  ', '\t', ' \\ '])}`;
    default:
      return line.toUpperCase();
  }
}

function swapCase(text: string): string {
  return text.replace(/[A-Za-z]/g, (char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()));
}

/** A path made to meet `pattern` (a rule's body): wildcards filled in, escapes undone; undefined when none fits. */
function instance(pattern: string, chooser: Chooser): string | undefined {
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] ?? '';
    if (char === '\\') {
      out += pattern[++index] ?? '';
    } else if (char === '*') {
      let end = index;
      while (pattern[end] === '*') end++;
      const whole = end - index >= 2 && (index === 0 || pattern[index - 1] === '/') && (end === pattern.length || pattern[end] === '/');
      if (whole && pattern[end] === '/') {
        out += chooser.pick(['', 'd1/', 'd1/D2/']);
        end++;
      } else out += whole ? chooser.pick(['x', 'd1/x', 'd1/d2/y.txt']) : chooser.pick(['', 'x', 'Mid', '.a', '-1']);
      index = end - 1;
    } else if (char === '?') {
      out += chooser.pick(['q', 'Q', '_', '.', '7']);
    } else if (char === '[') {
      const close = pattern.indexOf(']', index + 2);
      if (close < 0) {
        out += char;
        continue;
      }
      const members = pattern
        .slice(index + 1, close)
        .replace(/^[!^]/, '')
        .replace(
          /\[:(\w+):/g,
          (_all, name: string) => ({ digit: '7', upper: 'K', lower: 'k', alpha: 'a', space: ' ', punct: '+', xdigit: 'f' })[name] ?? 'z',
        );
      const letters = [...members.replace(/[-\\]/g, '')];
      out += chooser.chance(0.2) ? chooser.pick(['Z', 'm', '0', '-']) : letters.length > 0 ? chooser.pick(letters) : 'z';
      index = close;
    } else out += char;
  }
  const segments = out.split('/').filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  if (segments.length === 0 || segments.some((segment) => segment.includes('\0') || segment === '.gitignore' || NEVER_SHOWN.test(segment)))
    return undefined;
  return segments.join('/');
}

/** The same name in other cases: what git shows on a case-sensitive file system and hides under core.ignoreCase. */
function caseVariant(relative: string, chooser: Chooser): string {
  const name = path.posix.basename(relative);
  const directory = path.posix.dirname(relative);
  const changed = chooser.pick([swapCase(name), name.toUpperCase(), name.toLowerCase(), name.charAt(0).toUpperCase() + name.slice(1)]);
  return directory === '.'
    ? changed
    : `${directory}/${chooser.chance(0.5) ? swapCase(directory) : directory}/${changed}`.replace(/^\.\//, '');
}

/** Files below `base` ('' for the root) for one rule, as the rule's kind calls for. */
function filesForRule(line: string, base: string, others: readonly string[], chooser: Chooser): string[] {
  const negated = line.startsWith('!');
  // git drops one CR at a line's end and the spaces after the rest ("Icon\r\r" names "Icon\r").
  let body = line
    .replace(/^!/, '')
    .replace(/[ \t]+$/, '')
    .replace(/\r$/, '');
  const directoryRule = body.endsWith('/');
  body = body.replace(/\/+$/, '');
  if (body === '') return [];
  const anchored = body.replace(/^\//, '').includes('/') || body.startsWith('/');
  const at = (relative: string): string => (base === '' ? relative : `${base}/${relative}`);
  const made = instance(body.replace(/^\//, ''), chooser);
  if (made === undefined) return [];
  const names = [made, ...(chooser.chance(0.6) ? [caseVariant(made, chooser)] : [])];
  const out: string[] = [];
  for (const name of names) {
    const places = anchored ? [at(name)] : [at(name), at(`sub/${name}`), at(`Sub/deeper/${name}`)].filter(() => chooser.chance(0.7));
    for (const place of places) {
      if (directoryRule) {
        out.push(`${place}/inner.txt`, `elsewhere/${path.posix.basename(place)}`);
        if (chooser.chance(0.3)) out.push(`${place}/nested/keep.md`);
      } else out.push(place);
      // Below a folder another rule names, where a negation cannot reach, and beside it, where it can.
      if (negated && others.length > 0) {
        const folder = instance(chooser.pick(others).replace(/^!/, '').replace(/^\//, '').replace(/\/+$/, ''), chooser);
        if (folder !== undefined) out.push(at(`${folder}/${path.posix.basename(name)}`));
      }
    }
  }
  return out;
}

/** The corpus: `count` rule sets from `seed`, each as a tree at the root and as one nested two folders down. */
export function corpus(seed: number, count: number): CorpusTree[] {
  const chooser = new Chooser(seeded(seed));
  const trees: CorpusTree[] = [];
  for (let index = 0; index < count; index++) {
    const rules = ruleSet(chooser);
    const ignoreCase = chooser.chance(0.1);
    const roll = chooser.int(20);
    const rootSource: RuleSource =
      roll === 0
        ? { kind: 'info-exclude' }
        : roll === 1
          ? { kind: 'global' }
          : roll === 2
            ? { kind: 'excludes-file' }
            : { kind: 'gitignore', directory: '' };
    for (const source of [rootSource, { kind: 'gitignore', directory: 'nested/pkg' } as const]) {
      const base = source.kind === 'gitignore' ? source.directory : '';
      const files = new Set<string>(['README.md', 'src/main.c', 'src/lib/util.py', 'docs/guide.md']);
      const others = rules.lines.filter((line) => line.trimEnd().endsWith('/') && !line.startsWith('!') && !line.startsWith('#'));
      for (const line of rules.lines) {
        if (line === '' || line.startsWith('#')) continue;
        for (const file of filesForRule(line, base, others, chooser)) files.add(file);
        // Outside the nested rules' folder the same names are out of their reach.
        if (base !== '' && chooser.chance(0.3)) for (const file of filesForRule(line, '', others, chooser)) files.add(file);
      }
      trees.push({
        name: `set ${index} (${source.kind === 'gitignore' ? `.gitignore in /${source.directory}` : source.kind})`,
        ruleSet: rules,
        source,
        ignoreCase,
        files: consistent([...files]),
      });
    }
  }
  return trees;
}

/** The paths that can all exist at once: a path whose folder another path takes as a file (or the reverse) is dropped. */
function consistent(paths: readonly string[]): string[] {
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const each of paths) {
    const parts = each.split('/');
    const ancestors = parts.slice(0, -1).map((_part, index) => parts.slice(0, index + 1).join('/'));
    if (folders.has(each) || files.has(each) || ancestors.some((folder) => files.has(folder))) continue;
    files.add(each);
    for (const folder of ancestors) folders.add(folder);
  }
  return [...files];
}

/** The text of a rule file, as its rule set writes it. */
function ruleFileBytes(rules: RuleSet): Buffer {
  // The comment at the end makes the rule file one search_content finds too.
  const text = [...rules.lines, `# ${NEEDLE}`].join(rules.crlf ? '\r\n' : '\n') + (rules.crlf ? '\r\n' : '\n');
  return Buffer.concat([rules.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
}

/** An environment for git with nothing of this machine's: its own HOME and XDG folder, no system config. */
export function gitEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    LC_ALL: 'C',
  };
}

function git(cwd: string, home: string, args: readonly string[]): string {
  const result = spawnSync('git', args, { cwd, env: gitEnv(home), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`git is needed here and could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/**
 * Writes `tree` into `root` (a new, empty folder) and `home` (its own): the files, a repository, and the rules where
 * the tree's source says.
 */
export function writeCorpusTree(root: string, home: string, tree: CorpusTree): void {
  initRepository(root, home);
  if (tree.ignoreCase) git(root, home, ['config', 'core.ignorecase', 'true']);
  for (const relative of tree.files) {
    const full = path.join(root, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, `${NEEDLE} in ${relative}\n`);
  }
  const bytes = ruleFileBytes(tree.ruleSet);
  const { source } = tree;
  if (source.kind === 'gitignore') {
    fs.mkdirSync(path.join(root, source.directory), { recursive: true });
    fs.writeFileSync(path.join(root, source.directory, '.gitignore'), bytes);
  } else if (source.kind === 'info-exclude') {
    fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), bytes);
  } else if (source.kind === 'global') {
    fs.writeFileSync(path.join(home, '.config', 'git', 'ignore'), bytes);
  } else {
    fs.writeFileSync(path.join(home, '.my-excludes'), bytes);
    fs.writeFileSync(path.join(home, '.gitconfig'), '[core]\n\texcludesFile = ~/.my-excludes\n');
  }
}

/** Makes `parent/root` (a tree's base directory) and `parent/home` (the HOME git and Agent FS run with). */
export function treeFolders(parent: string): { readonly root: string; readonly home: string } {
  const root = path.join(parent, 'root');
  const home = path.join(parent, 'home');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  return { root, home };
}

/** Makes `root` a git repository, with `home` as the HOME git runs with. */
export function initRepository(root: string, home: string): void {
  fs.mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
  git(root, home, ['init', '-q']);
}

/** What git shows of `root`: `git ls-files -o --exclude-standard`, every untracked file it does not ignore. */
export function gitShows(root: string, home: string): string[] {
  return git(root, home, ['ls-files', '-z', '--others', '--exclude-standard'])
    .split('\0')
    .filter((each) => each !== '')
    .sort();
}

/** Whether git ignores each of `paths` (relative to `root`): `git check-ignore`, one answer per path. */
export function gitIgnores(root: string, home: string, paths: readonly string[]): Set<string> {
  const result = spawnSync('git', ['check-ignore', '-z', '--stdin'], {
    cwd: root,
    env: gitEnv(home),
    input: paths.join('\0'),
    encoding: 'utf8',
  });
  // 1: none of them is ignored.
  if (result.status !== 0 && result.status !== 1) throw new Error(`git check-ignore failed: ${result.stderr}`);
  return new Set(result.stdout.split('\0').filter((each) => each !== ''));
}

/**
 * The four cases in which Agent FS answered otherwise than git before it read rules as git does: names in another
 * case than a rule, a nested .gitignore re-including what a root rule ignores beside a rule with a slash,
 * .git/info/exclude, and the user's global excludes file. Each writes its tree into `root` (made a repository) and
 * `home`.
 */
export const FOUR_CASES: readonly { readonly name: string; readonly write: (root: string, home: string) => void }[] = [
  {
    name: 'names in another case than a rule (shown on a case-sensitive file system)',
    write: (root, home) => {
      initRepository(root, home);
      writeTree(root, { '.gitignore': 'build/\n*.LOG\n', 'Build/a.txt': 'a\n', 'x.log': 'x\n', 'build/hidden.txt': 'h\n' });
    },
  },
  {
    name: 'a nested .gitignore re-including a folder the root ignores, beside a root rule with a slash',
    write: (root, home) => {
      initRepository(root, home);
      writeTree(root, {
        '.gitignore': '/.vscode/\nnode_modules\n',
        'a/b/pkg/.gitignore': '!/node_modules/\n',
        'a/b/pkg/node_modules/x/a.js': 'a\n',
        'node_modules/y/b.js': 'b\n',
      });
    },
  },
  {
    name: '.git/info/exclude',
    write: (root, home) => {
      initRepository(root, home);
      fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), 'secret.tmp\n');
      writeTree(root, { 'secret.tmp': 's\n', 'keep.txt': 'k\n', 'sub/secret.tmp': 's\n' });
    },
  },
  {
    name: "the user's global excludes file",
    write: (root, home) => {
      initRepository(root, home);
      fs.writeFileSync(path.join(home, '.config', 'git', 'ignore'), '*.swp\n');
      writeTree(root, { '.a.txt.swp': 's\n', 'a.txt': 'a\n', 'deep/b.swp': 'b\n' });
    },
  },
];
