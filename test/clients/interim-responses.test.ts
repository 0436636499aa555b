/**
 * A server or proxy that sends an interim answer nobody asked for (`100 Continue`, `102 Processing`, `103 Early
 * Hints`) before the real one. RFC 9110 (15.2) has a client read and skip them; steward never sends `Expect:
 * 100-continue`. Over real HTTP: a raw `net` server on 127.0.0.1 in front of the emulator writes them before
 * every answer, and steward applies through it on the hyperdx profile (GET, POST, PUT, DELETE) and on the seed
 * profile (GET, POST, PUT). Every answer must be read as the real one: nothing misread, nothing hangs, no
 * create is sent twice, and a later plan against the emulator itself has nothing to do.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createObservabilityClient } from '../../src/clients/observability.ts';
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
const EARLY_HINTS = 'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n';
const PROCESSING = 'HTTP/1.1 102 Processing\r\n\r\n';

/** When the interim answers are written: as soon as the request's head is in (before its body is read), or in one write with the answer. */
type When = 'before-body' | 'with-answer';

/**
 * A raw HTTP/1.1 front on 127.0.0.1: reads each request (Content-Length bodies, keep-alive, one at a time per
 * connection), forwards it to `target` and writes `interim`, then the answer. Counts the requests by method.
 */
async function startInterimFront(target: string, interim: string, when: When): Promise<{ url: string; sent: Map<string, number>; close: () => Promise<void> }> {
  const sent = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = Buffer.alloc(0);
    let busy: Promise<void> = Promise.resolve();
    let announced = false;
    socket.on('data', (data: Buffer) => {
      buffered = Buffer.concat([buffered, data]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        if (when === 'before-body' && !announced) {
          announced = true;
          socket.write(interim);
        }
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const body = buffered.subarray(end + 4, end + 4 + length);
        buffered = buffered.subarray(end + 4 + length);
        announced = false;
        const [method, path] = head.split(' ') as [string, string];
        sent.set(method, (sent.get(method) ?? 0) + 1);
        const headers: Record<string, string> = {};
        for (const line of head.split('\r\n').slice(1)) {
          const i = line.indexOf(':');
          const k = line.slice(0, i).trim().toLowerCase();
          if (!['host', 'content-length', 'connection', 'accept-encoding'].includes(k)) headers[k] = line.slice(i + 1).trim();
        }
        busy = busy.then(async () => {
          const r = await fetch(target + path, { method, headers, ...(length > 0 ? { body } : {}) });
          const text = Buffer.from(await r.arrayBuffer());
          const type = r.headers.get('content-type') ?? 'application/json';
          const answer = `HTTP/1.1 ${r.status} ${r.statusText || 'X'}\r\ncontent-type: ${type}\r\ncontent-length: ${text.length}\r\n\r\n`;
          socket.write(Buffer.concat([Buffer.from((when === 'with-answer' ? interim : '') + answer, 'latin1'), text]));
        });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

interface Result {
  ok: boolean;
  created: Array<{ name: string }>;
  updated: Array<{ name: string }>;
  deleted?: Array<{ name: string }>;
  failed: unknown[];
  unknown?: unknown[];
}

const interims = [
  { what: '100 Continue', interim: CONTINUE },
  { what: '100 Continue twice, 102 and 103 with headers', interim: CONTINUE + PROCESSING + EARLY_HINTS + CONTINUE },
];

for (const { what, interim } of interims) {
  for (const when of ['before-body', 'with-answer'] as const) {
    test(`hyperdx: ${what} (${when}) before every answer: creates, updates and deletes read their real answers`, async () => {
      const p = tmpProject({});
      // A short request timeout: an answer misread as lost settles in 1 s, not 30.
      copyExample(p.dir, 'hyperdx', { timeoutSeconds: 1 });
      const emu = await startEmulator({ api: 'hyperdx', seed: 21 });
      const front = await startInterimFront(emu.url, interim, when);
      try {
        const env = { ...emu.env, STEWARD_OBS_URL: front.url };
        const first = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: p.dir, env });
        assert.is(first.code, 0, first.stdout + first.stderr);
        const created = JSON.parse(first.stdout) as Result;
        assert.ok(created.created.length > 0, first.stdout);
        assert.is(front.sent.get('POST'), created.created.length, 'one POST per create: none sent twice');

        const alerts = join(p.dir, 'alerts/checkout.yaml');
        writeFileSync(alerts, readFileSync(alerts, 'utf8').replace('threshold: 50', 'threshold: 51'));
        const dash = join(p.dir, 'dashboards/checkout.yaml');
        writeFileSync(dash, readFileSync(dash, 'utf8').replace('w: 8', 'w: 7'));
        const second = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: p.dir, env });
        assert.is(second.code, 0, second.stdout + second.stderr);
        assert.equal((JSON.parse(second.stdout) as Result).updated.map((u) => u.name).sort(), ['checkout-errors', 'checkout-overview'], second.stdout);

        rmSync(join(p.dir, 'dashboards/jvm.yaml'));
        const third = await steward(['apply', '--auto-approve', '--prune', '--format', 'json'], { cwd: p.dir, env });
        assert.is(third.code, 0, third.stdout + third.stderr);
        assert.equal(
          (JSON.parse(third.stdout) as Result).deleted?.map((d) => d.name),
          ['JVM runtime (HyperDX)'],
          third.stdout,
        );
        assert.ok((front.sent.get('PUT') ?? 0) >= 2 && (front.sent.get('DELETE') ?? 0) >= 1, JSON.stringify([...front.sent]));

        const plan = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env: emu.env });
        assert.is(plan.code, 0, plan.stdout + plan.stderr);
      } finally {
        await front.close();
        await emu.close();
        p.cleanup();
      }
    });
  }
}

