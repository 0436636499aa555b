/**
 * A fake observability backend (a small HTTP server on 127.0.0.1) that commits creates late, answers 504
 * while it commits, or answers 2xx without the new id. steward must never make a duplicate, and a 2xx is
 * applied: never sent again.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { confirmedEntries, parseJournal } from '../../src/apply/journal.ts';

type Mode = { create: 'ok' | 'late' | '504-commits' | '504-never' | 'no-id' | 'empty-body'; alert?: 'ok' | 'no-id'; commitMs?: number };
interface Dash {
  id: string;
  name: string;
  tags: string[];
  tiles: Array<Record<string, unknown>>;
}

async function fakeBackend(mode: Mode) {
  const dashboards: Dash[] = [];
  const log: Array<{ method: string; path: string; status: number }> = [];
  let n = 0;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const commit = (body: Record<string, unknown>): Dash => {
    n++;
    const d: Dash = {
      id: `d${String(n).padStart(23, '0')}`,
      name: String(body['name']),
      tags: (body['tags'] as string[]) ?? [],
      tiles: ((body['tiles'] as Array<Record<string, unknown>>) ?? []).map((t, i) => ({ id: `t${n}-${i}`, ...t })),
    };
    dashboards.push(d);
    return d;
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.setEncoding('utf8').on('data', (c: string) => (text += c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const record = (status: number) => log.push({ method: req.method ?? '', path, status });
      if (req.method === 'GET' && path === '/api/v2/dashboards') {
        record(200);
        return send(res, 200, { data: dashboards });
      }
      if (req.method === 'POST' && path === '/api/v2/dashboards') {
        const body = JSON.parse(text) as Record<string, unknown>;
        const commitMs = mode.commitMs ?? 500;
        switch (mode.create) {
          case 'late':
            // Commits after the client has given up, then answers a connection nobody reads.
            record(0);
            return later(commitMs, () => send(res, 200, { data: commit(body) }));
          case '504-commits':
            // A gateway gives up and answers 504; the backend behind it commits a little later.
            record(504);
            later(commitMs, () => commit(body));
            return send(res, 504, { message: 'gateway timeout' });
          case '504-never':
            record(504);
            return send(res, 504, { message: 'gateway timeout' });
          case 'no-id': {
            record(200);
            const { id: _id, ...rest } = commit(body);
            return send(res, 200, { data: rest });
          }
          case 'empty-body':
            record(200);
            commit(body);
            return send(res, 200, undefined);
          default:
            record(200);
            return send(res, 200, { data: commit(body) });
        }
      }
      const m = /^\/api\/v2\/alerts\/([^/]+)$/.exec(path);
      if (req.method === 'PUT' && m) {
        record(200);
        if (mode.alert === 'no-id') return send(res, 200, {});
        return send(res, 200, { data: { id: decodeURIComponent(m[1]!), ...JSON.parse(text) } });
      }
      record(404);
      send(res, 404, { message: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    dashboards,
    log,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** examples/ in a temp folder, pointed at the fake, with a 300 ms request timeout. */
function project(url: string) {
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replace('requestsPerMinute: 100\n    markerTag', 'requestsPerMinute: 6000\n    timeoutSeconds: 0.3\n    markerTag'));
  return { ...p, env: { STEWARD_OBS_URL: url, STEWARD_OBS_TOKEN: 'dev-token', XDG_CACHE_HOME: join(p.dir, '.cache') } };
}

const NAMES = ['Checkout overview', 'JVM runtime', 'Public API latency'];
const posts = (log: Array<{ method: string }>) => log.filter((e) => e.method === 'POST').length;

test('a backend that commits after the client gave up: steward waits, finds each dashboard, sends nothing again', async () => {
  const fake = await fakeBackend({ create: 'late', commitMs: 450 });
  const p = project(fake.url);
  try {
    const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: p.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.match(a.stdout, 'waiting 300 ms for it to settle');
    assert.equal(fake.dashboards.map((d) => d.name).sort(), NAMES);
    assert.is(posts(fake.log), 3, 'one POST per dashboard');
    const again = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: p.env });
    assert.is(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, 'Nothing to apply.');
  } finally {
    await fake.close();
    p.cleanup();
  }
});

