/**
 * Scale: an end-to-end run on 5,000 dashboards and 2,000 alerts through the built CLI, against an emulator
 * in a child process (no latency). Steps: `plan --detailed-exitcode` (expects 2), `apply --auto-approve`,
 * `plan --detailed-exitcode` again (expects 0); wall time and peak RSS of each, then a check that nothing
 * was lost or duplicated: exactly the dashboards the files name, once each, and every alert's fields equal to
 * its file, bound to the tile its file names.
 *
 *   npm run build && node --import tsx bench/scale.ts [dashboards] [alerts] [tiles]   (defaults 5000 2000 12)
 *
 * The generated steward.yaml sets `requestsPerMinute: 100000` (the schema's maximum): the real service's 100 a
 * minute would make the 7,000 writes take 70 minutes, and what is measured here is steward, not the limit.
 * `runScaleBench(options)` returns the figures; test/scale/scale.test.ts runs a small version of it.
 */
import { fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJournal } from '../src/apply/journal.ts';
import { startEmulator, type EmulatorState, type SeedAlert } from '../src/emulator/index.ts';
import { BIN, table } from './lib.ts';

const PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));
const WEBHOOK = '65f5e4a3b9e77c001a0000aa';

export interface ScaleOptions {
  dashboards?: number;
  alerts?: number;
  /** Tiles per dashboard (default 12). */
  tiles?: number;
  /** Requests in flight during apply (default: steward's, 4). */
  concurrency?: number;
}

export interface ScaleStep {
  step: string;
  exitCode: number | null;
  ms: number;
  peakRssMiB: number;
}

export interface ScaleResult {
  dashboards: number;
  alerts: number;
  tiles: number;
  steps: ScaleStep[];
  /** The emulator's own peak RSS (child process), MiB. */
  emulatorPeakRssMiB: number;
  /** Everything checked after the run; empty when nothing was lost or duplicated. */
  problems: string[];
  /** The summary lines the CLI printed, for the record. */
  summaries: string[];
}

const alertId = (i: number) => `65f5e4a3b9e77c${i.toString(16).padStart(10, '0')}`;
const dashboardName = (i: number) => `Scale dashboard ${i}`;

function dashboardYaml(i: number, tiles: number): string {
  let out = `apiVersion: steward/v1\nkind: Dashboard\nmetadata:\n  name: scale-${i}\nspec:\n  name: ${dashboardName(i)}\n  tags: [team:scale, shard:${i % 10}]\n  tiles:\n`;
  for (let t = 0; t < tiles; t++) {
    out += `    - name: Tile ${t}\n      x: ${(t % 4) * 6}\n      y: ${Math.floor(t / 4) * 3}\n      w: 6\n      h: 3\n      series:\n        - { type: time, dataSource: events, aggFn: count, where: "service:svc-${i} AND level:error", whereLanguage: lucene, groupBy: [host] }\n`;
  }
  return out;
}

/** What alert file i says, as the emulator should end up holding it. */
function alertSpec(i: number, dashboards: number, tiles: number) {
  return {
    name: `Scale alert ${i}`,
    message: `Errors on svc-${i} above ${10 + (i % 90)}`,
    threshold: 10 + (i % 90),
    thresholdType: i % 2 === 0 ? ('above' as const) : ('below' as const),
    interval: `${1 + (i % 59)}m`,
    source: 'tile' as const,
    dashboard: i % dashboards,
    tile: `Tile ${i % tiles}`,
  };
}

function alertYaml(i: number, dashboards: number, tiles: number): string {
  const a = alertSpec(i, dashboards, tiles);
  return `apiVersion: steward/v1\nkind: Alert\nmetadata:\n  name: scale-alert-${i}\n  id: ${alertId(i)}\nspec:\n  name: ${a.name}\n  message: ${a.message}\n  threshold: ${a.threshold}\n  thresholdType: ${a.thresholdType}\n  interval: ${a.interval}\n  source: tile\n  tile: { dashboard: scale-${a.dashboard}, name: ${a.tile} }\n  channel: { type: webhook, webhookId: ${WEBHOOK} }\n`;
}

/** Seed alerts as they might be before steward manages them: other thresholds, no dashboard. */
function seedAlerts(n: number): SeedAlert[] {
  return Array.from({ length: n }, (_, i) => ({
    id: alertId(i),
    name: `Old alert ${i}`,
    message: 'set by hand',
    threshold: 1,
    thresholdType: 'above' as const,
    interval: '1h',
    source: 'tile' as const,
    state: 'inactive',
    channel: { type: 'webhook', webhookId: WEBHOOK },
    createdAt: '-30d',
    updatedAt: '-30d',
  }));
}

