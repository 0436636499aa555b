/**
 * A steward project for `steward report` with `cloud.api: clickhouse-cloud`, and a runner that reads the
 * report's JSON: shared by the conformance suite (prism) and the emulator end-to-end test.
 */
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import * as assert from 'uvu/assert';
import type { Report, ServiceReport } from '../../src/report/types.ts';

export const ORG = '6f1c4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c';
export const SVC = '9a2b4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c';

export function cloudProject(api: 'seed' | 'clickhouse-cloud', service = { org: ORG, svc: SVC }): Record<string, string> {
  return {
    'steward.yaml': `apiVersion: steward/v1
kind: Project
spec:
  resources: ["cloud/**/*.yaml"]
  cloud:
    api: ${api}
    url: \${STEWARD_CLOUD_URL}
    keyId: { env: STEWARD_CLOUD_KEY_ID }
    keySecret: { env: STEWARD_CLOUD_KEY_SECRET }
    requestsPerMinute: 6000
`,
    'cloud/prod.yaml': `apiVersion: steward/v1
kind: CloudService
metadata: { name: prod }
spec:
  organizationId: ${service.org}
  serviceId: ${service.svc}
  backups: { maxAgeHours: 26, minCount: 1, maxDurationMinutes: 90, maxSizeChangePercent: 50 }
  pipes:
    expected: [{ name: my_postgres_pipe }]
    reportUnlisted: true
  reversePrivateEndpoints: { expected: [{ description: My reverse private endpoint }] }
`,
  };
}

export interface ReportRun {
  code: number | null;
  stderr: string;
  report: Report;
}

/** Runs `steward report --format json` in a temp copy of `files` against `url`. */
export async function runReport(files: Record<string, string>, url: string, creds = { keyId: 'key-id', keySecret: 'key-secret' }): Promise<ReportRun> {
  const p = tmpProject(files);
  try {
    const r = await steward(['report', '--out', 'reports', '--format', 'json'], {
      cwd: p.dir,
      env: { STEWARD_CLOUD_URL: url, STEWARD_CLOUD_KEY_ID: creds.keyId, STEWARD_CLOUD_KEY_SECRET: creds.keySecret },
    });
    let report: Report;
    try {
      report = JSON.parse(r.stdout) as Report;
    } catch {
      throw new Error(`steward report did not print JSON (exit ${r.code}):\n${r.stdout.slice(0, 2000)}\n${r.stderr.slice(0, 2000)}`);
    }
    return { code: r.code, stderr: r.stderr, report };
  } finally {
    p.cleanup();
  }
}

/**
 * A generated answer fills the spec's "number" with any number: a backup size of -72439612.3 bytes or a
 * negative duration is malformed (docs/report.md, Backups), and those must be the only malformed items; the
 * spec's own examples (static answers) have none. The review is then incomplete: exit 1 exactly then.
 */
export function assertOnlyMalformedNumbers(svc: ServiceReport, code: number | null, generated: boolean, context = ''): void {
  const numbers = /^(sizeInBytes: must be a whole number of bytes|durationInSeconds: must be a number of seconds), 0 or more, got /;
  for (const m of svc.malformedItems)
    assert.ok(m.part.includes('backup') && m.kept && m.problems.every((p) => numbers.test(p)), `${context}${JSON.stringify(m)}`);
  if (!generated) assert.equal(svc.malformedItems, [], context);
  assert.is(code, svc.malformedItems.length > 0 ? 1 : 0, context);
}
