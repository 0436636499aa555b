/**
 * A resource file of the densest YAML there is (`{},` over and over, under a key) within the 4 MiB bound: yaml
 * keeps about a kilobyte of heap per value, and 4 MiB of it stopped validate after 30 s with V8's "heap out of
 * memory" and a native stack trace on a 1 GiB heap (red team, round 16). Counted before parsing: one line at
 * the file, exit 1. Here 1 MiB of it and a 64 MiB heap, so the old crash comes in a second or two.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { yamlRoom } from '../../src/config/source.ts';
import { BIN, run } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = `apiVersion: steward/v1
kind: Project
metadata: { name: dense }
spec:
  resources: [dashboards/*.yaml]
`;

test('yamlRoom: every value mark counted at a kilobyte, refused only above what is free', () => {
  assert.is(yamlRoom(Buffer.from('a: [1,2]\n'), 1e9), undefined);
  assert.equal(yamlRoom(Buffer.from('a: [1,2]\n'), 4000), { values: 4, need: 9 * 2 + 4 * 1024, free: 4000 });
  assert.is(yamlRoom(Buffer.from('abc'), 3 * 1026), undefined, 'a file whose every byte could be a value, and fits, is not counted');
});

test('validate: a resource file too dense for the heap is one line at the file, exit 1, no V8 crash', async () => {
  const p = tmpProject({
    'steward.yaml': PROJECT,
    'dashboards/dense.yaml': `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d }\nspec:\n  name: d\n  tiles: []\n  x: [${'{},'.repeat(350_000)}{}]\n`,
    'dashboards/fine.yaml': `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: f }\nspec:\n  name: f\n  tiles: []\n`,
  });
  try {
    const r = await run(process.execPath, ['--max-old-space-size=64', BIN, 'validate'], {
      cwd: p.dir,
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', XDG_CACHE_HOME: join(p.dir, '.cache') },
      timeoutMs: 60_000,
    });
    const out = r.stdout + r.stderr;
    assert.is(r.code, 1, out);
    assert.not.match(out, /FATAL ERROR|heap out of memory|Native stack trace/);
    assert.match(
      out,
      /^dashboards\/dense\.yaml:1:1 {2}\/ {2}error: file holds up to 700,0\d\d YAML values in 2 MiB; reading them would take about [\d,]+ MiB, more than the [\d,]+ MiB this process has left \(Node's heap limit; NODE_OPTIONS=--max-old-space-size raises it\): split it into several files$/m,
    );
    assert.match(out, /1 problem in 1 file; checked 3 files/);
  } finally {
    p.cleanup();
  }
});

test.run();
