/**
 * validate: 1,000 dashboard files of 12 tiles, against the floor of only parsing them; start-up cost of
 * `steward --version`, `steward plan --help` and `steward validate examples` against a bare `node -e ''`.
 * Run: node --import tsx bench/validate.ts   (after npm run build)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, median, table, timeNode, writeDashboards } from './lib.ts';

export async function runValidateBench(opts: { files?: number; repeats?: number } = {}) {
  const files = opts.files ?? 1000;
  const repeats = opts.repeats ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'steward-bench-validate-'));
  try {
    writeDashboards(dir, files);
    const rows: Array<Record<string, string | number>> = [];
    const measure = async (name: string, args: string[], peer?: string) => {
      const runs = [];
      for (let i = 0; i < repeats; i++) runs.push(await timeNode(args, { cwd: dir }));
      if (runs.some((r) => r.code !== 0)) throw new Error(`${name} failed: ${runs.find((r) => r.code !== 0)?.stdout}`);
      const ms = median(runs.map((r) => r.ms));
      rows.push({ case: name, 'median ms': ms, 'peak RSS MiB': Math.max(...runs.map((r) => r.peakRssMiB)), peer: peer ?? '', ratio: '' });
      return ms;
    };
    // Interleaved peers, so a noisy neighbour hits both sides alike.
    const bare = await measure('node -e "" (bare start-up)', ['-e', '']);
    const version = await measure('steward --version', [BIN, '--version'], 'bare node');
    const help = await measure('steward plan --help', [BIN, 'plan', '--help'], 'bare node');
    // --no-cache: these rows measure parsing and start-up; the parse cache would answer runs 2 and 3.
    const examples = await measure('steward validate examples', [BIN, 'validate', '--no-cache', join(ROOT, 'examples')], 'bare node');
    const parse = await measure(`parse only: ${files} files (floor)`, [join(ROOT, 'bench/parse-only.mjs'), join(dir, 'dashboards')]);
    const validate = await measure(`steward validate: ${files} files x 12 tiles`, [BIN, 'validate', '--no-cache'], 'parse only');
    rows[1]!['ratio'] = version / bare;
    rows[2]!['ratio'] = help / bare;
    rows[3]!['ratio'] = examples / bare;
    rows[5]!['ratio'] = validate / parse;
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runValidateBench();
  process.stdout.write(table(rows) + '\n');
}
