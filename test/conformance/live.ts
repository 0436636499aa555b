/**
 * Shared by the conformance runs of the live profiles (hyperdx, clickstack-cloud): what the mock's service
 * "has" (sources, webhooks, dashboards, read straight from prism), and the example project bound to it.
 *
 * The examples name their sources and webhooks (`source: Logs`, `webhook: ops-pager`), as a project does for
 * one environment; a mock is another environment, whose names are the spec's examples (static) or generated
 * strings. `bindProject` rewrites each name in a copy to one the mock lists (the same name always to the same
 * one), or, when the mock lists none with an id (sparse answers), to an id (`sourceId:`/`webhookId:`): that
 * is what a user does for a new environment, and it keeps name resolution itself under test.
 *
 * And the assertions both profiles' runs share.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, stringify } from 'yaml';
import * as assert from 'uvu/assert';
import { formatViolations, type PrismServer } from '../helpers/prism.ts';
import { runConformance, type ConformanceRun, type ConformanceStep } from './run.ts';

export const ORG = '6f1c4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c';
export const SVC = '9a2b4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c';
/** Used where no listed source or webhook has an id. */
export const FALLBACK_ID = '65f5e4a3b9e77c001a111111';

export interface LiveProfile {
  api: 'hyperdx' | 'clickstack-cloud';
  /** The path every resource is under. */
  base: string;
  envelope: 'data' | 'result';
  /** Authorization header for direct reads. */
  auth: string;
  /** Extra environment for steward (clickstack ids). */
  env: Record<string, string>;
}

export const HYPERDX: LiveProfile = { api: 'hyperdx', base: '/api/v2', envelope: 'data', auth: 'Bearer conformance-token', env: {} };
export const CLICKSTACK: LiveProfile = {
  api: 'clickstack-cloud',
  base: `/v1/organizations/${ORG}/services/${SVC}/clickstack`,
  envelope: 'result',
  auth: `Basic ${Buffer.from('conformance-key-id:conformance-key-secret').toString('base64')}`,
  env: { STEWARD_CLICKSTACK_ORGANIZATION_ID: ORG, STEWARD_CLICKSTACK_SERVICE_ID: SVC },
};

export interface Named {
  id?: unknown;
  name?: unknown;
  tags?: unknown;
}

/** One GET against the mock, outside steward (the server's request log is cleared by the runner). */
export async function readList(server: PrismServer, p: LiveProfile, path: string): Promise<Named[]> {
  const res = await fetch(server.url + p.base + path, { headers: { authorization: p.auth, accept: 'application/json' } });
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const list = body?.[p.envelope];
  return Array.isArray(list) ? (list.filter((x) => x && typeof x === 'object') as Named[]) : [];
}

/** Names that exactly one listed entry with an id carries. */
function usable(list: Named[]): string[] {
  const names = list.filter((x) => typeof x.id === 'string' && typeof x.name === 'string').map((x) => x.name as string);
  const all = list.map((x) => x.name);
  return names.filter((n) => all.indexOf(n) === all.lastIndexOf(n));
}

export function readProject(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const f = join(d, e);
      if (statSync(f).isDirectory()) walk(f);
      else out[relative(dir, f)] = readFileSync(f, 'utf8');
    }
  };
  walk(dir);
  return out;
}

export interface Bound {
  files: Record<string, string>;
  /** Example name → what it became (a listed name, or `id:<id>`). */
  sources: Record<string, string>;
  webhooks: Record<string, string>;
}

