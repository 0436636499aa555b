// The floor of `steward plan` (bench/plan.ts): what any plan of the project must do, with node:fs and
// node:http alone: read the bytes of every file under the project's folders (steward.yaml, dashboards/,
// alerts/, ...; not .steward/) and GET the dashboard list once, its body read whole. No parsing, no checks,
// no plan. Prints `{"summary":{"files":F,"bytes":B,"listBytes":L}}`.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

const cwd = process.cwd();
let files = 0;
let bytes = 0;
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.ya?ml$/.test(e.name)) {
      bytes += readFileSync(p).length;
      files++;
    }
  }
};
walk(cwd);

const url = new URL('/api/v2/dashboards', process.env.STEWARD_OBS_URL);
const listBytes = await new Promise((resolve, reject) => {
  const req = http.get(url, { headers: { authorization: `Bearer ${process.env.STEWARD_OBS_TOKEN}`, accept: 'application/json' } }, (res) => {
    let n = 0;
    res.on('data', (c) => (n += c.length));
    res.on('end', () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`GET ${url.pathname}: ${res.statusCode}`))));
    res.on('error', reject);
  });
  req.on('error', reject);
});
process.stdout.write(JSON.stringify({ summary: { files, bytes, listBytes } }, null, 2) + '\n');
