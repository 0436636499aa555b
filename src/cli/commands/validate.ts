import { ValidationError, type Issue } from '../../errors.ts';
import type { ValidateFormat } from '../../render/validate.ts';
import { defineCommand } from '../context.ts';

interface Args {
  paths?: string[];
  format: ValidateFormat;
  cache: boolean;
}

export const validateCommand = defineCommand<Args>({
  command: 'validate [paths..]',
  describe: 'Check files offline: YAML syntax, schemas, references and duplicates',
  builder: (y) =>
    y
      .positional('paths', { type: 'string', array: true, describe: "Files or folders (default: the project's resources)" })
      .option('format', {
        choices: ['text', 'json', 'github'] as const,
        default: 'text' as const,
        describe: 'Output format; github prints ::error annotations',
      })
      .option('cache', {
        type: 'boolean',
        default: true,
        describe: 'Reuse unchanged files from .steward/cache (--no-cache, or STEWARD_NO_CACHE=1, parses every file)',
      })
      .example('steward validate', 'Check every resource the project file lists')
      .example('steward validate examples', 'Check the project in the examples folder')
      .example('steward validate --format github', 'Annotate a pull request (run in the project folder)'),
  run: async (args, ctx) => {
    // Loaded here, not at the top: `steward --version` and `--help` should not pay for YAML and schemas.
    const [{ nodeFileSystem }, { loadWorkspace }, { renderValidate }, { cacheWanted }] = await Promise.all([
      import('../../config/fs.ts'),
      import('../../config/load.ts'),
      import('../../render/validate.ts'),
      import('../../config/cache.ts'),
    ]);
    let issues: Issue[];
    let files = 0;
    const counts: Record<string, number> = { dashboard: 0, alert: 0, 'cloud service': 0 };
    try {
      const loaded = await loadWorkspace(
        { fs: nodeFileSystem, env: ctx.env, cwd: ctx.cwd },
        { config: args.config, envName: args.env, paths: args.paths, cache: cacheWanted(args.cache, ctx.env) },
      );
      if (loaded.project) ctx.secrets?.addProject(loaded.project.spec);
      issues = loaded.issues;
      files = loaded.files.length;
      for (const r of loaded.resources) {
        const key = r.kind === 'Dashboard' ? 'dashboard' : r.kind === 'Alert' ? 'alert' : 'cloud service';
        counts[key] = (counts[key] ?? 0) + 1;
      }
    } catch (e) {
      // A broken project file stops loading; it is still reported in the chosen format.
      if (!(e instanceof ValidationError)) throw e;
      issues = e.issues.map((i) => ({ ...i, file: relativeTo(ctx.cwd, i.file) }));
      files = 1;
    }
    ctx.io.stdout(renderValidate({ files, counts, issues }, args.format, { color: ctx.color }));
    return issues.some((i) => i.severity === 'error') ? 1 : 0;
  },
});

function relativeTo(cwd: string, file: string): string {
  return file.startsWith(cwd + '/') ? file.slice(cwd.length + 1) : file;
}
