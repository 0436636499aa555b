import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, UsageError } from '../../errors.ts';
import { defineCommand } from '../context.ts';

interface ImportArgs {
  all: boolean;
  name?: string[];
  id?: string[];
  out?: string;
  force: boolean;
}

const SCHEMA = fileURLToPath(new URL('../../../schemas/dashboard.schema.json', import.meta.url));

export const importCommand = defineCommand<ImportArgs>({
  command: 'import',
  describe: 'Write Dashboard YAML files from live dashboards (adoption, or the way out of a blocked drift)',
  builder: (y) =>
    y
      .option('all', { type: 'boolean', default: false, describe: 'Every live dashboard' })
      .option('name', { type: 'string', array: true, describe: 'The live dashboard with this name (repeatable)' })
      .option('id', { type: 'string', array: true, describe: 'The live dashboard with this id (repeatable)' })
      .option('out', { type: 'string', describe: 'Folder for the files (default: dashboards/ beside steward.yaml)' })
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite files that exist' })
      .example('steward import --id 65f5e4a3b9e77c001a567890 --force', 'Make the file match a drifted dashboard')
      .example('steward import --all --out dashboards/imported', 'Adopt every live dashboard'),
  run: async (args, ctx) => {
    const selectors = (args.all ? 1 : 0) + (args.name?.length ? 1 : 0) + (args.id?.length ? 1 : 0);
    if (selectors === 0) throw new UsageError('say what to import: --all, --name NAME or --id ID');
    const [{ nodeFileSystem }, { loadWorkspace }, { createDeps }, { renderDashboardYaml, slugify }, { writeFileAtomic }, { processFile }] = await Promise.all([
      import('../../config/fs.ts'),
      import('../../config/load.ts'),
      import('../deps.ts'),
      import('../../render/dashboard-yaml.ts'),
      import('../../atomic-write.ts'),
      import('../../config/resources.ts'),
    ]);
    const { checkSemantics } = await import('../../schema/semantic.ts');
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: ctx.env, cwd: ctx.cwd }, { config: args.config, envName: args.env, requireProject: true });
    const project = loaded.project!;
    const deps = createDeps(ctx, project, { debug: args.debug });
    const live = await deps.observability().listDashboards({ signal: ctx.signal });

    let chosen = args.all ? [...live] : [];
    for (const id of args.id ?? []) {
      const d = live.find((l) => l.id === id);
      if (!d) throw new CliError(`no live dashboard has id ${id}`, { code: 'api-not-found' });
      chosen.push(d);
    }
    for (const name of args.name ?? []) {
      const ds = live.filter((l) => l.name === name);
      if (ds.length === 0) throw new CliError(`no live dashboard is named "${name}"`, { code: 'api-not-found' });
      chosen.push(...ds);
    }
    chosen = [...new Map(chosen.map((d) => [d.id, d])).values()];

    const outDir = resolve(args.out ? ctx.cwd : project.dir, args.out ?? 'dashboards');
    mkdirSync(outDir, { recursive: true });
    const schemaPath = relative(outDir, SCHEMA).split(sep).join('/');
    // Keep the names files already use: a dashboard declared in a file keeps its metadata.name.
    const declared = new Map(loaded.resources.filter((r) => r.kind === 'Dashboard').map((r) => [r.kind === 'Dashboard' ? r.doc.spec.name : '', r.name]));
    const taken = new Set(loaded.resources.filter((r) => r.kind === 'Dashboard').map((r) => r.name));
    const nameCount = new Map<string, number>();
    for (const d of live) nameCount.set(d.name, (nameCount.get(d.name) ?? 0) + 1);

    let written = 0;
    const lines: string[] = [];
    for (const d of chosen) {
      let key = declared.get(d.name) ?? slugify(d.name);
      if (!declared.has(d.name) || (nameCount.get(d.name) ?? 0) > 1) {
        const base = key;
        for (let i = 2; taken.has(key); i++) key = `${base}-${i}`;
      }
      taken.add(key);
      const file = join(outDir, `${key}.yaml`);
      // The key is [a-z0-9-] only, so this cannot leave the folder; checked anyway.
      if (dirname(file) !== outDir) throw new CliError(`refusing to write outside ${outDir}: ${file}`);
      const { text, warnings } = renderDashboardYaml(d, { metadataName: key, markerTag: project.markerTag, schemaPath, pinId: (nameCount.get(d.name) ?? 0) > 1 });
      const check = processFile(file, Buffer.from(text), {}, { isProjectFile: false });
      const shown = relative(ctx.cwd, file) || file;
      // What steward's schema or the profile's own checks refuse (a live dashboard with 50 tags leaves no room
      // for the marker tag; a ClickStack select longer than HyperDX allows) is not written: a file steward
      // itself would refuse is no adoption. Said per dashboard, the others are imported, exit 1.
      const errors = check.issues.filter((i) => i.severity === 'error');
      const refused = errors.length
        ? `${errors[0]!.pointer ? `${errors[0]!.pointer}: ` : ''}${errors[0]!.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`
        : checkSemantics(check.resources, { api: project.spec.observability?.api }).find((p) => p.severity === 'error')?.message;
      if (refused) {
        lines.push(`  - skipped "${d.name}" (${d.id}): ${refused}`);
        continue;
      }
      if (existsSync(file) && !args.force) {
        lines.push(`  - skipped ${shown}: it exists (use --force to overwrite)`);
        continue;
      }
      writeFileAtomic(file, text);
      written++;
      lines.push(`  + ${shown}  ← "${d.name}" (${d.id})`);
      for (const w of warnings) lines.push(`      warning: ${w}`);
    }
    ctx.io.stdout(`Imported ${written} of ${chosen.length} dashboard${chosen.length === 1 ? '' : 's'}:\n${lines.join('\n')}\n`);
    if (written > 0) ctx.io.stdout('Check them with `steward validate`; `steward plan` now shows them as unchanged.\n');
    return lines.some((l) => l.startsWith('  - skipped')) ? 1 : 0;
  },
});
