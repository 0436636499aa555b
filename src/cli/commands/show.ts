import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../../errors.ts';
import type { Plan } from '../../plan/types.ts';
import { defineCommand } from '../context.ts';
import { renderPlan } from './plan.ts';

interface ShowArgs {
  plan: string;
  format: 'text' | 'json' | 'markdown' | 'github';
  showUnchanged: boolean;
}

export const showCommand = defineCommand<ShowArgs>({
  command: 'show <plan>',
  describe: 'Print a plan saved by `steward plan --out` in any format, without reading the service',
  builder: (y) =>
    y
      .positional('plan', { type: 'string', demandOption: true, describe: 'The saved plan (JSON)' })
      .option('format', {
        choices: ['text', 'json', 'markdown', 'github'] as const,
        default: 'text' as const,
        describe: 'Output: text, json, markdown (PR comment), github (annotations)',
      })
      .option('show-unchanged', { type: 'boolean', default: false, describe: 'List unchanged items too (text)' })
      .example('steward show plan.json', 'Read a saved plan as the plan command printed it')
      .example('steward show plan.json --format markdown >> "$GITHUB_STEP_SUMMARY"', 'The PR comment of a saved plan'),
  run: async (args, ctx) => {
    const plan = readSavedPlan(resolve(ctx.cwd, args.plan), args.plan);
    ctx.io.stdout(await renderPlan(plan, args.format, ctx, { showUnchanged: args.showUnchanged, out: args.plan }));
    return 0;
  },
});

/** A plan file as `steward plan --out` writes it; one clear line when it is not one. */
export function readSavedPlan(path: string, shown: string): Plan {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read plan ${shown}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, {
      code: 'config',
      cause: e,
    });
  }
  let plan: Partial<Plan>;
  try {
    plan = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${shown} is not a plan: not valid JSON (${(e as Error).message})`, { code: 'config', cause: e });
  }
  if (
    !plan ||
    typeof plan !== 'object' ||
    plan.formatVersion !== 1 ||
    !Array.isArray(plan.items) ||
    typeof plan.fingerprint !== 'string' ||
    !plan.summary ||
    !plan.live
  ) {
    throw new CliError(`${shown} is not a steward plan (formatVersion 1 expected); make one with \`steward plan --out ${shown}\``, { code: 'config' });
  }
  return plan as Plan;
}