/** The example project with its source and webhook names bound to what the mock lists. */
export async function bindProject(server: PrismServer, p: LiveProfile, dir: string): Promise<Bound> {
  const [sources, webhooks] = await Promise.all([readList(server, p, '/sources'), readList(server, p, '/webhooks')]);
  const s = usable(sources);
  const w = usable(webhooks);
  const sm: Record<string, string> = {};
  const wm: Record<string, string> = {};
  const pick = (m: Record<string, string>, list: string[], n: string): string =>
    (m[n] ??= list.length ? list[Object.keys(m).length % list.length]! : `id:${FALLBACK_ID}`);
  const put = (key: string, idKey: string, v: string): string =>
    v.startsWith('id:') ? `${idKey}: ${JSON.stringify(v.slice(3))}` : `${key}: ${JSON.stringify(v)}`;
  // Templates (examples/hyperdx/templates) name the source through a parameter: its default and the value an
  // instance gives are bound the same way; where the binding is an id, the template's slots say sourceId.
  const param = (n: string): string => {
    const v = pick(sm, s, n);
    return JSON.stringify(v.startsWith('id:') ? v.slice(3) : v);
  };
  const files = Object.fromEntries(
    Object.entries(readProject(dir)).map(([f, t]) => {
      if (!f.endsWith('.yaml') || f.startsWith('cloud/')) return [f, t];
      let out = t
        .replace(/\bsource: (Logs|Traces|Metrics)\b/g, (_, n: string) => put('source', 'sourceId', pick(sm, s, n)))
        .replace(/\bwebhook: ([\w-]+)/g, (_, n: string) => put('webhook', 'webhookId', pick(wm, w, n)))
        .replace(/\b(\w+Source: \{[^}]*\bdefault: )(Logs|Traces|Metrics)\b/g, (_, pre: string, n: string) => `${pre}${param(n)}`)
        .replace(/\b(\w+Source: )(Logs|Traces|Metrics)\b/g, (_, pre: string, n: string) => `${pre}${param(n)}`);
      if (Object.values(sm).some((v) => v.startsWith('id:'))) out = out.replace(/\bsource: (\$\(params\.\w+Source\))/g, 'sourceId: $1');
      // Two names bound to the one webhook a mock lists: the list keeps it once (HyperDX refuses duplicate channels).
      out = out.replace(/^(\s+- \{ type: webhook, [^\n]*\}\n)\1+/gm, '$1');
      return [f, out];
    }),
  );
  return { files, sources: sm, webhooks: wm };
}

/** Rewrites one YAML file's (first) document. */
export function editYaml(text: string, edit: (doc: any) => void): string {
  const doc = parse(text);
  edit(doc);
  return stringify(doc, { lineWidth: 0 });
}

/** Sets `markerTag:` in a steward.yaml text. */
export function withMarkerTag(projectYaml: string, tag: string): string {
  return projectYaml.replace(/markerTag: .*/, `markerTag: ${JSON.stringify(tag)}`);
}

/**
 * The one-line refusals a sparse answer may cause (docs/profiles.md, loose spots of the live profiles): the
 * envelope, or a listed dashboard's or alert's id or name, or a tile's id, left out.
 */
export function sparseRefusal(p: LiveProfile): RegExp {
  const base = p.base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const e = p.envelope;
  return new RegExp(
    `^error: GET ${base}/(dashboards|alerts): (${e}|${e}\\[\\d+\\]\\.(id|name)|${e}\\[\\d+\\]\\.tiles\\[\\d+\\]\\.id): is required but missing( \\(and \\d+ more problems?\\))?\\n$`,
  );
}
/** Apply against a canned answer: the created dashboard is the spec's example, without the file's tiles. */
export const CANNED_TILE = /^the service returned dashboard .+ without a tile named ".+"$/;

export function show(s: ConformanceStep): string {
  return `steward ${s.args.join(' ')} → ${s.code}\n${s.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join('\n')}\n${s.stdout.slice(0, 1500)}\n${s.stderr.slice(0, 1500)}`;
}

export function assertNoViolations(run: ConformanceRun, label: string): void {
  assert.equal(run.violations, [], `${label}: prism saw violations:\n${formatViolations(run.violations)}`);
  for (const s of run.steps) {
    assert.not.match(s.stderr, /\n\s+at /, `${label}: a stack trace from ${s.name}`);
    assert.ok(s.code === 0 || s.code === 1, `${label}: ${show(s)}`);
  }
}

export function assertApply(s: ConformanceStep, label: string): void {
  if (s.code === 0) return;
  const out = JSON.parse(s.stdout) as { failed: unknown[]; skipped: Array<{ reason: string }> };
  assert.equal(out.failed, [], `${label}: ${show(s)}`);
  for (const k of out.skipped) assert.match(k.reason, CANNED_TILE, `${label}: ${show(s)}`);
}

/**
 * import exits 0, or 1 only for dashboards it skips, each on one line with a reason matching `skip`; what it
 * wrote validates.
 */
export function assertImport(run: ConformanceRun, label: string, skip: RegExp): void {
  const imp = run.step('import')!;
  if (imp.code !== 0) {
    const skipped = imp.stdout.split('\n').filter((l) => l.startsWith('  - skipped'));
    assert.ok(skipped.length > 0 && imp.stderr === '', `${label}: ${show(imp)}`);
    for (const l of skipped) assert.match(l, skip, l);
  }
  const check = run.step('import-validate')!;
  if (Object.keys(run.imported).length > 0) assert.is(check.code, 0, `${label}: ${show(check)}`);
}

/** A saved-search alert file (`channel` is its channel lines), pinned to a live alert by `id` when given. */
function alertYaml(name: string, title: string, channel: string, id?: string): string {
  return `apiVersion: steward/v1
kind: Alert
metadata: { name: ${name}${id ? `, id: ${JSON.stringify(id)}` : ''} }
spec:
  name: ${title}
  threshold: 3
  thresholdType: above
  interval: 15m
  source: saved_search
  savedSearchId: 65f5e4a3b9e77c001a222222
${channel}
`;
}

