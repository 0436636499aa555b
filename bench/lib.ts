import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const BIN = join(ROOT, 'bin/steward.js');
const PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));

export interface RunFigures {
  ms: number;
  peakRssMiB: number;
  code: number | null;
  stdout: string;
  /** Bytes written to stdout in all (kept or not). */
  stdoutBytes: number;
  stderr: string;
}

/**
 * Runs a node script in a child process and reports wall time and the child's peak RSS. `keepStdout`
 * keeps only the first that many characters of stdout (a 10,000-item plan is 100+ MiB of JSON).
 */
export function timeNode(args: string[], opts: { cwd?: string; env?: Record<string, string>; keepStdout?: number } = {}): Promise<RunFigures> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', PROBE, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const keep = opts.keepStdout ?? Infinity;
    let stdoutBytes = 0;
    child.stdout.on('data', (b: Buffer) => {
      stdoutBytes += b.length;
      const d = b.toString('utf8');
      if (stdout.length < keep) stdout += d.slice(0, keep - stdout.length);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      // Worker threads print it too when they end (the preload runs in them): the largest is the process's.
      const kb = Array.from(stderr.matchAll(/STEWARD_BENCH_MAXRSS_KB=(\d+)/g), (m) => Number(m[1]));
      resolve({ ms, peakRssMiB: kb.length ? Math.max(...kb) / 1024 : NaN, code, stdout, stdoutBytes, stderr });
    });
  });
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A dashboard of `tiles` tiles, as a user would write it. */
export function dashboardYaml(i: number, tiles = 12): string {
  let out = `apiVersion: steward/v1\nkind: Dashboard\nmetadata:\n  name: bench-${i}\nspec:\n  name: Bench dashboard ${i}\n  tags: [team:bench, shard:${i % 10}]\n  tiles:\n`;
  for (let t = 0; t < tiles; t++) {
    out += `    - name: Tile ${t}\n      x: ${(t % 4) * 6}\n      y: ${Math.floor(t / 4) * 3}\n      w: 6\n      h: 3\n      series:\n        - { type: time, dataSource: events, aggFn: count, where: "service:svc-${i} AND level:error", whereLanguage: lucene, groupBy: [host] }\n`;
  }
  return out;
}

/** The project file benchmarks write: the dashboards, and the observability API from the environment. */
export const BENCH_PROJECT =
  'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["dashboards/*.yaml"]\n  observability: { url: "${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN } }\n';

export function writeDashboards(dir: string, n: number, tiles = 12): void {
  mkdirSync(join(dir, 'dashboards'), { recursive: true });
  writeFileSync(join(dir, 'steward.yaml'), BENCH_PROJECT);
  for (let i = 0; i < n; i++) writeFileSync(join(dir, 'dashboards', `d${i}.yaml`), dashboardYaml(i, tiles));
}

export function table(rows: Array<Record<string, string | number>>): string {
  const cols = Object.keys(rows[0] ?? {});
  const fmt = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);
  const lines = [`| ${cols.join(' | ')} |`, `| ${cols.map(() => '---').join(' | ')} |`];
  for (const r of rows) lines.push(`| ${cols.map((c) => fmt(r[c] ?? '')).join(' | ')} |`);
  return lines.join('\n');
}
