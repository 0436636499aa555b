/**
 * Runs steward commands against a prism mock and returns what prism saw, step by step: the generic piece
 * of the conformance suite. A profile's conformance test is a few lines:
 *
 * ```ts
 * const test = suite('conformance: hyperdx');
 * const [mock] = usePrism(test, [{ spec: 'hyperdx-2026-08-21', dynamic: true, seed: 1 }]);
 * test('examples/hyperdx', async () => {
 *   const run = await runConformance(mock.server, { project: join(EXAMPLES, 'hyperdx') });
 *   assert.equal(run.violations, [], formatViolations(run.violations));
 *   assert.ok(run.step('import-validate')!.code === 0);
 * });
 * ```
 *
 * Steps (default all, in this order): `validate`, `plan` (`--format json`), `apply` (`--auto-approve
 * --format json`), `import` (`--all --out imported`), `import-validate` (`validate imported`: every
 * imported file must validate). Each step's requests and violations are its own (the server's log is
 * cleared before it); the project is a temp copy, removed afterwards unless `keep` is set.
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import { steward } from '../helpers/exec.ts';
import { formatViolations, usePrism, type PrismOptions, type PrismRequest, type PrismServer, type PrismViolation } from '../helpers/prism.ts';
import { tmpProject } from '../helpers/tmp.ts';

export type StepName = 'validate' | 'plan' | 'apply' | 'import' | 'import-validate';

export const STEP_ARGS: Record<StepName, string[]> = {
  validate: ['validate'],
  plan: ['plan', '--format', 'json'],
  apply: ['apply', '--auto-approve', '--format', 'json'],
  import: ['import', '--all', '--out', 'imported'],
  'import-validate': ['validate', 'imported'],
};

export interface ConformanceStep {
  name: StepName | string;
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
  requests: PrismRequest[];
  violations: PrismViolation[];
}

export interface ConformanceRun {
  /** The temp project (gone after the run unless `keep`). */
  dir: string;
  steps: ConformanceStep[];
  /** Every violation of every step. */
  violations: PrismViolation[];
  step(name: string): ConformanceStep | undefined;
  /** Imported files (relative path → text), when the import step ran. */
  imported: Record<string, string>;
  cleanup(): void;
}

export interface ConformanceOptions {
  /** A project folder to copy (like examples/ or examples/hyperdx), or the files themselves. */
  project: string | Record<string, string>;
  /** Steps to run, by name or as raw argument lists (default: all five named steps). */
  steps?: (StepName | { name: string; args: string[] })[];
  /**
   * Environment for steward. Default: both APIs at the mock's URL with throwaway credentials
   * (STEWARD_OBS_URL, STEWARD_OBS_TOKEN, STEWARD_CLOUD_URL, STEWARD_CLOUD_KEY_ID, STEWARD_CLOUD_KEY_SECRET).
   */
  env?: Record<string, string>;
  /** Extra variables on top of the default environment (e.g. STEWARD_CLICKSTACK_ORGANIZATION_ID). */
  extraEnv?: Record<string, string>;
  /** Raise `requestsPerMinute: N` in the copy so the client's rate limit does not slow the run (default true). */
  fastRateLimit?: boolean;
  /** Keep the temp project (call run.cleanup() yourself). */
  keep?: boolean;
}

/** The environment that points a project's `${STEWARD_*}` variables at one mock. */
export function mockEnv(server: PrismServer): Record<string, string> {
  return {
    STEWARD_OBS_URL: server.url,
    STEWARD_OBS_TOKEN: 'conformance-token',
    STEWARD_CLOUD_URL: server.url,
    STEWARD_CLOUD_KEY_ID: 'conformance-key-id',
    STEWARD_CLOUD_KEY_SECRET: 'conformance-key-secret',
  };
}

