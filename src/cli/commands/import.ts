import { defineCommand, redactForOutput, redactValue } from '../context.ts';
import { LOCK_TIMEOUT_OPTION, takeStateLock } from '../lock.ts';

interface ImportArgs {
  all: boolean;
  name?: string[];
  id?: string[];
  out?: string;
  force: boolean;
  /** A HyperDX dashboard template file to turn into a steward Template (src/cli/commands/import-template.ts). */
  template?: string;
  templateName?: string;
  lockTimeout?: string;
}

export const importCommand = defineCommand<ImportArgs>({
  command: 'import',
  describe:
    'Write Dashboard YAML from live dashboards (a file that declares one is rewritten in place: the way out of drift), and Alert files from live alerts where the service lists them',
  builder: (y) =>
    y
      .option('all', { type: 'boolean', default: false, describe: 'Every live dashboard (and alert, where the service lists them)' })
      .option('name', { type: 'string', array: true, describe: 'The live dashboard or alert with this name (repeatable)' })
      .option('id', { type: 'string', array: true, describe: 'The live dashboard or alert with this id (repeatable)' })
      .option('out', {
        type: 'string',
        describe:
          'Folder for new files (default: dashboards/ and alerts/ beside steward.yaml); with --out every chosen dashboard is written there as a new file, declared or not',
      })
      .option('force', {
        type: 'boolean',
        default: false,
        describe:
          'Overwrite new files that exist (a file that declares the dashboard is always rewritten in place; a project file declaring other resources, or one this run wrote, is never overwritten: the new file takes the next free name)',
      })
      .option('template', {
        type: 'string',
        describe: 'A HyperDX dashboard template (JSON) to write as a steward Template (source names become parameters; --out: folder, default templates/)',
      })
      .option('lock-timeout', LOCK_TIMEOUT_OPTION)
      .option('template-name', { type: 'string', describe: 'metadata.name of the Template written by --template (default: from the file name)' })
      .example('steward import --id 65f5e4a3b9e77c001a567890', 'Make the file that declares a drifted dashboard match it (in place, comments kept)')
      .example('steward import --all --out dashboards/imported', 'Adopt every live dashboard')
      .example(
        'steward import --template jvm-runtime-metrics.json --template-name jvm-runtime',
        "Turn HyperDX's JVM dashboard template into templates/jvm-runtime.yaml",
      ),
  run: async (args, ctx) => {
    if (args.template !== undefined) {
      const { importTemplate } = await import('./import-template.ts');
      return importTemplate({ template: args.template, templateName: args.templateName, out: args.out, force: args.force }, ctx);
    }
    const [{ makeImport }, { createDeps }] = await Promise.all([import('../../workflows/import.ts'), import('../deps.ts')]);
    const r = await makeImport(
      {
        cwd: ctx.cwd,
        env: ctx.env,
        signal: ctx.signal,
        connect: (project) => createDeps(ctx, project, { debug: args.debug }),
        redactValue: (v) => redactValue(ctx, v),
        redactText: (t) => redactForOutput(ctx, t),
        // Files are written under the lock apply takes (released by main however the command ends).
        lock: (statePath) => takeStateLock(ctx, statePath, 'steward import', args.lockTimeout),
      },
      { all: args.all, name: args.name, id: args.id, out: args.out, force: args.force, config: args.config, env: args.env },
    );
    // An empty service (an empty list is a valid answer of every spec): said in words, not "0 of 0 dashboards:".
    ctx.io.stdout(
      r.total === 0 && r.lines.length === 0
        ? `Nothing to import: the service lists no dashboards${r.readsAlerts ? ' and no alerts' : ''}.\n`
        : `Imported ${r.written} of ${r.total} ${r.alerts > 0 ? 'dashboards and alerts' : `dashboard${r.total === 1 ? '' : 's'}`}:\n${r.lines.join('\n')}\n`,
    );
    // Escaped as every line above: the names come from the live service.
    const { escapeTerminal } = await import('../../render/escape.ts');
    const few = (files: string[]) => files.slice(0, 3).join(', ') + (files.length > 3 ? ` (and ${files.length - 3} more)` : '');
    const they = (n: number) => (n === 1 ? 'it' : 'them');
    if (r.unread.length > 0 && args.out !== undefined) {
      // A folder of copies by choice: said, not warned.
      ctx.io.stdout(
        escapeTerminal(
          `note: spec.resources reads none of ${r.unread.length === 1 ? 'this file' : `these ${r.unread.length} files`} (${few(r.unread)}): validate, plan and apply do not see ${they(r.unread.length)}`,
        ) + '\n',
      );
    } else if (r.unread.length > 0) {
      const folders = [...new Set(r.unread.map((f) => (f.includes('/') ? `${f.slice(0, f.lastIndexOf('/'))}/**/*.yaml` : '*.yaml')))];
      ctx.io.stdout(
        escapeTerminal(
          `warning: the project's spec.resources reads none of ${r.unread.length === 1 ? 'this file' : `these ${r.unread.length} files`}: ${few(r.unread)}; validate, plan and apply do not see ${they(r.unread.length)} until it does: add ${folders.map((g) => JSON.stringify(g)).join(' and ')} to spec.resources`,
        ) + '\n',
      );
    }
    for (const { file, declaredIn } of r.repeats.slice(0, 3))
      ctx.io.stdout(
        escapeTerminal(
          `warning: ${file} declares again what ${declaredIn} declares, and spec.resources reads both: validate refuses the project until one goes (delete one, or give --out a folder spec.resources does not read)`,
        ) + '\n',
      );
    if (r.repeats.length > 3) ctx.io.stdout(`warning: and ${r.repeats.length - 3} more files declare again what a project file declares\n`);
    if (r.written > 0) {
      // "Unchanged" is only true of files plan reads and that declare nothing twice.
      const promise =
        r.repeats.length > 0
          ? ''
          : r.unread.length === 0
            ? '; plan now shows them as unchanged'
            : args.out === undefined
              ? '; plan now shows them as unchanged once spec.resources reads them'
              : '';
      ctx.io.stdout(
        `Check them with \`steward validate\` and \`steward plan\`${args.out === undefined ? ' (review rewritten files with \`git diff\`)' : ''}${promise}${promise && r.alerts > 0 ? " (an alert steward did not create is updated once, to carry its marker in the note; one without a name also takes its file's)" : ''}.\n`,
      );
    }
    return r.failed ? 1 : 0;
  },
});