function writeProject(dir: string, o: Required<Omit<ScaleOptions, 'concurrency'>>): void {
  mkdirSync(join(dir, 'dashboards'), { recursive: true });
  mkdirSync(join(dir, 'alerts'), { recursive: true });
  writeFileSync(
    join(dir, 'steward.yaml'),
    [
      'apiVersion: steward/v1',
      'kind: Project',
      'spec:',
      '  resources: ["dashboards/*.yaml", "alerts/*.yaml"]',
      '  observability:',
      '    url: ${STEWARD_OBS_URL}',
      '    token: { env: STEWARD_OBS_TOKEN }',
      '    # The real service allows about 100 a minute; raised so the run measures steward, not the limit.',
      '    requestsPerMinute: 100000',
      '',
    ].join('\n'),
  );
  for (let i = 0; i < o.dashboards; i++) writeFileSync(join(dir, 'dashboards', `d${i}.yaml`), dashboardYaml(i, o.tiles));
  for (let i = 0; i < o.alerts; i++) writeFileSync(join(dir, 'alerts', `a${i}.yaml`), alertYaml(i, o.dashboards, o.tiles));
}

type ChildMessage = { url: string } | { state: EmulatorState; peakRssMiB: number };

/** The child side: an emulator on the seed file given in argv, answering `state` over IPC. */
async function serve(seedFile: string): Promise<void> {
  const emu = await startEmulator({ seed: 1, logLimit: 100, data: seedFile });
  const send = (m: ChildMessage) => process.send?.(m);
  process.on('message', (m: string) => {
    if (m === 'state') send({ state: emu.state(), peakRssMiB: process.resourceUsage().maxRSS / 1024 });
    if (m === 'stop') void emu.close().then(() => process.exit(0));
  });
  send({ url: emu.url });
}

/** Runs the CLI with the peak-RSS probe; returns its figures, stdout and stderr. */
function runSteward(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; ms: number; peakRssMiB: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', PROBE, BIN, ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /STEWARD_BENCH_MAXRSS_KB=(\d+)/.exec(stderr);
      resolve({
        code,
        ms: performance.now() - t0,
        peakRssMiB: m ? Number(m[1]) / 1024 : NaN,
        stdout,
        stderr: stderr.replace(/\n?STEWARD_BENCH_MAXRSS_KB=\d+\n/, ''),
      });
    });
  });
}

/** Nothing lost or duplicated: the checks, as a list of problems (empty when all hold). */
function verify(state: EmulatorState, dir: string, o: Required<Omit<ScaleOptions, 'concurrency'>>): string[] {
  const problems: string[] = [];
  const byName = new Map<string, EmulatorState['dashboards']>();
  for (const d of state.dashboards) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
  if (state.dashboards.length !== o.dashboards) problems.push(`the emulator holds ${state.dashboards.length} dashboards, not ${o.dashboards}`);
  for (let i = 0; i < o.dashboards; i++) {
    const n = byName.get(dashboardName(i))?.length ?? 0;
    if (n !== 1) problems.push(`dashboard "${dashboardName(i)}" exists ${n} times`);
    else if (byName.get(dashboardName(i))![0]!.tiles.length !== o.tiles)
      problems.push(`dashboard "${dashboardName(i)}" has ${byName.get(dashboardName(i))![0]!.tiles.length} tiles`);
  }
  const alerts = new Map(state.alerts.map((a) => [a.id, a]));
  for (let i = 0; i < o.alerts; i++) {
    const want = alertSpec(i, o.dashboards, o.tiles);
    const a = alerts.get(alertId(i));
    if (!a) {
      problems.push(`alert ${alertId(i)} is gone`);
      continue;
    }
    const d = byName.get(dashboardName(want.dashboard))?.[0];
    const tile = d?.tiles.find((t) => t.name === want.tile);
    const got = {
      name: a.name,
      message: a.message,
      threshold: a.threshold,
      thresholdType: a.thresholdType,
      interval: a.interval,
      source: a.source,
      webhookId: a.channel?.webhookId,
      dashboard: a.dashboard,
      tileId: a.tileId,
    };
    const expected = {
      name: want.name,
      message: want.message,
      threshold: want.threshold,
      thresholdType: want.thresholdType,
      interval: want.interval,
      source: want.source,
      webhookId: WEBHOOK,
      dashboard: d?.id,
      tileId: tile?.id,
    };
    if (JSON.stringify(got) !== JSON.stringify(expected))
      problems.push(`alert ${alertId(i)} differs from its file: ${JSON.stringify(got)} ≠ ${JSON.stringify(expected)}`);
  }
  const journal = parseJournal(readFileSync(join(dir, '.steward/journal.jsonl'), 'utf8'));
  const creates = journal.filter((j) => j.op === 'dashboard.create').length;
  const updates = journal.filter((j) => j.op === 'alert.update').length;
  if (creates !== o.dashboards || updates !== o.alerts)
    problems.push(`journal: ${creates} creates and ${updates} updates, not ${o.dashboards} and ${o.alerts}`);
  const records = Object.keys((JSON.parse(readFileSync(join(dir, '.steward/state.json'), 'utf8')) as { alerts: object }).alerts).length;
  if (records !== o.alerts) problems.push(`state file: ${records} alert records, not ${o.alerts}`);
  return problems.slice(0, 20);
}

