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
    const [{ makeValidate }, { renderValidate }] = await Promise.all([import('../../workflows/validate.ts'), import('../../render/validate.ts')]);
    const v = await makeValidate(ctx, { config: args.config, env: args.env, paths: args.paths, cache: args.cache });
    if (v.project) ctx.secrets?.addProject(v.project.spec);
    ctx.io.stdout(renderValidate(v, args.format, { color: ctx.color }));
    return v.issues.some((i) => i.severity === 'error') ? 1 : 0;
  },
});
