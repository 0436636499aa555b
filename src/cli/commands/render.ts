import { relative } from 'node:path';
import { UsageError, ValidationError } from '../../errors.ts';
import { defineCommand } from '../context.ts';
import { escapePathAtLineStart, escapeTerminal } from '../../render/escape.ts';

interface RenderArgs {
  paths?: string[];
  target?: string[];
  all: boolean;
  cache: boolean;
}

export const renderCommand = defineCommand<RenderArgs>({
  command: 'render [paths..]',
  describe: 'Print the dashboards and alerts that templates stamp, as YAML (offline; for review and debugging)',
  builder: (y) =>
    y
      .positional('paths', { type: 'string', array: true, describe: "Files or folders (default: the project's resources)" })
      .option('target', { type: 'string', array: true, describe: 'Only this resource, as kind/name (repeatable), like dashboard/jvm-runtime/checkout' })
      .option('all', { type: 'boolean', default: false, describe: 'Every resource, the hand-written ones too' })
      .option('cache', {
        type: 'boolean',
        default: true,
        describe: 'Reuse unchanged files from .steward/cache (--no-cache, or STEWARD_NO_CACHE=1, parses every file)',
      })
      .example('steward render', 'Every stamped dashboard and alert')
      .example('steward render --target dashboard/jvm-runtime/checkout', 'One stamp'),
  run: async (args, ctx) => {
    const [{ nodeFileSystem }, { loadWorkspace }, { cacheWanted }, { renderResourcesYaml }] = await Promise.all([
      import('../../config/fs.ts'),
      import('../../config/load.ts'),
      import('../../config/cache.ts'),
      import('../../templates/render-yaml.ts'),
    ]);
    const loaded = await loadWorkspace(
      { fs: nodeFileSystem, env: ctx.env, cwd: ctx.cwd, signal: ctx.signal },
      { config: args.config, envName: args.env, paths: args.paths, cache: cacheWanted(args.cache, ctx.env) },
    );
    if (loaded.issues.some((i) => i.severity === 'error')) throw new ValidationError(loaded.issues);
    let chosen = loaded.resources.filter((r) => (r.kind === 'Dashboard' || r.kind === 'Alert') && (args.all || r.index < 0));
    if (args.target?.length) {
      const wanted = new Set<string>();
      for (const t of args.target) {
        const m = /^([A-Za-z]+)\/(.+)$/.exec(t);
        const kind = m ? ({ dashboard: 'Dashboard', alert: 'Alert' } as Record<string, string>)[m[1]!.toLowerCase()] : undefined;
        if (!m || !kind) throw new UsageError(`--target ${t}: write kind/name, like dashboard/jvm-runtime/checkout`);
        if (!loaded.resources.some((r) => r.kind === kind && r.name === m[2])) {
          throw new UsageError(
            `--target ${t}: no ${kind} named "${m[2]}" (there are: ${
              loaded.resources
                .filter((r) => r.kind === kind)
                .map((r) => r.name)
                .join(', ') || 'none'
            })`,
          );
        }
        wanted.add(`${kind}/${m[2]}`);
      }
      chosen = loaded.resources.filter((r) => wanted.has(`${r.kind}/${r.name}`));
    }
    ctx.io.stdout(renderResourcesYaml(chosen, (f) => relative(ctx.cwd, f) || f));
    for (const i of loaded.issues) ctx.io.stderr(`${escapePathAtLineStart(i.file)}:${i.line}:${i.col}  warning: ${escapeTerminal(i.message)}\n`);
    return 0;
  },
});
