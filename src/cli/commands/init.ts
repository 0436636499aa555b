import { createHash } from 'node:crypto';
import { existsSync, lstatSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, UsageError } from '../../errors.ts';
import { defineCommand } from '../context.ts';
import { MAX_LIVE_TAG_LENGTH } from '../../model/dashboard.ts';
import { DEFAULT_REQUESTS_PER_MINUTE } from '../../clients/settings.ts';
import { OBSERVABILITY_PROFILES } from '../../clients/profiles.ts';
import { packageFile } from '../../shared/package-root.ts';
import { makeDirs, readRegularFile } from '../../shared/files.ts';
import { refuseGitOutput, schemaModelinePath } from '../../shared/paths.ts';
import { escapeTerminal } from '../../render/escape.ts';

/** A .gitignore init adds to is read whole: a larger one is no .gitignore. */
const MAX_GITIGNORE_BYTES = 4 * 1024 * 1024;

interface InitArgs {
  dir?: string;
  name?: string;
  api: 'seed' | 'hyperdx' | 'clickstack-cloud';
}

const SCHEMAS = fileURLToPath(packageFile('schemas/'));

/** What `steward init` writes, relative to the project folder. Pure: the caller writes the files. */
export function initFiles(opts: { name: string; api: InitArgs['api']; schemaDir: (fileDir: string) => string }): Array<{ path: string; text: string }> {
  const modeline = (fileDir: string, schema: string) => `# yaml-language-server: $schema=${opts.schemaDir(fileDir)}/${schema}.schema.json\n`;
  const connection =
    opts.api === 'clickstack-cloud'
      ? [
          '    api: clickstack-cloud',
          '    url: ${STEWARD_OBS_URL}',
          '    keyId: { env: STEWARD_CLOUD_KEY_ID }',
          '    keySecret: { env: STEWARD_CLOUD_KEY_SECRET }',
          '    organizationId: ${STEWARD_CLICKSTACK_ORGANIZATION_ID}',
          '    serviceId: ${STEWARD_CLICKSTACK_SERVICE_ID}',
        ]
      : [...(opts.api === 'hyperdx' ? ['    api: hyperdx'] : []), '    url: ${STEWARD_OBS_URL}', '    token: { env: STEWARD_OBS_TOKEN }'];
  const project = [
    modeline('.', 'project').trimEnd(),
    `# The project file: where the resources are and how to reach the observability API.`,
    `# Credentials are never written here, only the names of the variables that hold them.`,
    'apiVersion: steward/v1',
    'kind: Project',
    'metadata:',
    `  name: ${opts.name}`,
    'spec:',
    '  resources:',
    '    - dashboards/**/*.yaml',
    '    # - alerts/**/*.yaml         (add it with your first alert)',
    '  observability:',
    ...connection,
    // The profile's default, written out so it is seen (and under ClickHouse Cloud's limit there).
    `    requestsPerMinute: ${OBSERVABILITY_PROFILES[opts.api].requestsPerMinute}` +
      (OBSERVABILITY_PROFILES[opts.api].requestsPerMinute < DEFAULT_REQUESTS_PER_MINUTE ? '   # ClickHouse Cloud allows 10 requests in 10 s per API key' : ''),
    ...markerLines(opts.name, opts.api),
    '  # What steward last sent to each alert: keep it where CI finds it again (committed, or an artifact).',
    '  state: .steward/state.json',
    '  journal: .steward/journal.jsonl',
    '',
  ].join('\n');
  const tile =
    opts.api === 'seed'
      ? ['      series:', '        - { type: time, dataSource: events, aggFn: count, where: "level:error", whereLanguage: lucene, groupBy: [service] }']
      : [
          '      config:',
          '        displayType: line',
          '        source: Logs',
          '        select: [{ aggFn: count, where: "SeverityText:error", whereLanguage: lucene }]',
        ];
  const dashboard = [
    modeline('dashboards', 'dashboard').trimEnd(),
    '# One dashboard to start from: `steward plan` shows it as a create, `steward apply` creates it.',
    'apiVersion: steward/v1',
    'kind: Dashboard',
    'metadata:',
    '  name: service-errors',
    'spec:',
    '  name: Service errors',
    '  tags: [team:platform]',
    '  tiles:',
    '    - name: Errors by service',
    '      x: 0',
    '      y: 0',
    '      w: 12',
    '      h: 4',
    ...tile,
    '',
  ].join('\n');
  const gitignore = [
    '# steward: the journal, the parse cache and locks are local; .steward/state.json is kept',
    '# (commit it, or keep it as a CI artifact: see docs/ci.md).',
    '.steward/*',
    '!.steward/state*.json',
    'plan.json',
    'reports/',
    '',
  ].join('\n');
  return [
    { path: 'steward.yaml', text: project },
    { path: 'dashboards/service-errors.yaml', text: dashboard },
    { path: '.gitignore', text: gitignore },
  ];
}

