// The floor for validate: read and YAML-parse every file (with positions), nothing else.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';

const dir = process.argv[2];
let docs = 0;
for (const f of readdirSync(dir)) {
  const lineCounter = new LineCounter();
  for (const d of parseAllDocuments(readFileSync(join(dir, f), 'utf8'), { lineCounter })) {
    d.toJS();
    docs++;
  }
}
process.stdout.write(`${docs}\n`);
