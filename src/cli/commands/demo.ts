import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineCommand, type CommandContext, type CommandSpec } from '../context.ts';
import { applyCommand } from './apply.ts';
import { planCommand } from './plan.ts';
import { reportCommand } from './report.ts';
import { validateCommand } from './validate.ts';
import { ALLOWED_HOSTS_VAR } from '../../config/allowed-hosts.ts';
import { CliError } from '../../errors.ts';
import { painter } from '../../shared/colour.ts';
import { packageFile } from '../../shared/package-root.ts';

interface DemoArgs {
  examples?: string;
  out: string;
  keep: boolean;
}

const EXAMPLES = fileURLToPath(packageFile('examples'));

/** Steps run once the emulator is up. */
export const demoSteps: Array<{ title: string; command: CommandSpec<any>; args: (out: string) => Record<string, unknown>; okCodes: number[] }> = [
  { title: 'steward validate', command: validateCommand, args: () => ({ format: 'text' }), okCodes: [0] },
  {
    title: 'steward plan',
    command: planCommand,
    args: () => ({ format: 'text', detailedExitcode: true, reassertAlerts: false, showUnchanged: false }),
    okCodes: [0, 2],
  },
  { title: 'steward apply --auto-approve', command: applyCommand, args: () => ({ format: 'text', autoApprove: true, reassertAlerts: false }), okCodes: [0] },
  {
    title: 'steward plan --detailed-exitcode   (again: now nothing to do)',
    command: planCommand,
    args: () => ({ format: 'text', detailedExitcode: true, reassertAlerts: false, showUnchanged: false }),
    okCodes: [0],
  },
  {
    title: 'steward report   (drift review of the cloud service; findings are expected)',
    command: reportCommand,
    args: (out) => ({ out, format: 'text' }),
    okCodes: [0],
  },
];

const UNTHROTTLED = "its client rate limit raised from the real service's 100 requests a minute to 6000: the emulator sets none";

/**
 * The bundled examples carry the real service's limit of 100 requests a minute, which would make the demo
 * wait about 20 s between steps for a server that has no limit. The working copy raises it; examples/
 * keeps the real figure for users who copy it.
 */