export async function runConformance(server: PrismServer, opts: ConformanceOptions): Promise<ConformanceRun> {
  const p = tmpProject(typeof opts.project === 'string' ? {} : opts.project);
  if (typeof opts.project === 'string') cpSync(opts.project, p.dir, { recursive: true });
  if (opts.fastRateLimit ?? true) {
    for (const f of yamlFiles(p.dir)) {
      const text = readFileSync(f, 'utf8');
      if (/requestsPerMinute:\s*\d+/.test(text)) writeFileSync(f, text.replace(/requestsPerMinute:\s*\d+/g, 'requestsPerMinute: 60000'));
    }
  }
  const env = { ...(opts.env ?? mockEnv(server)), ...opts.extraEnv };
  const steps: ConformanceStep[] = [];
  try {
    for (const s of opts.steps ?? (Object.keys(STEP_ARGS) as StepName[])) {
      const { name, args } = typeof s === 'string' ? { name: s, args: STEP_ARGS[s] } : s;
      server.clear();
      const r = await steward(args, { cwd: p.dir, env });
      await server.settle();
      const requests = [...server.requests()];
      steps.push({ name, args, ...r, requests, violations: requests.flatMap((q) => q.violations) });
    }
  } catch (e) {
    p.cleanup();
    throw e;
  }
  const importedDir = join(p.dir, 'imported');
  const imported: Record<string, string> = {};
  if (existsSync(importedDir)) for (const f of yamlFiles(importedDir)) imported[f.slice(importedDir.length + 1)] = readFileSync(f, 'utf8');
  if (!opts.keep) p.cleanup();
  return {
    dir: p.dir,
    steps,
    violations: steps.flatMap((s) => s.violations),
    step: (name) => steps.find((s) => s.name === name),
    imported,
    cleanup: p.cleanup,
  };
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const f = join(dir, e);
    if (statSync(f).isDirectory()) out.push(...yamlFiles(f));
    else if (/\.ya?ml$/.test(e)) out.push(f);
  }
  return out.sort();
}

export interface ConformanceSuiteOptions extends Omit<ConformanceOptions, 'keep'> {
  /** The mocks: one test per entry, each against its own prism server (started together, in `before`). */
  mocks: PrismOptions[];
  /**
   * What each run must show. Default: every step exits 0 and prism saw no violation (request or response).
   * Throw (assert) to fail the test; `label` names the mock ("hyperdx-2026-08-21 generated, seed 1").
   */
  expect?: (run: ConformanceRun, label: string, mock: PrismOptions) => void | Promise<void>;
}

/** "hyperdx-2026-08-21 static", "... generated, seed 1", "... generated, seed 1, jsf {...}". */
export function mockLabel(m: PrismOptions): string {
  const spec = m.spec.includes('/') ? m.spec.slice(m.spec.lastIndexOf('/') + 1) : m.spec;
  return `${spec} ${m.dynamic ? `generated, seed ${m.seed ?? 'random'}` : 'static'}${m.jsf ? `, jsf ${JSON.stringify(m.jsf)}` : ''}`;
}

/** The default expectation: every step exits 0 and prism saw no violation. */
export function expectClean(run: ConformanceRun, label: string): void {
  for (const s of run.steps) {
    if (s.code !== 0) throw new Error(`${label}: steward ${s.args.join(' ')} exited ${s.code}\n${s.stdout.slice(0, 2000)}\n${s.stderr.slice(0, 2000)}`);
  }
  if (run.violations.length > 0) throw new Error(`${label}: prism saw violations:\n${formatViolations(run.violations)}`);
}

/**
 * A ready uvu suite: one test per mock, each running the steps of `runConformance` on a fresh copy of the
 * project. For a new profile:
 *
 * ```ts
 * conformanceSuite('conformance: hyperdx', {
 *   project: join(EXAMPLES, 'hyperdx'),
 *   mocks: [{ spec: 'hyperdx-2026-08-21' }, { spec: 'hyperdx-2026-08-21', dynamic: true, seed: 1 }],
 * }).run();
 * ```
 */
export function conformanceSuite(name: string, opts: ConformanceSuiteOptions): ReturnType<typeof suite> {
  const s = suite(name);
  const handles = usePrism(s, opts.mocks);
  const { mocks, expect = expectClean, ...runOpts } = opts;
  mocks.forEach((m, i) => {
    const label = mockLabel(m);
    s(label, async () => {
      const run = await runConformance(handles[i]!.server, runOpts);
      await expect(run, label, m);
    });
  });
  return s;
}