/** The whole run; throws only when a step cannot run at all (problems are returned, not thrown). */
export async function runScaleBench(options: ScaleOptions = {}): Promise<ScaleResult> {
  const o = { dashboards: options.dashboards ?? 5000, alerts: options.alerts ?? 2000, tiles: options.tiles ?? 12 };
  const dir = mkdtempSync(join(tmpdir(), 'steward-bench-scale-'));
  const seedFile = join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify({ alerts: seedAlerts(o.alerts), dashboards: [], organizations: [] }));
  const project = join(dir, 'project');
  writeProject(project, o);
  const child = fork(fileURLToPath(import.meta.url), ['--serve', seedFile], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T extends ChildMessage>(): Promise<T> =>
    new Promise((resolve, reject) => {
      child.once('message', (m) => resolve(m as T));
      child.once('exit', (code) => reject(new Error(`the emulator exited (${code})`)));
    });
  try {
    const { url } = await next<{ url: string }>();
    const env = { STEWARD_OBS_URL: url, STEWARD_OBS_TOKEN: 'dev-token' };
    const steps: ScaleStep[] = [];
    const summaries: string[] = [];
    const step = async (name: string, args: string[], expectCode: number) => {
      const r = await runSteward(args, project, env);
      steps.push({ step: name, exitCode: r.code, ms: r.ms, peakRssMiB: r.peakRssMiB });
      const summary = r.stdout
        .split('\n')
        .filter((l) => (args[0] === 'plan' ? /^steward plan:/ : /^Apply /).test(l))
        .pop();
      if (summary) summaries.push(`${name}: ${summary}`);
      if (r.code !== expectCode) throw new Error(`${name} exited ${r.code}, expected ${expectCode}:\n${r.stderr.slice(0, 2000)}\n${r.stdout.slice(-2000)}`);
    };
    await step('plan (everything to do)', ['plan', '--detailed-exitcode'], 2);
    await step('apply --auto-approve', ['apply', '--auto-approve', ...(options.concurrency ? ['--concurrency', String(options.concurrency)] : [])], 0);
    await step('plan again (nothing to do)', ['plan', '--detailed-exitcode'], 0);
    child.send('state');
    const { state, peakRssMiB } = await next<{ state: EmulatorState; peakRssMiB: number }>();
    return { ...o, steps, emulatorPeakRssMiB: peakRssMiB, problems: verify(state, project, o), summaries };
  } finally {
    child.send('stop');
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The result as the Markdown table bench/README.md holds. */
export function scaleTable(r: ScaleResult): string {
  return table(r.steps.map((s) => ({ step: s.step, 'exit code': String(s.exitCode), 'wall s': s.ms / 1000, 'peak RSS MiB': s.peakRssMiB })));
}

if (process.argv[2] === '--serve') {
  await serve(process.argv[3]!);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const [d, a, t] = process.argv.slice(2).map(Number);
  const r = await runScaleBench({ ...(d ? { dashboards: d } : {}), ...(a ? { alerts: a } : {}), ...(t ? { tiles: t } : {}) });
  process.stdout.write(
    `${r.dashboards} dashboards of ${r.tiles} tiles, ${r.alerts} alerts\n\n${scaleTable(r)}\n\nemulator peak RSS: ${r.emulatorPeakRssMiB.toFixed(0)} MiB\n${r.summaries.join('\n')}\n`,
  );
  process.stdout.write(
    r.problems.length === 0 ? 'nothing lost or duplicated: every dashboard once, every alert equal to its file\n' : `PROBLEMS:\n${r.problems.join('\n')}\n`,
  );
  process.exitCode = r.problems.length === 0 ? 0 : 1;
}