function unthrottle(dir: string): void {
  const file = join(dir, 'steward.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll('requestsPerMinute: 100', 'requestsPerMinute: 6000'));
}

const planArgs = { format: 'text', detailedExitcode: true, reassertAlerts: false, showUnchanged: false };

/**
 * The second part, on examples/hyperdx against an emulator speaking HyperDX's API v2: what the live
 * profiles add. Between steps the demo plays a colleague: a tag added in the UI, a file deleted.
 */
export const hyperdxSteps: Array<{ title: string; command: CommandSpec<any>; args: () => Record<string, unknown>; okCodes: number[]; after?: 'edit' }> = [
  {
    title: 'steward apply --auto-approve   (hyperdx: dashboards and alerts created)',
    command: applyCommand,
    args: () => ({ format: 'text', autoApprove: true, reassertAlerts: false }),
    okCodes: [0],
    after: 'edit',
  },
  {
    title: 'steward plan --prune   (an edit in the UI is an update; a deleted file is a delete)',
    command: planCommand,
    args: () => ({ ...planArgs, prune: true }),
    okCodes: [2],
  },
  {
    title: 'steward apply --prune --auto-approve',
    command: applyCommand,
    args: () => ({ format: 'text', autoApprove: true, reassertAlerts: false, prune: true }),
    okCodes: [0],
  },
  { title: 'steward plan --detailed-exitcode   (again: nothing to do)', command: planCommand, args: () => planArgs, okCodes: [0] },
];

/** What a colleague did between two steps: a tag added to a dashboard in the UI, and the JVM file deleted. */
async function editAsColleague(url: string, work: string): Promise<string> {
  const headers = { authorization: 'Bearer dev-token', 'content-type': 'application/json' };
  const list = (await (await fetch(`${url}/api/v2/dashboards`, { headers })).json()) as {
    data: Array<Record<string, unknown> & { id: string; name: string; tags?: string[] }>;
  };
  const d = list.data.find((x) => x.name.startsWith('Checkout overview'));
  if (d) {
    const { id, ...body } = d;
    await fetch(`${url}/api/v2/dashboards/${id}`, { method: 'PUT', headers, body: JSON.stringify({ ...body, tags: [...(d.tags ?? []), 'edited-in-the-ui'] }) });
  }
  rmSync(join(work, 'dashboards/jvm.yaml'), { force: true });
  return 'Meanwhile a colleague added the tag "edited-in-the-ui" to Checkout overview in the UI, and deleted dashboards/jvm.yaml.\n';
}

/**
 * A new folder in the system's temp folder for a working copy. One that cannot be made (TMPDIR naming a folder
 * that is gone or read-only) is the environment's, said in one line: it was "a bug in steward" (red team,
 * round 17).
 */
function workFolder(prefix: string): string {
  try {
    return mkdtempSync(join(tmpdir(), prefix));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new CliError(`cannot make the demo's working copy in ${tmpdir()} (${code}): set TMPDIR to a folder you can write to`, { cause: e });
  }
}

export const demoCommand = defineCommand<DemoArgs>({
  command: 'demo',
  describe:
    'Start the built-in emulator and run validate, plan, apply, plan and report on examples/, then apply, plan --prune and apply on examples/hyperdx (what `npm start` runs)',
  builder: (y) =>
    y
      .option('examples', { type: 'string', describe: 'A project folder to use instead of the bundled examples/' })
      .option('out', { type: 'string', default: 'reports', describe: 'Where the report files go' })
      .option('keep', { type: 'boolean', default: false, describe: 'Keep the working copy (state file and journal) instead of deleting it' })
      .example('npm start', 'The same as steward demo'),
  run: async (args, ctx) => {
    const { startEmulator } = await import('../../emulator/index.ts');
    const source = args.examples ? resolve(ctx.cwd, args.examples) : EXAMPLES;
    // Checked before the working copy is made: a wrong path is the user's mistake, named as such, and leaves
    // no empty steward-demo-* folder behind (cpSync's ENOENT read as "a bug in steward").
    if (args.examples) {
      const st = statSync(source, { throwIfNoEntry: false });
      if (!st?.isDirectory()) throw new CliError(`--examples ${args.examples}: ${st ? 'not a folder' : 'no such folder'}`, { code: 'usage' });
      if (!existsSync(join(source, 'steward.yaml')) && !existsSync(join(source, 'steward.yml'))) {
        throw new CliError(`--examples ${args.examples}: no steward.yaml in that folder; give a project folder, like examples/`, { code: 'usage' });
      }
    }
    // A working copy, so the state file and journal of this run never meet a later run's fresh emulator.
    const work = workFolder('steward-demo-');
    cpSync(source, work, { recursive: true, filter: (src) => !src.includes(`${'/'}.steward`) });
    if (!args.examples) unthrottle(work);
    const emu = await startEmulator({ port: 0 });
    const out = resolve(ctx.cwd, args.out);
    const say = (s: string) => ctx.io.stdout(s);
    const bold = (s: string) => painter(ctx.color)('bold', s);
    say(`${bold('steward demo')}: the emulator serves both APIs at ${emu.url} (token dev-token, key dev-key/dev-secret);\n`);
    say(`working copy of the examples: ${work}${args.examples ? '' : ` (${UNTHROTTLED})`}\n`);
    const sub: CommandContext = { ...ctx, cwd: work, env: demoEnv(ctx.env, emu) };
    const steps = demoSteps;
    try {
      for (const [i, step] of steps.entries()) {
        say(`\n${bold(`── ${i + 1}/${steps.length}  ${step.title} ${'─'.repeat(Math.max(0, 60 - step.title.length))}`)}\n\n`);
        const code = await step.command.run({ debug: args.debug, color: args.color, ...step.args(out) } as never, sub);
        if (!step.okCodes.includes(code)) {
          say(`\nThe demo stopped: ${step.title} exited ${code}.\n`);
          return 1;
        }
      }
      if (!args.examples) {
        const hx = await startEmulator({ port: 0, api: 'hyperdx' });
        const hxWork = workFolder('steward-demo-hyperdx-');
        cpSync(join(EXAMPLES, 'hyperdx'), hxWork, { recursive: true, filter: (src) => !src.includes(`${'/'}.steward`) });
        unthrottle(hxWork);
        try {
          say(
            `\n${bold('Part 2: the hyperdx profile')} (examples/hyperdx): an emulator speaking HyperDX's API v2 at ${hx.url}, where dashboards can be updated and deleted and alerts read.\n`,
          );
          const hxSub: CommandContext = { ...ctx, cwd: hxWork, env: demoEnv(ctx.env, hx) };
          for (const [i, step] of hyperdxSteps.entries()) {
            say(`\n${bold(`── ${i + 1}/${hyperdxSteps.length}  ${step.title} ${'─'.repeat(Math.max(0, 60 - step.title.length))}`)}\n\n`);
            const code = await step.command.run({ debug: args.debug, color: args.color, ...step.args() } as never, hxSub);
            if (!step.okCodes.includes(code)) {
              say(`\nThe demo stopped: ${step.title} exited ${code}.\n`);
              return 1;
            }
            if (step.after === 'edit') say(`\n${await editAsColleague(hx.url, hxWork)}`);
          }
        } finally {
          await hx.close();
          rmSync(hxWork, { recursive: true, force: true });
        }
      }
      say(`\n${bold('Done.')} Every step ran against the emulator; nothing left this machine.\n`);
      say(`The drift report is in ${out}/ (report.md, report.json, report.html).\n`);
      say(`Next: copy examples/ into your repository, point steward.yaml at your services, and run \`steward plan\`.\n`);
      return 0;
    } finally {
      await emu.close();
      if (!args.keep) rmSync(work, { recursive: true, force: true });
      else say(`Kept the working copy: ${work}\n`);
    }
  },
});

/**
 * The demo's steps talk to its own emulator on this machine only: the user's STEWARD_ALLOWED_HOSTS (set for
 * their real service) would refuse it, so the steps' list is that emulator alone. Not unset: `--examples` runs
 * a project folder a pull request may have changed, whose url and token variable would then go unchecked.
 */
function demoEnv(base: CommandContext['env'], emulator: { env: Record<string, string>; url: string }): CommandContext['env'] {
  return { ...base, ...emulator.env, [ALLOWED_HOSTS_VAR]: new URL(emulator.url).host };
}