test('a gateway answering 504 while the backend commits never yields a duplicate', async () => {
  const fake = await fakeBackend({ create: '504-commits', commitMs: 150 });
  const p = project(fake.url);
  try {
    const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: p.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.equal(fake.dashboards.map((d) => d.name).sort(), NAMES);
    assert.is(posts(fake.log), 3);
  } finally {
    await fake.close();
    p.cleanup();
  }
});

test('504 and nothing committed: sent again only after two settled lists without it, then "outcome unknown, not re-sent", exit 1', async () => {
  const fake = await fakeBackend({ create: '504-never' });
  const p = project(fake.url);
  try {
    const a = await steward(['apply', '--auto-approve', '--target', 'dashboard/api-latency'], { cwd: p.dir, env: p.env });
    assert.is(a.code, 1, a.stdout + a.stderr);
    assert.match(a.stdout, 'outcome unknown, not re-sent');
    assert.is(posts(fake.log), 2, 'the first send and one re-send after two empty lists');
    const gets = fake.log.filter((e) => e.method === 'GET').length;
    assert.ok(gets >= 5, `plan, staleness skipped, two lists per send (${gets} GETs)`);
  } finally {
    await fake.close();
    p.cleanup();
  }
});

test('a create answered 2xx without its id is applied: never sent again, its id found by listing and said', async () => {
  for (const create of ['no-id', 'empty-body'] as const) {
    const fake = await fakeBackend({ create });
    const p = project(fake.url);
    try {
      const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: p.env });
      assert.is(a.code, 0, `${create}: ${a.stdout}${a.stderr}`);
      assert.match(a.stdout, 'answered 2xx without the new id; found d');
      assert.is(posts(fake.log), 3, `${create}: 3 POSTs for 3 dashboards`);
      assert.equal(fake.dashboards.map((d) => d.name).sort(), NAMES);
      const journal = readFileSync(join(p.dir, '.steward/journal.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.is(journal.filter((j) => j.op === 'dashboard.create').length, 3);
    } finally {
      await fake.close();
      p.cleanup();
    }
  }
});

test('an alert PUT answered 2xx without an id is applied and its record kept', async () => {
  const fake = await fakeBackend({ create: 'ok', alert: 'no-id' });
  const p = project(fake.url);
  try {
    const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: p.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.match(a.stdout, 'Apply complete: 3 created, 4 updated');
    const state = JSON.parse(readFileSync(join(p.dir, '.steward/state.json'), 'utf8'));
    assert.is(Object.keys(state.alerts).length, 4);
    const plan = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env: p.env });
    assert.is(plan.code, 0, plan.stdout);
  } finally {
    await fake.close();
    p.cleanup();
  }
});

test('Ctrl-C while a create settles: not re-sent, reported unknown, exit 130, the journal agrees with the server', async () => {
  const { spawn } = await import('node:child_process');
  const { BIN } = await import('../helpers/exec.ts');
  const fake = await fakeBackend({ create: '504-never' });
  const p = project(fake.url);
  try {
    const r = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'apply', '--auto-approve', '--target', 'dashboard/api-latency', '--settle', '30s'], {
        cwd: p.dir,
        env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...p.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (d.includes('waiting 30 s for it to settle')) child.kill('SIGINT');
      });
      const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(kill);
        resolve({ code, stdout });
      });
    });
    assert.is(r.code, 130, r.stdout);
    assert.match(r.stdout, 'Apply interrupted');
    assert.match(r.stdout, 'interrupted while waiting for it to settle, not re-sent');
    assert.is(posts(fake.log), 1, 'never sent again');
    const { existsSync } = await import('node:fs');
    const journalPath = join(p.dir, '.steward/journal.jsonl');
    const journal = parseJournal(existsSync(journalPath) ? readFileSync(journalPath, 'utf8') : '');
    assert.equal(confirmedEntries(journal), [], 'nothing confirmed, nothing journalled; the server has nothing either');
    assert.equal(
      journal.map((e) => e.op),
      ['dashboard.send'],
      'only the create it sent, for the run that takes over',
    );
    assert.is(fake.dashboards.length, 0);
  } finally {
    await fake.close();
    p.cleanup();
  }
});

test.run();
