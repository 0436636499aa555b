/**
 * This build against a baseline build, side by side in one run (issue 15): `steward plan --format json` on N
 * dashboard files of 12 tiles, all unchanged against an emulator with 20 ms latency, cold (no parse cache)
 * and warm, rounds interleaved so a noisy neighbour hits both alike. Reports wall time, peak RSS and the
 * size of the JSON plan, and the ratio this ÷ baseline.
 *
 *   git archive main | tar -x -C /tmp/base && ln -s $PWD/node_modules /tmp/base/ && (cd /tmp/base && npx tsc -p tsconfig.build.json)
 *   npm run build && node --import tsx bench/versus.ts --base /tmp/base [--n 10000] [--repeats 3]
 *
 * Each build gets its own copy of the files (the cache pack is per build). Asserts nothing about time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, median, table, timeNode, writeDashboards } from './lib.ts';
import { createBodies, startChild } from './plan.ts';

export interface VersusRow {
  n: number;
  run: string;
  thisMs: number;
  baseMs: number;
  ratio: number;
  thisRssMiB: number;
  baseRssMiB: number;
  thisPlanMiB: number;
  basePlanMiB: number;
}

export async function runVersus(opts: { base: string; n: number; repeats: number; log?: (l: string) => void }): Promise<VersusRow[]> {
  const log = opts.log ?? (() => {});
  const mine = mkdtempSync(join(tmpdir(), 'steward-versus-this-'));
  const theirs = mkdtempSync(join(tmpdir(), 'steward-versus-base-'));
  const baseBin = join(opts.base, 'bin/steward.js');
  try {
    writeDashboards(mine, opts.n);
    writeDashboards(theirs, opts.n);
    const bodies = await createBodies(mine);
    const seed = join(mine, 'seed.json');
    writeFileSync(seed, JSON.stringify({ dashboards: bodies, alerts: [], organizations: [] }));
    const emu = await startChild(20, seed);
    type Fig = { ms: number; rss: number; planBytes: number };
    const runs = new Map<string, Fig[]>();
    const one = async (key: string, bin: string, dir: string, cold: boolean) => {
      if (cold) rmSync(join(dir, '.steward'), { recursive: true, force: true });
      const r = await timeNode([bin, 'plan', '--format', 'json'], { cwd: dir, env: { ...emu.env, XDG_CACHE_HOME: join(dir, '.xdg') }, keepStdout: 4096 });
      if (r.code !== 0) throw new Error(`${key} exited ${r.code}: ${r.stderr.slice(0, 1000)}`);
      if (!r.stdout.includes(`"noop": ${opts.n}`)) throw new Error(`${key}: expected ${opts.n} noop: ${r.stdout.slice(0, 500)}`);
      runs.set(key, [...(runs.get(key) ?? []), { ms: r.ms, rss: r.peakRssMiB, planBytes: r.stdoutBytes }]);
      log(`${key}: ${r.ms.toFixed(0)} ms, ${r.peakRssMiB.toFixed(0)} MiB, plan ${(r.stdoutBytes / 1048576).toFixed(1)} MiB`);
    };
    try {
      for (let round = 0; round < opts.repeats; round++) {
        await one('this cold', BIN, mine, true);
        await one('base cold', baseBin, theirs, true);
        await one('this warm', BIN, mine, false);
        await one('base warm', baseBin, theirs, false);
      }
    } finally {
      await emu.stop();
    }
    const fig = (k: string) => {
      const rs = runs.get(k)!;
      return { ms: median(rs.map((r) => r.ms)), rss: Math.max(...rs.map((r) => r.rss)), plan: rs[0]!.planBytes / 1048576 };
    };
    return (['cold (no parse cache)', 'warm'] as const).map((run) => {
      const k = run === 'warm' ? 'warm' : 'cold';
      const a = fig(`this ${k}`);
      const b = fig(`base ${k}`);
      return { n: opts.n, run, thisMs: a.ms, baseMs: b.ms, ratio: a.ms / b.ms, thisRssMiB: a.rss, baseRssMiB: b.rss, thisPlanMiB: a.plan, basePlanMiB: b.plan };
    });
  } finally {
    rmSync(mine, { recursive: true, force: true });
    rmSync(theirs, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? undefined : process.argv[i + 1];
  };
  const base = arg('--base');
  if (!base) {
    process.stderr.write('usage: node --import tsx bench/versus.ts --base DIR [--n 10000] [--repeats 3]\n');
    process.exit(2);
  }
  const rows = await runVersus({ base, n: Number(arg('--n') ?? 10_000), repeats: Number(arg('--repeats') ?? 3), log: (l) => process.stderr.write(l + '\n') });
  process.stdout.write(
    table(
      rows.map((r) => ({
        N: r.n,
        run: r.run,
        'this (ms, median)': Math.round(r.thisMs),
        'baseline (ms)': Math.round(r.baseMs),
        'ratio this/baseline': Number(r.ratio.toFixed(2)),
        'peak RSS this / baseline (MiB)': `${r.thisRssMiB.toFixed(0)} / ${r.baseRssMiB.toFixed(0)}`,
        'plan JSON this / baseline (MiB)': `${r.thisPlanMiB.toFixed(1)} / ${r.basePlanMiB.toFixed(1)}`,
      })),
    ) + '\n',
  );
}