/** Run 2: PUT, DELETE and POST on what the mock has. */
export async function assertWrites(server: PrismServer, p: LiveProfile, example: string, run1: ConformanceRun, label: string): Promise<Set<string>> {
  const done = new Set<string>();
  const bound = await bindProject(server, p, example);
  const live = await readList(server, p, '/dashboards');
  const usableTag = (l: Named | undefined): string | undefined =>
    Array.isArray(l?.tags)
      ? (l!.tags as unknown[]).find((t): t is string => typeof t === 'string' && t.length > 0 && t.length <= 32 && !/[\s"'#]/.test(t))
      : undefined;
  // The files: what import wrote, or, where it wrote nothing, a one-tile file adopting the first live
  // dashboard that has an id and a name (plan then updates it to the file).
  // Only the dashboards import wrote: its alerts (import --all writes those too) may watch the orphan's tiles.
  let imported = Object.entries(run1.imported).filter(([, t]) => /^kind: Dashboard$/m.test(t));
  if (imported.length === 0) {
    const adopt = live.find((l) => typeof l.id === 'string' && typeof l.name === 'string' && l.name.trim() !== '');
    if (!adopt) return done;
    imported = [
      [
        'adopted.yaml',
        `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: adopted }\nspec:\n  name: ${JSON.stringify(adopt.name)}\n  tiles:\n    - { name: Notes, x: 0, y: 0, w: 6, h: 2, config: { displayType: markdown, markdown: conformance } }\n`,
      ],
    ];
  }
  const docs = imported.map(([f, t]) => ({ f, t, doc: parse(t) as { spec: { name: string; tags?: string[]; tiles?: Array<{ h: number }> } } }));
  // The one to edit: the first with tiles. The orphan: another live dashboard with a usable tag, which becomes
  // the marker tag while its file (if import wrote one) is left out.
  const target = docs.find((d) => Array.isArray(d.doc.spec.tiles) && d.doc.spec.tiles.length > 0);
  const orphanLive = live.find((l) => typeof l.id === 'string' && typeof l.name === 'string' && l.name !== target?.doc.spec.name && usableTag(l) !== undefined);
  const orphan = docs.find((d) => d.doc.spec.name === orphanLive?.name);
  const marker = usableTag(orphanLive);
  const files: Record<string, string> = { ...bound.files };
  if (marker) files['steward.yaml'] = withMarkerTag(files['steward.yaml']!, marker);
  let edited = false;
  for (const d of docs) {
    if (d === orphan) continue;
    files[`dashboards/imported/${d.f}`] = editYaml(d.t, (doc) => {
      if (marker && Array.isArray(doc.spec.tags)) doc.spec.tags = doc.spec.tags.filter((t: string) => t !== marker);
      if (d === target) {
        doc.spec.tiles[0].h += 1;
        edited = true;
      }
    });
  }
  const hook = Object.values(bound.webhooks)[0] ?? `id:65f5e4a3b9e77c001a789012`;
  const hookRef = hook.startsWith('id:') ? `webhookId: ${hook.slice(3)}` : `webhook: ${JSON.stringify(hook)}`;
  files['alerts/saved-search.yaml'] = alertYaml(
    'conformance-saved-search',
    'Conformance saved search',
    p.api === 'hyperdx' ? `  channels:\n    - { type: webhook, ${hookRef} }` : `  channel: { type: webhook, ${hookRef} }`,
  );
  // The channel's members go into the request bodies, where the spec checks them: on ClickStack a PagerDuty
  // severity (above), a Slack API channel and an email channel; on HyperDX the complete channels list.
  if (p.api === 'clickstack-cloud') {
    files['alerts/saved-search.yaml'] = files['alerts/saved-search.yaml']!.replace(/ \}\n$/, ', severity: critical }\n');
    files['alerts/email.yaml'] = alertYaml(
      'conformance-email',
      'Conformance email',
      '  channel: { type: email, emailRecipients: [sre@example.com, oncall@example.com] }',
    );
  }
  // An alert the mock lists, pinned by its id (where it has one steward's files take): plan updates it, so
  // the PUT body is checked too.
  const pinned = (await readList(server, p, '/alerts')).find((a) => typeof a.id === 'string' && /^[0-9a-f]{24}$/.test(a.id));
  if (pinned) {
    const channel =
      p.api === 'hyperdx'
        ? `  channels:\n    - { type: webhook, ${hookRef} }`
        : `  channel: { type: webhook, ${hookRef}, webhookService: slack_api, slackChannelId: C01ABCDEF23 }`;
    files['alerts/pinned.yaml'] = alertYaml('conformance-pinned', 'Conformance pinned', channel, pinned.id as string);
  }
  const run = await runConformance(server, {
    project: files,
    extraEnv: p.env,
    steps: [
      'validate',
      { name: 'plan-prune', args: ['plan', '--prune', '--format', 'json'] },
      { name: 'apply-prune', args: ['apply', '--auto-approve', '--prune', '--format', 'json'] },
    ],
  });
  assertNoViolations(run, `${label} (writes)`);
  assert.is(run.step('validate')!.code, 0, show(run.step('validate')!));
  const plan = run.step('plan-prune')!;
  assert.is(plan.code, 0, show(plan));
  const apply = run.step('apply-prune')!;
  assertApply(apply, `${label} (writes)`);
  const sent = apply.requests.map((r) => `${r.method} ${r.path.replace(/^(.*\/(dashboards|alerts))\/[^/]+$/, '$1/{id}')}`);
  const items = (JSON.parse(plan.stdout) as { items: Array<{ kind: string; name: string; action: string; body?: unknown }> }).items;
  const has = (kind: string, action: string): boolean => items.some((i) => i.kind === kind && i.action === action);
  // What was sent is what the files say, member for member.
  const channelOf = (name: string) => (items.find((i) => i.name === name)?.body as { channel?: Record<string, unknown> } | undefined)?.channel;
  if (p.api === 'clickstack-cloud') {
    assert.is(channelOf('conformance-saved-search')?.['severity'], 'critical', plan.stdout.slice(0, 2000));
    assert.equal(channelOf('conformance-email'), { type: 'email', emailRecipients: ['sre@example.com', 'oncall@example.com'] });
    if (pinned) assert.is(channelOf('conformance-pinned')?.['slackChannelId'], 'C01ABCDEF23');
  }
  for (const [kind, action, req] of [
    ['Dashboard', 'update', `PUT ${p.base}/dashboards/{id}`],
    ['Alert', 'update', `PUT ${p.base}/alerts/{id}`],
    ['Dashboard', 'delete', `DELETE ${p.base}/dashboards/{id}`],
    ['Alert', 'create', `POST ${p.base}/alerts`],
  ] as const) {
    if (!has(kind, action)) continue;
    assert.ok(sent.includes(req), `${label}: ${kind} ${action} planned but not sent\n${show(apply)}`);
    done.add(req.replace(p.base, ''));
  }
  // What was meant to be exercised was: an edited dashboard, an orphan (when a live dashboard has a tag) and a
  // new alert.
  if (edited) assert.ok(has('Dashboard', 'update'), `${label}: the edited file plans no update\n${plan.stdout.slice(0, 3000)}`);
  if (marker) assert.ok(has('Dashboard', 'delete'), `${label}: no orphan deleted with marker ${marker}`);
  assert.ok(has('Alert', 'create') || has('Alert', 'update') || has('Alert', 'noop'), plan.stdout.slice(0, 2000));
  return done;
}

/** Run 1's steps: the example project from validate to the validation of what import wrote. */
export const STEPS: NonNullable<Parameters<typeof runConformance>[1]['steps']> = [
  'validate',
  'plan',
  { name: 'plan-server-validate', args: ['plan', '--server-validate', '--format', 'json'] },
  { name: 'plan-prune', args: ['plan', '--prune'] },
  'apply',
  'import',
  'import-validate',
];

/** Dashboards a `plan --format json` creates (none are updated: the mock has none of the examples' names). */
export function plannedDashboards(planJson: string): number {
  const items = (JSON.parse(planJson) as { items: Array<{ kind: string; action: string }> }).items;
  return items.filter((i) => i.kind === 'Dashboard' && i.action === 'create').length;
}

/**
 * `plan --server-validate`: exit 0 when the service called every body valid, else 1 with one line naming the
 * dashboards (a mock's generated answers choose `valid` at random, so the code follows what it answered).
 */
export function assertServerValidate(s: ConformanceStep): void {
  const items = (JSON.parse(s.stdout) as { items: Array<{ kind: string; name: string; serverValidation?: { valid: boolean } }> }).items;
  const invalid = items.filter((i) => i.serverValidation && !i.serverValidation.valid);
  assert.ok(
    items.some((i) => i.serverValidation),
    show(s),
  );
  if (invalid.length === 0) return assert.is(s.code, 0, show(s));
  assert.is(s.code, 1, show(s));
  assert.match(s.stderr, /the service says .*invalid \(.*dashboard .+\): apply would be refused/, show(s));
}
