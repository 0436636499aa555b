import { existsSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, UsageError, ValidationError } from '../../errors.ts';
import { escapeTerminal } from '../../render/escape.ts';
import { readRegularFile } from '../../shared/files.ts';
import { makeFolderInside, schemaModelinePath } from '../../shared/paths.ts';
import type { CommandContext } from '../context.ts';
import { packageFile } from '../../shared/package-root.ts';

/** HyperDX's own templates are under 100 KiB. */
const MAX_TEMPLATE_BYTES = 16 * 1024 * 1024;

const SCHEMA = fileURLToPath(packageFile('schemas/template.schema.json'));

/**
 * `steward import --template FILE`: one of HyperDX's dashboard template files to a steward Template, written
 * to `--out` (a folder, default templates/). Needs no project and no connection. The result is checked
 * before it is written: it must load, and stamp a valid dashboard for an example service.
 */
export async function importTemplate(args: { template: string; templateName?: string; out?: string; force: boolean }, ctx: CommandContext): Promise<number> {
  const [{ importHyperdxTemplate }, { processFile }, { expandTemplates }, { slugify, isReservedKey }, { writeFileAtomic }] = await Promise.all([
    import('../../templates/import-hyperdx.ts'),
    import('../../config/resources.ts'),
    import('../../templates/expand.ts'),
    import('../../render/dashboard-yaml.ts'),
    import('../../atomic-write.ts'),
  ]);
  const from = resolve(ctx.cwd, args.template);
  if (!existsSync(from)) throw new UsageError(`--template ${args.template}: no such file`);
  let text: string;
  try {
    // A template file is a few hundred KiB: a device or fifo named here could not hang or flood the import.
    const bytes = readRegularFile(from, MAX_TEMPLATE_BYTES);
    if (bytes.length > MAX_TEMPLATE_BYTES) throw new Error(`larger than ${MAX_TEMPLATE_BYTES / 1024 / 1024} MiB`);
    text = bytes.toString('utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`--template ${args.template}: ${code === 'ENOTREG' || code === 'EISDIR' ? 'not a regular file' : (e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${args.template}: not JSON (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`, { code: 'config' });
  }
  const name = args.templateName ?? slugify(basename(from).replace(/\.json$/i, ''));
  if (!/^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/.test(name)) throw new UsageError(`--template-name ${name}: use lowercase letters, digits, '.', '_' and '-'`);
  // Instances name the template by it, so it is refused rather than changed (the default, a slug, never is).
  if (isReservedKey(name))
    throw new UsageError(
      `--template-name ${name}: ${name}.yaml is a file name Windows or steward reserves (con, nul, aux.x, steward) or one over 200 characters; choose another`,
    );
  const outDir = resolve(ctx.cwd, args.out ?? 'templates');
  const file = join(outDir, `${name}.yaml`);
  let imported;
  try {
    imported = importHyperdxTemplate(json, { name, schemaPath: schemaModelinePath(SCHEMA, outDir, ctx.cwd), sourceFile: basename(from) });
  } catch (e) {
    throw new CliError(`${args.template}: ${e instanceof Error ? e.message : String(e)}`, { code: 'config' });
  }
  // Check what would be written: it loads, and a stamp of it is a valid dashboard.
  const check = processFile(file, Buffer.from(imported.text), {}, { isProjectFile: false });
  if (check.issues.some((i) => i.severity === 'error')) throw new ValidationError(check.issues);
  // Exactly the one Template: anything else in the text came from the template file, not from the import.
  if (check.resources.length !== 1 || check.resources[0]!.kind !== 'Template') {
    throw new CliError(
      `the template made from ${args.template} does not read back as one Template (${check.resources.map((r) => r.kind).join(', ') || 'nothing'}): refused, nothing written`,
    );
  }
  const instance = {
    kind: 'TemplateInstance',
    name: 'check',
    file: '(check)',
    index: 0,
    doc: { apiVersion: 'steward/v1', kind: 'TemplateInstance', metadata: { name: 'check' }, spec: { template: name, parameters: { service: 'example' } } },
  };
  const stamped = expandTemplates([...check.resources, instance as never]);
  const errors = stamped.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0)
    throw new CliError(
      // Most often the template's own gap (a tile without a source): not called steward's bug, though it can be.
      `the template made from ${args.template} does not stamp a valid dashboard: ${errors[0]!.pointer} ${errors[0]!.message}; nothing written (check the template file; if HyperDX reads it as it is, please report it as a bug in steward's import)`,
    );
  const shown = relative(ctx.cwd, file) || file;
  // As import's folders: never through a link in the work tree that leads outside it.
  makeFolderInside(ctx.cwd, outDir, 'the template');
  if (existsSync(file) && !args.force) {
    ctx.io.stdout(`skipped ${shown}: it exists (use --force to overwrite)\n`);
    return 1;
  }
  writeFileAtomic(file, imported.text);
  ctx.io.stdout(
    `Imported template ${name} → ${shown}\n${imported.warnings.map((w) => `  note: ${escapeTerminal(w)}\n`).join('')}Stamp it with a TemplateInstance (template: ${name}); see docs/templates.md.\n`,
  );
  return 0;
}
