/**
 * A saved plan of the densest JSON there is (`{},` over and over) within the plan size bound: show and apply
 * parsed it whole, and Node stopped out of heap with a native stack trace (red team, round 16: 192 MiB held
 * show six minutes on a 4 GiB heap, then SIGABRT). Counted before parsing, as a response body is: one line,
 * exit 1. Here with a 64 MiB heap and 7 MiB of it, so the old crash comes in a second. The state file too: it is
 * in the work tree (a pull request may change it), and 60 MiB of the same stopped plan on a 1 GiB heap.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN, run } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = `apiVersion: steward/v1
kind: Project
metadata: { name: heap }
spec:
  resources: [dashboards/*.yaml]
  observability: { api: hyperdx, url: "http://127.0.0.1:9", token: { env: STEWARD_OBS_TOKEN } }
`;

for (const args of [['show'], ['apply', '--auto-approve']]) {
  test(`${args[0]} FILE: a plan too dense for the heap is one line, exit 1, no V8 crash`, async () => {
    const p = tmpProject({ 'steward.yaml': PROJECT, 'dashboards/.keep': '' });
    try {
      const file = join(p.dir, 'plan.json');
      writeFileSync(file, `{"items":[${'{},'.repeat(2 * 1024 * 1024)}{}]}`);
      const r = await run(process.execPath, ['--max-old-space-size=64', BIN, ...args, file], {
        cwd: p.dir,
        env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', STEWARD_OBS_TOKEN: 't', XDG_CACHE_HOME: join(p.dir, '.cache') },
        timeoutMs: 60_000,
      });
      const out = r.stdout + r.stderr;
      assert.is(r.code, 1, out);
      assert.not.match(out, /FATAL ERROR|heap out of memory|Native stack trace/);
      assert.match(
        out.trim(),
        /^error: cannot read plan \S*plan\.json: its 7 MiB hold 4,194,308 JSON values or more, which would take about [\d,]+ MiB to read, more than the [\d,]+ MiB this process has left \(Node's heap limit; NODE_OPTIONS=--max-old-space-size raises it\)$/,
      );
    } finally {
      p.cleanup();
    }
  });
}

test('plan: a state file too dense for the heap is one line, exit 1, no V8 crash (it is in the work tree)', async () => {
  const p = tmpProject({
    'steward.yaml': PROJECT,
    'dashboards/.keep': '',
    '.steward/state.json': `{"formatVersion":1,"alerts":{},"x":[${'{},'.repeat(2 * 1024 * 1024)}{}]}`,
  });
  try {
    const r = await run(process.execPath, ['--max-old-space-size=64', BIN, 'plan'], {
      cwd: p.dir,
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', STEWARD_OBS_TOKEN: 't', XDG_CACHE_HOME: join(p.dir, '.cache') },
      timeoutMs: 60_000,
    });
    const out = r.stdout + r.stderr;
    assert.is(r.code, 1, out);
    assert.not.match(out, /FATAL ERROR|heap out of memory|Native stack trace/);
    assert.match(out, /cannot read state file \S*state\.json: its 7 MiB hold 4,194,3\d\d JSON values or more, which would take about [\d,]+ MiB to read/);
  } finally {
    p.cleanup();
  }
});

test.run();
