import { resolve } from 'node:path';
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
    const { readPlanFile } = await import('../../apply/plan-file.ts');
    const plan = await readPlanFile(resolve(ctx.cwd, args.plan), args.plan);
    ctx.io.stdout(await renderPlan(plan, args.format, ctx, { showUnchanged: args.showUnchanged, out: args.plan }));
    return 0;
  },
});
