/**
 * The action's "Run steward" step, run as GitHub runs it (`bash --noprofile --norc -eo pipefail`), with the
 * step's env evaluated from the inputs, against a copy of examples/ and the emulator: what reaches the log,
 * the job summary, the outputs, and the step's exit status.
 */
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLES, examplesWithEmulator } from '../helpers/project.ts';
import { githubFiles, ROOT } from './files.ts';

const action = githubFiles().find((f) => f.kind === 'action')!;
const inputs = action.doc['inputs'] as Record<string, { default?: string }>;
const runStep = (action.doc['runs']['steps'] as Record<string, any>[]).find((s) => s['id'] === 'run')!;

/** The step's env as the runner computes it: each value is one `${{ inputs.x }}` or `${{ github.action_path }}`. */
function stepEnv(given: Record<string, string>): Record<string, string> {
  for (const k of Object.keys(given)) if (!(k in inputs)) throw new Error(`no input ${k}`);
  const values: Record<string, string> = { ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, v.default ?? ''])), ...given };
  return Object.fromEntries(
    Object.entries(runStep['env'] as Record<string, string>).map(([k, v]) => {
      const m = /^\$\{\{\s*(?:inputs\.([\w-]+)|(github\.action_path))\s*\}\}$/.exec(v);
      if (!m) throw new Error(`env ${k}: ${v} is not a plain input`);
      return [k, m[1] ? values[m[1]]! : ROOT.replace(/\/$/, '')];
    }),
  );
}

