import { processFile } from '../src/config/resources.ts';
import { dashboardYaml } from './lib.ts';
const files = Array.from({ length: 1000 }, (_, i) => Buffer.from('# yaml-language-server: $schema=../schemas/dashboard.schema.json\n' + dashboardYaml(i)));
const run = (fast: boolean) => {
  const t = performance.now();
  for (const f of files) processFile('/x.yaml', f, {}, { isProjectFile: false, fast });
  return performance.now() - t;
};
run(true);
run(false);
const a: number[] = [],
  b: number[] = [];
for (let r = 0; r < 5; r++) {
  a.push(run(true));
  b.push(run(false));
}
const med = (x: number[]) => x.sort((p, q) => p - q)[2]!;
console.log(
  `1000 files x 12 tiles, in process, median of 5 interleaved: fast ${med(a).toFixed(0)} ms, yaml ${med(b).toFixed(0)} ms, ratio ${(med(a) / med(b)).toFixed(3)}`,
);
