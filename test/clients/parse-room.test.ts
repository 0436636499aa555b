/**
 * A body within the size limit that JSON.parse could not hold in the heap is refused in one line before it is
 * parsed (red team round 10, F1: 400 MiB of `{},` under the heap-derived limit ran Node out of heap after ten
 * minutes, with a native stack trace). parseRoom is the pure count; the CLI run shows the line a user sees.
 */
import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRoom } from '../../src/clients/response.ts';
import { BIN, steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { startServer } from './helpers.ts';

const MiB = 1024 * 1024;

test('parseRoom: what parsing needs (two bytes per byte, 64 per object or array, 16 per comma or colon), refused only above what is free', () => {
  const cases: Array<[string, string, number, { values: number; need: number } | undefined]> = [
    ['fits', '{"data":[{},{}]}', 1000, undefined],
    ['empty objects: a container per brace, a slot per comma', '[{},{},{}]', 100, { values: 6, need: 10 * 2 + 4 * 64 + 2 * 16 }],
    ['keys and values', '{"a":1,"b":[2,3]}', 50, { values: 6, need: 17 * 2 + 2 * 64 + 4 * 16 }],
    ['nested arrays: a container per bracket', '[[[[]]]]', 100, { values: 4, need: 8 * 2 + 4 * 64 }],
    ['braces in strings count too (an overestimate)', '["{[,:"]', 10, { values: 5, need: 8 * 2 + 3 * 64 + 2 * 16 }],
    ['a string alone needs its text', '"' + 'x'.repeat(98) + '"', 199, { values: 0, need: 200 }],
    ['exactly what is free fits', '[]', 2 * 2 + 64, undefined],
  ];
  for (const [label, text, free, want] of cases) {
    const got = parseRoom(Buffer.from(text), free);
    assert.equal(got, want && { ...want, free }, label);
  }
});

test('steward plan against a list of empty objects too many for the heap: one line, exit 1, no V8 crash', async () => {
  // 16 MiB of the densest JSON there is (within the 64 MiB limit): about 350 MiB of objects, for a heap of 256 MiB.
  const total = 16 * MiB;
  const server = await startServer((req, res) => {
    if (!(req.url ?? '').startsWith('/api/v2/dashboards')) return void res.writeHead(404).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":[');
    const chunk = Buffer.from('{},'.repeat(256 * 1024));
    let sent = 0;
    let closed = false;
    res.on('close', () => (closed = true));
    const pump = () => {
      while (!closed && sent < total) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!closed) res.end('{}]}');
    };
    pump();
  });
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  try {
    const r = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--max-old-space-size=256', BIN, 'plan'], {
        cwd: p.dir,
        env: {
          PATH: process.env['PATH'] ?? '',
          NO_COLOR: '1',
          STEWARD_OBS_URL: server.url,
          STEWARD_OBS_TOKEN: 'tok-parse-room-1',
          STEWARD_CLOUD_URL: server.url,
          STEWARD_CLOUD_KEY_ID: 'k',
          STEWARD_CLOUD_KEY_SECRET: 's',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
    assert.is(r.code, 1, r.out);
    assert.not.match(r.out, /FATAL ERROR|heap out of memory|\n\s+at /);
    const lines = r.out.trim().split('\n');
    assert.is(lines.length, 1, r.out);
    assert.match(
      lines[0]!,
      /^error: GET \/api\/v2\/dashboards: response of \d+ MiB holds [\d,]+ JSON values or more; reading them would take about [\d,]+ MiB, more than the [\d,]+ MiB this process has left \(Node's heap limit; NODE_OPTIONS=--max-old-space-size raises it\); refused/,
      r.out,
    );
  } finally {
    p.cleanup();
    await server.close();
  }
});

test('report: the cloud lists keep the 64 MiB limit when STEWARD_MAX_RESPONSE_MIB is not set (three read at once)', async () => {
  const server = await startServer((req, res) => {
    const path = (req.url ?? '').replace(/\?.*/, '');
    if (!path.endsWith('/backups')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"error":"not here"}');
    // Declared larger than 64 MiB: refused as the headers arrive, nothing of it read.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(65 * MiB) });
    res.write('{"status":200,"requestId":"r1","result":[');
    // A client that reads on gets a cut body soon (never a wait of the request timeout).
    setTimeout(() => res.destroy(), 500);
  });
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  try {
    const r = await steward(['report'], {
      cwd: p.dir,
      env: { STEWARD_OBS_URL: server.url, STEWARD_OBS_TOKEN: 't', STEWARD_CLOUD_URL: server.url, STEWARD_CLOUD_KEY_ID: 'k', STEWARD_CLOUD_KEY_SECRET: 's' },
    });
    assert.match(
      r.stdout,
      /could not list backups: GET \/v1\/.*response larger than 64 MiB \(maxResponseBytes; STEWARD_MAX_RESPONSE_MIB raises it\); refused/,
      r.stdout + r.stderr,
    );
  } finally {
    p.cleanup();
    await server.close();
  }
});

test.run();
