import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineCommand, type CommandContext, type CommandSpec } from '../context.ts';
import { applyCommand } from './apply.ts';
import { planCommand } from './plan.ts';
import { reportCommand } from './report.ts';
import { validateCommand } from './validate.ts';

interface DemoArgs {
  examples?: string;
  out: string;
  keep: boolean;
}

const EXAMPLES = fileURLToPath(new URL('../../../examples', import.meta.url));

/** Steps run once the emulator is up. */
export const demoSteps: Array<{ title: string; command: CommandSpec<any>; args: (out: string) => Record<string, unknown>; okCodes: number[] }> = [
  { title: 'steward validate', command: validateCommand, args: () => ({ format: 'text' }), okCodes: [0] },
  { title: 'steward plan', command: planCommand, args: () => ({ format: 'text', detailedExitcode: true, reassertAlerts: false, showUnchanged: false }), okCodes: [0, 2] },
  { title: 'steward apply --auto-approve', command: applyCommand, args: () => ({ format: 'text', autoApprove: true, reassertAlerts: false }), okCodes: [0] },
  { title: 'steward plan --detailed-exitcode   (again: now nothing to do)', command: planCommand, args: () => ({ format: 'text', detailedExitcode: true, reassertAlerts: false, showUnchanged: false }), okCodes: [0] },
  { title: 'steward report   (drift review of the cloud service; findings are expected)', command: reportCommand, args: (out) => ({ out, format: 'text' }), okCodes: [0] },
];

export const demoCommand = defineCommand<DemoArgs>({
  command: 'demo',
  describe: 'Start the built-in emulator and run validate, plan, apply, plan and report on examples/ (what `npm start` runs)',
  builder: (y) =>
    y
      .option('examples', { type: 'string', describe: 'A project folder to use instead of the bundled examples/' })
      .option('out', { type: 'string', default: 'reports', describe: 'Where the report files go' })
      .option('keep', { type: 'boolean', default: false, describe: 'Keep the working copy (state file and journal) instead of deleting it' })
      .example('npm start', 'The same as steward demo'),
  run: async (args, ctx) => {
    const { startEmulator } = await import('../../emulator/index.ts');
    // A working copy, so the state file and journal of this run never meet a later run's fresh emulator.
    const work = mkdtempSync(join(tmpdir(), 'steward-demo-'));
    cpSync(args.examples ? resolve(ctx.cwd, args.examples) : EXAMPLES, work, { recursive: true, filter: (src) => !src.includes(`${'/'}.steward`) });
    const emu = await startEmulator({ port: 0 });
    const out = resolve(ctx.cwd, args.out);
    const say = (s: string) => ctx.io.stdout(s);
    const bold = (s: string) => (ctx.color ? `\u001b[1m${s}\u001b[22m` : s);
    say(`${bold('steward demo')}: the emulator serves both APIs at ${emu.url} (token dev-token, key dev-key/dev-secret);\n`);
    say(`working copy of the examples: ${work}\n`);
    const sub: CommandContext = { ...ctx, cwd: work, env: { ...ctx.env, ...emu.env } };
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