/**
 * The marker tag lines of the project file: the default (`managed-by:steward/<name>`) in a comment, or, where
 * that is longer than a live API's tags may be, a shorter one written out (the name cut, with a few characters
 * of its hash so that two long names stay apart).
 */
function markerLines(name: string, api: InitArgs['api']): string[] {
  const tag = `managed-by:steward/${name}`;
  if (api === 'seed' || tag.length <= MAX_LIVE_TAG_LENGTH) {
    return [`    # Dashboards steward creates carry a marker tag (default ${tag});`, '    # plan lists marked dashboards no file declares as orphans.'];
  }
  const room = MAX_LIVE_TAG_LENGTH - 'managed-by:steward/'.length - 5;
  const short = `managed-by:steward/${name.slice(0, room).replace(/[^a-z0-9]+$/, '')}-${createHash('sha256').update(name).digest('hex').slice(0, 4)}`;
  return [
    `    # Dashboards steward creates carry this marker tag; plan lists marked dashboards no file declares as`,
    `    # orphans. The default (${tag}) is longer than the ${MAX_LIVE_TAG_LENGTH} characters ${api} takes.`,
    `    markerTag: ${short}`,
  ];
}

/** A project name the schema accepts, from a folder name: lowercase, [a-z0-9._-], no leading/trailing punctuation. */
export function projectNameFrom(folder: string): string {
  const s = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return s.slice(0, 63) || 'observability';
}

const inside = (path: string, dir: string) => {
  const r = relative(dir, path);
  return r !== '' && !r.startsWith('..') && !r.startsWith(sep);
};

/** The schemas folder as a modeline reaches it: relative when steward is installed inside the project, else absolute. */
const schemaRef = (fileDir: string, projectDir: string): string => schemaModelinePath(SCHEMAS, fileDir, projectDir);