test('seed: 100 Continue before every answer: dashboard creates and alert updates read their real answers', async () => {
  const p = tmpProject({});
  copyExample(p.dir, undefined, { timeoutSeconds: 1 });
  const emu = await startEmulator({ seed: 22 });
  const front = await startInterimFront(emu.url, CONTINUE, 'before-body');
  try {
    const env = { ...emu.env, STEWARD_OBS_URL: front.url };
    const r = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: p.dir, env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    const result = JSON.parse(r.stdout) as Result;
    assert.ok(result.created.length > 0 && result.updated.length > 0, r.stdout);
    assert.is(front.sent.get('POST'), result.created.length, 'one POST per create: none sent twice');
    assert.is(front.sent.get('PUT'), result.updated.length);
    const plan = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env: emu.env });
    assert.is(plan.code, 0, plan.stdout + plan.stderr);
  } finally {
    await front.close();
    await emu.close();
    p.cleanup();
  }
});

test('a chunked gzip list after 100 Continue, three times on one connection: read paused mid-answer and resumed, nothing read twice', async () => {
  // 40,000 dashboards, ~50 MB once decoded: the decoder falls behind, so the answer's reading is paused and
  // resumed many times.
  const items = Array.from({ length: 40_000 }, (_, i) => ({
    id: `65f5e4a3b9e77c001a${String(i).padStart(6, '0')}`,
    name: `dashboard ${i} ${'x'.repeat(1200)}`,
    tiles: [],
  }));
  const gz = gzipSync(JSON.stringify({ data: items }));
  const framed: Buffer[] = [];
  for (let i = 0; i < gz.length; i += 4096) {
    const piece = gz.subarray(i, i + 4096);
    framed.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  const answer = Buffer.concat([
    Buffer.from(`${CONTINUE}HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ntransfer-encoding: chunked\r\n\r\n`),
    ...framed,
    Buffer.from('0\r\n\r\n'),
  ]);
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let text = '';
    socket.on('error', () => {});
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      for (let end = text.indexOf('\r\n\r\n'); end >= 0; end = text.indexOf('\r\n\r\n')) {
        text = text.slice(end + 4);
        requests++;
        socket.write(answer);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const client = createObservabilityClient({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      token: 'token',
      profile: OBSERVABILITY_PROFILES.hyperdx,
      requestsPerMinute: 6000,
      concurrency: 1,
    });
    for (let k = 0; k < 3; k++) {
      const listed = await client.listDashboards();
      assert.is(listed.length, 40_000);
      assert.is(listed[39_999]!.id, '65f5e4a3b9e77c001a039999');
    }
    assert.is(requests, 3, 'no request was tried again');
    assert.is(sockets.size, 1, 'one connection');
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test.run();
