/**
 * What people read stays readable whatever the cloud answers: 100,000 backups made a text report of 64,000
 * lines and a report.html of 65 MB, and a pipe named with 5 MB of text was 5 MB in each. Each human format
 * lists the first findings of a service (errors first) and the first rows of each table, says how many more
 * report.json has, and cuts long text with an ellipsis; report.json keeps everything. A cut comes after
 * redaction: no part of a secret shows where the cut falls inside one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultSeedFor } from '../../src/emulator/index.ts';
import { FINDINGS_SHOWN, HTML_ROWS_SHOWN, MESSAGE_LIMIT, NAME_LIMIT, PATCH_OPS_SHOWN, VALUE_LIMIT } from '../../src/render/report-bounds.ts';
import { cut } from '../../src/shared/text.ts';
import { renderReportGithub } from '../../src/render/report-github.ts';
import { renderReportHtml } from '../../src/render/report-html.ts';
import { renderReportJson } from '../../src/render/report-json.ts';
import { renderReportMarkdown } from '../../src/render/report-markdown.ts';
import { renderReportText } from '../../src/render/report-text.ts';
import { buildReport } from '../../src/report/report.ts';
import type { ObservedService, Report } from '../../src/report/types.ts';
import type { CloudServiceSpec } from '../../src/schema/kinds.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { NOW, ORG, PROD } from './seed.ts';

test('cut: at most n characters with the ellipsis, never half a surrogate pair', () => {
  const cases: Array<[string, number, string]> = [
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['eleven char', 10, 'eleven ch…'],
    ['ab😀cd', 4, 'ab…'],
    ['ab😀cd', 5, 'ab😀…'],
    ['', 3, ''],
  ];
  for (const [s, n, want] of cases) {
    assert.is(cut(s, n), want, `${s} ${n}`);
    assert.ok(cut(s, n).length <= n, `${s} ${n}`);
  }
});

const none: ObservedService = { pipes: [], endpoints: [], backups: [], failures: [], malformed: [] };
const spec: CloudServiceSpec = {
  organizationId: ORG,
  serviceId: PROD,
  backups: { maxAgeHours: 26, maxSizeChangePercent: 50 },
  pipes: { reportUnlisted: true, expected: [{ name: 'kept', state: 'Running' }] },
  reversePrivateEndpoints: { reportUnlisted: true },
};

/** Backups an hour apart, the newest last; every other one failed (a warning each: a later one succeeded). */
function backups(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `b${i}`,
    status: i % 2 && i < n - 1 ? 'error' : 'done',
    startedAt: new Date(NOW.getTime() - (n - i) * 3_600_000).toISOString(),
    finishedAt: new Date(NOW.getTime() - (n - i) * 3_600_000 + 600_000).toISOString(),
    sizeInBytes: 1_000_000_000,
  }));
}

const MB = 'n'.repeat(5 * 1024 * 1024);

interface Case {
  what: string;
  observed: ObservedService;
  /** The longest any human output may be, in characters. */
  maxChars: number;
}

const cases: Case[] = [
  { what: '5,000 backups, 2,499 of them failed', observed: { ...none, backups: backups(5_000) }, maxChars: 400_000 },
  {
    what: 'thousands of unlisted pipes and endpoints',
    observed: {
      ...none,
      pipes: Array.from({ length: 3_000 }, (_, i) => ({ name: `p${i}`, state: 'Failed' })),
      endpoints: Array.from({ length: 3_000 }, (_, i) => ({ description: `e${i}`, status: 'Failed' })),
    },
    maxChars: 600_000,
  },
  {
    what: 'names of 5 MB (a pipe, an endpoint, a backup id and type)',
    observed: {
      ...none,
      pipes: [{ name: `pipe-${MB}`, state: 'Failed', id: `id-${MB}` }],
      endpoints: [{ description: `endpoint-${MB}`, status: `status-${MB}` }],
      backups: [{ id: `backup-${MB}`, status: 'error', type: `type-${MB}`, startedAt: NOW.toISOString() }],
    },
    maxChars: 60_000,
  },
];