interface StepResult {
  code: number | null;
  log: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Runs the step in `workspace` (the job's GITHUB_WORKSPACE) with fresh GITHUB_OUTPUT, summary and temp folder. */
async function runAction(workspace: string, given: Record<string, string>, env: Record<string, string> = {}): Promise<StepResult> {
  const runner = mkdtempSync(join(tmpdir(), 'steward-runner-'));
  try {
    const script = join(runner, 'step.sh');
    writeFileSync(script, runStep['run']);
    const files = { GITHUB_OUTPUT: join(runner, 'output'), GITHUB_STEP_SUMMARY: join(runner, 'summary') };
    for (const f of Object.values(files)) writeFileSync(f, '');
    mkdirSync(join(runner, 'temp'));
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        cwd: workspace,
        env: {
          PATH: process.env['PATH'] ?? '',
          NO_COLOR: '1',
          GITHUB_WORKSPACE: workspace,
          RUNNER_TEMP: join(runner, 'temp'),
          ...files,
          ...env,
          ...stepEnv(given),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    const outputs: Record<string, string> = {};
    for (const line of readFileSync(files.GITHUB_OUTPUT, 'utf8').split('\n')) {
      const i = line.indexOf('=');
      if (i > 0) outputs[line.slice(0, i)] = line.slice(i + 1);
    }
    // Files the outputs point at live in the runner's temp folder: read them before it goes.
    if (outputs['markdown-file']) outputs['markdown'] = readFileSync(outputs['markdown-file'], 'utf8');
    return { code: r.code, log: r.stdout, stderr: r.stderr, outputs, summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8') };
  } finally {
    rmSync(runner, { recursive: true, force: true });
  }
}

test('the step script takes nothing from ${{ }}: every input arrives through env', () => {
  assert.type(runStep['run'], 'string');
  assert.not.match(runStep['run'], '${{');
  assert.is(runStep['shell'], 'bash');
});

test('validate in a subfolder: annotations name files from the workspace root; exit 1 fails the step', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'steward-ws-'));
  try {
    cpSync(EXAMPLES, join(ws, 'infra', 'steward'), { recursive: true });
    const alert = join(ws, 'infra', 'steward', 'alerts', 'checkout.yaml');
    writeFileSync(alert, readFileSync(alert, 'utf8').replace('threshold: 50', 'threshold: fifty'));
    const r = await runAction(ws, { command: 'validate', args: '--format github', 'working-directory': 'infra/steward' });
    assert.is(r.code, 1, r.log + r.stderr);
    assert.match(r.log, 'steward validate --format github\n');
    assert.match(r.log, /^::error file=infra\/steward\/alerts\/checkout\.yaml,line=\d+,col=\d+::/m);
    assert.match(r.log, '::error title=steward validate::exit 1');
    assert.is(r.outputs['exit-code'], '1');
    assert.is(r.outputs['markdown-file'], '');
    // The summary keeps steward's own paths, in a code block.
    assert.match(r.summary, '### steward validate (exit 1)\n\n````text\n::error file=alerts/checkout.yaml,');
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('bad inputs are refused before steward runs', async () => {
  const cases: [Record<string, string>, string][] = [
    [{ command: 'emulator' }, 'input command must be one of validate, plan, apply, report, import, demo; not "emulator"'],
    [{ command: 'validate', summary: 'yes' }, 'input summary must be true or false, not "yes"'],
    [{ command: 'validate', args: '--format "github' }, 'cannot split args (an unmatched quote?)'],
    [{ command: 'validate', 'working-directory': 'nowhere' }, 'working-directory "nowhere" is not a folder'],
  ];
  for (const [given, message] of cases) {
    const r = await runAction(tmpdir(), given);
    assert.is(r.code, 1, JSON.stringify(given));
    assert.match(r.log, `::error title=steward action::${message}`);
    assert.not.match(r.log, /^steward /m, 'steward did not run');
  }
});

test('an input holding a line break cannot start a workflow command of its own (red team, round 7)', async () => {
  const inputs: Array<Record<string, string>> = [
    { command: 'validate', args: "--target 'x\n::warning title=forged::by args\n::add-mask::a" },
    { command: 'plan\n::warning title=forged::by command"' },
    { command: 'validate', summary: 'no\r\n::stop-commands::t0k' },
  ];
  for (const given of inputs) {
    const r = await runAction(tmpdir(), given);
    assert.is(r.code, 1, JSON.stringify(given));
    const commands = r.log.split(/\r?\n/).filter((l) => l.startsWith('::'));
    assert.equal(commands.length, 1, r.log);
    assert.match(commands[0]!, /^::error title=steward action::.*%0A::/);
  }
});

// One emulator and one copy of examples/ for the steps of a pretend job, in order.
const job = suite<{ x?: Awaited<ReturnType<typeof examplesWithEmulator>> }>('action against the emulator', {});
job.before(async (ctx) => {
  ctx.x = await examplesWithEmulator();
});
job.after(async (ctx) => {
  await ctx.x?.cleanup();
});

job('args are split like a shell splits them, and nothing in them runs', async ({ x }) => {
  const r = await runAction(x!.dir, { command: 'plan', args: `--target "dashboard/checkout overview" '$(touch pwned)'` }, x!.env);
  assert.is(r.code, 1);
  assert.match(r.stderr, 'no Dashboard named "checkout overview"');
  assert.not.ok(existsSync(join(x!.dir, 'pwned')));
});

job('plan: Markdown in the job summary and the markdown-file output, plan.json saved, exit 0', async ({ x }) => {
  const r = await runAction(x!.dir, { command: 'plan' }, x!.env);
  assert.is(r.code, 0, r.log + r.stderr);
  assert.match(r.log, 'steward plan --out plan.json --format markdown\n');
  assert.is(r.outputs['exit-code'], '0');
  assert.is(r.outputs['plan-file'], join(x!.dir, 'plan.json'));
  assert.is(JSON.parse(readFileSync(join(x!.dir, 'plan.json'), 'utf8')).formatVersion, 1);
  assert.match(r.summary, /^## steward plan\n/);
  assert.match(r.summary, '| 🟢 create | 3 | 0 |');
  assert.is(r.outputs['markdown'], r.summary);
});

job('plan --detailed-exitcode: exit 2 is handed on, and fails the step only with fail-on-changes', async ({ x }) => {
  const pass = await runAction(x!.dir, { command: 'plan', args: '--detailed-exitcode', summary: 'false', 'plan-file': '' }, x!.env);
  assert.is(pass.code, 0, pass.log + pass.stderr);
  assert.is(pass.outputs['exit-code'], '2');
  assert.is(pass.outputs['plan-file'], '');
  assert.is(pass.summary, '');
  assert.match(pass.log, 'steward plan: 3 to create');
  const fail = await runAction(x!.dir, { command: 'plan', args: '--detailed-exitcode', 'fail-on-changes': 'true' }, x!.env);
  assert.is(fail.code, 1);
  assert.is(fail.outputs['exit-code'], '2');
  assert.match(fail.log, '::error title=steward plan::changes are pending (exit 2) and fail-on-changes is true');
});

job('apply --auto-approve: output in the summary as a code block; then plan has nothing to do', async ({ x }) => {
  const r = await runAction(x!.dir, { command: 'apply', args: '--auto-approve' }, x!.env);
  assert.is(r.code, 0, r.log + r.stderr);
  assert.match(r.summary, '### steward apply (exit 0)\n\n````text\n');
  assert.ok(existsSync(join(x!.dir, '.steward/state.json')));
  const again = await runAction(x!.dir, { command: 'plan', args: '--detailed-exitcode', 'fail-on-changes': 'true' }, x!.env);
  assert.is(again.code, 0, again.log + again.stderr);
  assert.is(again.outputs['exit-code'], '0');
});

job('report --fail-on error: Markdown in the summary; exit 2 fails the step unless fail-on-findings is false', async ({ x }) => {
  const r = await runAction(x!.dir, { command: 'report', args: '--out out/review --fail-on error' }, x!.env);
  assert.is(r.code, 1, r.log + r.stderr);
  assert.is(r.outputs['exit-code'], '2');
  assert.is(r.outputs['report-dir'], join(x!.dir, 'out/review'));
  assert.ok(existsSync(join(x!.dir, 'out/review/report.html')));
  assert.is(r.summary, readFileSync(join(x!.dir, 'out/review/report.md'), 'utf8'));
  assert.match(r.log, '::error title=steward report::findings reached the --fail-on severity');
  const tolerated = await runAction(x!.dir, { command: 'report', args: '--fail-on=error', 'fail-on-findings': 'false' }, x!.env);
  assert.is(tolerated.code, 0);
  assert.is(tolerated.outputs['exit-code'], '2');
  assert.is(tolerated.outputs['report-dir'], join(x!.dir, 'reports'));
});

job('outputs never name a path through a symbolic link (a later upload would follow it)', async ({ x }) => {
  // GIVEN a committed reports link to a folder outside the project, and one to a folder inside it (.steward)
  const outside = mkdtempSync(join(tmpdir(), 'steward-action-outside-'));
  try {
    writeFileSync(join(outside, 'credentials'), 'secret');
    symlinkSync(outside, join(x!.dir, 'linked-out'));
    const out = await runAction(x!.dir, { command: 'report', args: '--out linked-out' }, x!.env);
    assert.is(out.outputs['report-dir'], '', out.log);
    mkdirSync(join(x!.dir, 'inner'), { recursive: true });
    symlinkSync(join(x!.dir, 'inner'), join(x!.dir, 'linked-in'));
    const inside = await runAction(x!.dir, { command: 'report', args: '--out linked-in' }, x!.env);
    assert.is(inside.outputs['exit-code'], '0', inside.log);
    assert.is(inside.outputs['report-dir'], '', inside.log);
    // AND a real folder holding a committed link
    mkdirSync(join(x!.dir, 'holds-link'), { recursive: true });
    symlinkSync(join(outside, 'credentials'), join(x!.dir, 'holds-link', 'x'));
    const holding = await runAction(x!.dir, { command: 'report', args: '--out holds-link' }, x!.env);
    assert.is(holding.outputs['exit-code'], '0', holding.log);
    assert.is(holding.outputs['report-dir'], '', holding.log);
    // AND a plan file that is a committed link, with a plan that fails before writing it
    symlinkSync(join(outside, 'credentials'), join(x!.dir, 'linked-plan.json'));
    const plan = await runAction(
      x!.dir,
      { command: 'plan', args: '--out linked-plan.json', summary: 'false' },
      { ...x!.env, STEWARD_OBS_URL: 'http://127.0.0.1:9' },
    );
    assert.is(plan.outputs['plan-file'], '', plan.log);
  } finally {
    for (const f of ['linked-out', 'linked-in', 'linked-plan.json', 'holds-link']) rmSync(join(x!.dir, f), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});

test.run();
job.run();
