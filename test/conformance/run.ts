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
import { steward } from '../helpers/exec.ts';
import type { PrismRequest, PrismServer, PrismViolation } from '../helpers/prism.ts';
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