for (const c of cases) {
  test(`human formats are bounded, report.json is whole: ${c.what}`, () => {
    const report = buildReport([{ name: 'svc', spec, observed: c.observed }], { now: NOW });
    const findings = report.services[0]!.findings;
    const text = renderReportText(report, { color: false });
    const md = renderReportMarkdown(report);
    const html = renderReportHtml(report);
    const gh = renderReportGithub(report);
    for (const [name, out] of [
      ['text', text],
      ['markdown', md],
      ['html', html],
      ['github', gh],
    ] as const) {
      assert.ok(out.length <= c.maxChars, `${name}: ${out.length} characters`);
      // report.html writes a table's rows on one line; the others a line per finding.
      if (name !== 'html') for (const line of out.split('\n')) assert.ok(line.length < 10_000, `${name}: a line of ${line.length} characters`);
    }
    assert.ok(md.length <= 60_000);
    // Text and GitHub: the first FINDINGS_SHOWN findings (errors first), then how many more report.json has.
    const listed = text.split('\n').filter((l) => /^ {2}(error|warning|info) /.test(l));
    assert.is(listed.length, Math.min(findings.length, FINDINGS_SHOWN));
    assert.equal(
      listed.map((l) => l.trim().split(' ')[0]),
      findings.slice(0, FINDINGS_SHOWN).map((f) => f.severity),
    );
    const annotations = gh.split('\n').filter((l) => /^::(error|warning|notice) title=steward report [a-z]/.test(l));
    assert.is(annotations.length, Math.min(findings.length, FINDINGS_SHOWN));
    if (findings.length > FINDINGS_SHOWN) {
      assert.match(text, new RegExp(`… and ${findings.length - FINDINGS_SHOWN} more findings in report\\.json \\(`));
      assert.match(gh, new RegExp(`and ${findings.length - FINDINGS_SHOWN} more findings in report\\.json`));
      assert.match(md, /…and \d+ more findings in report\.json \(/);
    }
    // HTML: the first HTML_ROWS_SHOWN findings and rows of each table.
    assert.ok((html.match(/data-testid="finding"/g) ?? []).length <= HTML_ROWS_SHOWN);
    if (findings.length > HTML_ROWS_SHOWN) assert.match(html, `…and ${findings.length - HTML_ROWS_SHOWN} more findings in report.json (`);
    // report.json keeps every finding and every name whole.
    const json = JSON.parse(renderReportJson(report)) as Report;
    assert.is(json.services[0]!.findings.length, findings.length);
    assert.is(json.services[0]!.backups.length, c.observed.backups!.length);
    assert.is(json.services[0]!.pipes.length, c.observed.pipes!.length);
    if (c.what.startsWith('names')) {
      assert.ok(json.services[0]!.pipes[0]!.name.length > 5_000_000);
      for (const out of [text, md, gh]) assert.not.match(out, 'n'.repeat(MESSAGE_LIMIT));
      assert.not.match(html, 'n'.repeat(VALUE_LIMIT));
      assert.match(html, `pipe-${'n'.repeat(NAME_LIMIT - 6)}…`);
    }
  });
}

test('a JSON Patch of 100,000 operations: report.html and report.md show its first operations; every other finding stays listed', () => {
  // A file declares one reverse private endpoint id of a Kafka source; the server lists 100,000: one remove operation each. report.html was 9.3 MB for
  // this one pipe, and report.md, kept under its length, listed one finding a service.
  const declared: CloudServiceSpec = {
    organizationId: ORG,
    serviceId: PROD,
    pipes: { reportUnlisted: true, expected: [{ name: 'big', source: { kafka: { reversePrivateEndpointIds: ['a'] } } }] },
  };
  const observed: ObservedService = {
    ...none,
    pipes: [
      { name: 'big', state: 'Running', source: { kafka: { reversePrivateEndpointIds: Array.from({ length: 100_000 }, (_, i) => `e${i}`) } } },
      ...Array.from({ length: 20 }, (_, i) => ({ name: `other-${i}`, state: 'Running' })),
    ],
  };
  const report = buildReport([{ name: 'svc', spec: declared, observed }], { now: NOW });
  const drift = report.services[0]!.findings.find((f) => f.id === 'pipe.field-drift')!;
  assert.is(drift.patch!.length, 100_000);
  const html = renderReportHtml(report);
  const md = renderReportMarkdown(report);
  assert.ok(html.length < 100_000, `report.html: ${html.length} characters`);
  for (const out of [html, md]) {
    assert.match(out, `…and ${100_000 - PATCH_OPS_SHOWN} more operations in report.json`);
    // fast-json-patch removes from the end: the first operations shown are the last indexes.
    assert.match(out, `/source/kafka/reversePrivateEndpointIds/${100_000 - PATCH_OPS_SHOWN}`);
    assert.not.match(out, `/source/kafka/reversePrivateEndpointIds/${100_000 - PATCH_OPS_SHOWN - 1}`);
  }
  // report.md lists all 21 findings (the drift and 20 unlisted pipes), not one.
  assert.not.match(md, 'more findings in report.json');
  for (let i = 0; i < 20; i++) assert.match(md, `pipe \`other-${i}\``);
  assert.is(JSON.parse(renderReportJson(report)).services[0].findings.find((f: { id: string }) => f.id === 'pipe.field-drift').patch.length, 100_000);
});

test('normal sizes are shown whole: nothing is cut or left out up to the limits', () => {
  const name = 'x'.repeat(NAME_LIMIT - 20);
  // FINDINGS_SHOWN findings: pipe.missing (kept), backup.stale (none listed), and an unlisted pipe each.
  const observed: ObservedService = { ...none, pipes: Array.from({ length: FINDINGS_SHOWN - 2 }, (_, i) => ({ name: `${name}${i}`, state: 'Running' })) };
  const report = buildReport([{ name: 'svc', spec, observed }], { now: NOW });
  assert.is(report.services[0]!.findings.length, FINDINGS_SHOWN);
  for (const out of [renderReportText(report, { color: false }), renderReportMarkdown(report), renderReportHtml(report), renderReportGithub(report)]) {
    assert.not.match(out, '…');
    assert.not.match(out, 'more finding');
    for (let i = 0; i < FINDINGS_SHOWN - 2; i++) assert.match(out, `${name}${i}`);
  }
});

const TOKEN = 'ghp_Q7bX2mN9vK4pL8sR3tW6yZ1aC5dF0gH2jE7uMx';

type Seed = { organizations: { services: { name: string; pipes: Record<string, unknown>[]; backups: Record<string, unknown>[] }[] }[] };

/** The emulator's default seed, with prod-warehouse changed by `change`. */
function seedWith(change: (prod: Seed['organizations'][number]['services'][number]) => void): Seed {
  const seed = structuredClone(defaultSeedFor('seed')) as Seed;
  change(seed.organizations.flatMap((o) => o.services).find((s) => s.name === 'prod-warehouse')!);
  return seed;
}

test('steward report (built CLI) against the emulator with 2,000 backups: bounded stdout, report.md and report.html; report.json whole', async () => {
  const N = 2_000;
  const seed = seedWith((prod) => {
    const model = prod.backups.find((b) => b['status'] === 'done')!;
    prod.backups = Array.from({ length: N }, (_, i) => ({
      ...model,
      id: `7b1c0000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      status: i % 2 ? 'error' : 'done',
      startedAt: `-${2 * i + 2}h`,
      finishedAt: `-${2 * i + 1}h`,
    }));
  });
  const x = await examplesWithEmulator({ data: seed as never });
  try {
    const r = await steward(['report', '--out', 'reports'], { cwd: x.dir, env: x.env, spawn: true });
    assert.is(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.ok(lines.length < FINDINGS_SHOWN + 12, `${lines.length} lines`);
    assert.match(r.stdout, /… and \d+ more findings in report\.json \(\d+ warnings/);
    const dir = join(x.dir, 'reports');
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    const svc = json.services.find((s) => s.name === 'prod-warehouse')!;
    assert.is(svc.backups.length, N);
    assert.ok(svc.findings.length > N / 2);
    assert.ok(md.length <= 60_000);
    assert.ok(html.length < 1_000_000, `report.html: ${html.length} characters`);
    assert.match(html, `…and ${N - HTML_ROWS_SHOWN} older backups in report.json`);
    const gh = await steward(['report', '--out', 'reports', '--format', 'github'], { cwd: x.dir, env: x.env, spawn: true });
    assert.ok(gh.stdout.split('\n').length < FINDINGS_SHOWN + 5);
  } finally {
    await x.cleanup();
  }
});

test('steward report (built CLI): where a cut falls inside a secret, no part of it shows (redacted before cut)', async () => {
  // The token is a secret-looking variable's value, which only the output's redaction is told of. The pipes'
  // names put it where each cut falls: a message at MESSAGE_LIMIT (after 'pipe "'), a name at NAME_LIMIT.
  const seed = seedWith((prod) => {
    const pipe = prod.pipes[0]!;
    prod.pipes.push(
      { ...pipe, id: 'c0ffee00-1a2b-4c3d-8e4f-00000000a001', name: `${'x'.repeat(MESSAGE_LIMIT - 20)}${TOKEN}` },
      { ...pipe, id: 'c0ffee00-1a2b-4c3d-8e4f-00000000a002', name: `${'y'.repeat(NAME_LIMIT - 10)}${TOKEN}` },
    );
  });
  const x = await examplesWithEmulator({ data: seed as never });
  try {
    const env = { ...x.env, GITHUB_TOKEN: TOKEN };
    const r = await steward(['report', '--out', 'reports'], { cwd: x.dir, env, spawn: true });
    assert.is(r.code, 0, r.stderr);
    const gh = await steward(['report', '--out', 'reports-gh', '--format', 'github'], { cwd: x.dir, env, spawn: true });
    const dir = join(x.dir, 'reports');
    const json = readFileSync(join(dir, 'report.json'), 'utf8');
    // Both pipes are shown (unlisted), their names cut where the token was.
    assert.match(r.stdout, /pipe "x{400,}/);
    assert.match(json, /"name": "y{190}\[redacted\]"/);
    const part = TOKEN.slice(0, 8);
    for (const [name, out] of [
      ['stdout', r.stdout],
      ['github', gh.stdout],
      ['report.md', readFileSync(join(dir, 'report.md'), 'utf8')],
      ['report.html', readFileSync(join(dir, 'report.html'), 'utf8')],
      ['report.json', json],
    ] as const) {
      assert.not.match(out, part, `${name} shows part of the token`);
    }
  } finally {
    await x.cleanup();
  }
});

test('steward report (built CLI): a cloud key with a quote and a backslash, echoed JSON-escaped in a backup status, is in no output', async () => {
  // backup.unknown-status quotes the status with JSON.stringify, so the escaped form was escaped once more:
  // `s3cr\\\"et\\\\Key…` in every format and report.json, a form the redaction did not know.
  const keySecret = 's3cr"et\\Key-2026-Qx7bN2';
  const escaped = JSON.stringify(keySecret).slice(1, -1);
  const x = await examplesWithEmulator({ keySecret });
  // The emulator's seed holds only known statuses: the list's first "done" is changed on the way.
  const proxy = await startProxy(x.emu.url, {
    rewrite: (_req, path, _status, text) =>
      /\/backups$/.test(path) ? text.replace(/"status":\s*"done"/, `"status": ${JSON.stringify(`rejected ${escaped}`)}`) : text,
  });
  try {
    const env = { ...x.env, STEWARD_CLOUD_URL: proxy.url };
    const outs: Array<[string, string]> = [];
    for (const format of ['text', 'markdown', 'github', 'json']) {
      const r = await steward(['report', '--out', `reports-${format}`, '--format', format], { cwd: x.dir, env, spawn: true });
      assert.is(r.code, 0, r.stderr);
      outs.push([format, r.stdout]);
    }
    for (const f of ['report.md', 'report.html', 'report.json']) outs.push([f, readFileSync(join(x.dir, 'reports-text', f), 'utf8')]);
    assert.match(outs[0]![1], /backup\.unknown-status .*has status "rejected \[redacted\]"/);
    for (const [name, out] of outs) assert.not.match(out, 's3cr', `${name} shows the key`);
  } finally {
    await proxy.close();
    await x.cleanup();
  }
});

test.run();