export const initCommand = defineCommand<InitArgs>({
  command: 'init [dir]',
  describe: 'Start a project: steward.yaml, one dashboard, schema modelines for editors, a .gitignore',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'Folder for the project (default: this one; created if missing)' })
      .option('name', {
        type: 'string',
        describe: 'metadata.name of the project (default: the folder name); the default marker tag is managed-by:steward/<name>',
      })
      .option('api', {
        choices: ['seed', 'hyperdx', 'clickstack-cloud'] as const,
        default: 'seed' as const,
        describe: 'Which observability API the project speaks (observability.api)',
      })
      .example('steward init checkout-observability', 'A new project in ./checkout-observability')
      .example('steward init --api hyperdx', 'A project for HyperDX in this folder'),
  run: async (args, ctx) => {
    const dir = resolve(ctx.cwd, args.dir ?? '.');
    const name = args.name ?? projectNameFrom(basename(dir));
    if (!/^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/.test(name)) {
      throw new UsageError(`--name ${name}: use lowercase letters, digits, '.', '_' and '-' (it names the project and its marker tag)`);
    }
    refuseGitOutput(ctx.cwd, dir, 'a project');
    // The folder, or the nearest part of its path that exists, must be a folder: a file there is the user's
    // mistake, named, not an ENOTDIR from the first lstat below read as "a bug in steward".
    for (let at = dir; ; at = dirname(at)) {
      let st: ReturnType<typeof lstatSync> | undefined;
      try {
        st = lstatSync(at, { throwIfNoEntry: false });
      } catch {
        st = undefined; // ENOTDIR: a file further up, found on the next turn
      }
      if (st && !st.isDirectory() && !st.isSymbolicLink()) {
        throw new UsageError(`${relative(ctx.cwd, at) || at} is a file, not a folder: init writes a project into a folder`);
      }
      if (st || dirname(at) === at) break;
    }
    const files = initFiles({
      name,
      api: args.api,
      schemaDir: (fileDir) => schemaRef(join(dir, fileDir), dir),
    });
    // Refuse before writing anything: init never overwrites. A .gitignore that exists is added to instead.
    const exists = files.filter((f) => f.path !== '.gitignore' && existsSync(join(dir, f.path)));
    if (exists.length > 0) {
      throw new CliError(
        `${exists.map((f) => relative(ctx.cwd, join(dir, f.path)) || f.path).join(', ')} already exist${exists.length === 1 ? 's' : ''}; init writes new projects only and overwrites nothing`,
        { code: 'usage' },
      );
    }
    // Nor does it write through a link (a dashboards/ or .gitignore that is a link would put the files, or
    // copy another file's text, somewhere else than the new project), nor begin a project it cannot finish: a
    // file where a folder goes, or a .gitignore that is a folder or a fifo (read, it hung init for good after
    // steward.yaml was written), is named before anything is written.
    const linked = new Set<string>();
    const blocked: string[] = [];
    for (const f of files) {
      let p = dir;
      const parts = f.path.split('/');
      for (const [i, part] of parts.entries()) {
        p = join(p, part);
        const st = lstatSync(p, { throwIfNoEntry: false });
        if (!st) break;
        if (st.isSymbolicLink()) linked.add(relative(ctx.cwd, p) || p);
        else if (i < parts.length - 1 ? !st.isDirectory() : !st.isFile())
          blocked.push(`${relative(ctx.cwd, p) || p} is ${i < parts.length - 1 ? 'not a folder' : 'not a regular file'}`);
        else continue;
        break;
      }
    }
    if (linked.size > 0) {
      throw new CliError(
        `${[...linked].join(', ')} ${linked.size === 1 ? 'is a link' : 'are links'}; init writes its files inside the folder, never through a link`,
        {
          code: 'usage',
        },
      );
    }
    if (blocked.length > 0) {
      throw new CliError(`${[...new Set(blocked)].join(', ')}: init writes a project only where nothing is in its way; nothing was written`, { code: 'usage' });
    }
    let oldIgnore: string | undefined;
    try {
      const bytes = readRegularFile(join(dir, '.gitignore'), MAX_GITIGNORE_BYTES, { noFollow: true });
      if (bytes.length > MAX_GITIGNORE_BYTES) throw new Error(`larger than ${MAX_GITIGNORE_BYTES / 1048576} MiB`);
      oldIgnore = bytes.toString('utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new CliError(
          `cannot read ${relative(ctx.cwd, join(dir, '.gitignore')) || '.gitignore'}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; nothing was written`,
          {
            code: 'usage',
            cause: e,
          },
        );
    }
    const { writeFileAtomic } = await import('../../atomic-write.ts');
    const lines: string[] = [];
    for (const f of files) {
      const path = join(dir, f.path);
      try {
        makeDirs(dirname(path));
      } catch (e) {
        throw new CliError(`cannot create ${relative(ctx.cwd, dirname(path)) || dirname(path)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, {
          code: 'usage',
          cause: e,
        });
      }
      let text = f.text;
      if (f.path === '.gitignore' && oldIgnore !== undefined) {
        const old = oldIgnore;
        if (old.includes('.steward/*')) continue;
        text = `${old}${old.endsWith('\n') || old === '' ? '' : '\n'}\n${f.text}`;
      }
      writeFileAtomic(path, text);
      lines.push(`  + ${escapeTerminal(relative(ctx.cwd, path) || f.path)}`);
    }
    const cd = relative(ctx.cwd, dir);
    if (!inside(SCHEMAS, dir)) {
      lines.push(
        `  (the schema modelines point at this installation's schemas, ${SCHEMAS.replace(/[\\/]$/, '')}; install steward in the project, npm install -D, to make them relative)`,
      );
    }
    const vars =
      args.api === 'clickstack-cloud'
        ? 'STEWARD_OBS_URL, STEWARD_CLOUD_KEY_ID, STEWARD_CLOUD_KEY_SECRET, STEWARD_CLICKSTACK_ORGANIZATION_ID, STEWARD_CLICKSTACK_SERVICE_ID'
        : 'STEWARD_OBS_URL, STEWARD_OBS_TOKEN';
    ctx.io.stdout(
      [
        `Wrote project ${name}:`,
        ...lines,
        '',
        'Next:',
        ...(cd ? [`  cd ${escapeTerminal(cd)}`] : []),
        '  steward validate              # offline: YAML, schemas, references',
        `  set ${vars}`,
        `                                # (or run \`steward emulator${args.api === 'seed' ? '' : ` --api ${args.api}`}\` and paste the exports it prints)`,
        '  steward plan                  # what would change (reads only)',
        '  steward apply                 # create the dashboard after you say yes',
        '',
      ].join('\n'),
    );
    return 0;
  },
});
