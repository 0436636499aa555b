import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

// plan starts reading the live lists once the project file is known, while the resource files are parsed
// (issue 15). These cases pin what that must not change: a file's problem is what a broken project
// reports, and a plan stopped by one leaves no request behind.

async function listen(handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function brokenExamples(): { dir: string; cleanup: () => void } {
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replaceAll('requestsPerMinute: 100', 'requestsPerMinute: 6000'));
  appendFileSync(
    join(p.dir, 'dashboards/jvm-runtime.yaml'),
    '\n---\napiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: extra }\nspec: { name: x, tiles: 7 }\n',
  );
  return p;
}

const env = (url: string) => ({ STEWARD_OBS_URL: url, STEWARD_OBS_TOKEN: 'tok-early-reads-1234' });

test('a file problem is reported, not the 401 the early list read got', async () => {
  const { server, url } = await listen((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"bad token"}');
  });
  const p = brokenExamples();
  try {
    const r = await steward(['plan'], { cwd: p.dir, env: env(url) });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, /dashboards\/jvm-runtime\.yaml:\d+:\d+/);
    assert.not.match(r.stderr, '401');
  } finally {
    server.close();
    p.cleanup();
  }
});

test('a plan stopped by a file problem aborts the list read it started (a hanging server is left at once)', async () => {
  let seen: () => void;
  const requested = new Promise<void>((r) => (seen = r));
  let closed: () => void;
  const abandoned = new Promise<void>((r) => (closed = r));
  const { server, url } = await listen((req) => {
    // Never answers: only the client can end this request.
    seen();
    req.socket.once('close', () => closed());
  });
  const p = brokenExamples();
  try {
    const r = await steward(['plan'], { cwd: p.dir, env: env(url) });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, /dashboards\/jvm-runtime\.yaml:\d+:\d+/);
    await requested;
    // The client's own timeout is 30 s; an abort closes the socket at once. Far from both.
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([abandoned.then(() => 'closed'), new Promise((r) => (timer = setTimeout(() => r('still open'), 15_000)))]);
    clearTimeout(timer);
    assert.is(outcome, 'closed');
  } finally {
    server.closeAllConnections();
    server.close();
    p.cleanup();
  }
});

test('a --target not written kind/name is refused before any request', async () => {
  let requests = 0;
  const { server, url } = await listen((_req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  try {
    const r = await steward(['plan', '--target', 'jvm-runtime'], { cwd: p.dir, env: env(url) });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, '--target jvm-runtime: write kind/name');
    assert.is(requests, 0);
  } finally {
    server.close();
    p.cleanup();
  }
});

test.run();
