/**
 * A tiny loopback stand-in for the cloud management API (seed document 001): the four GET routes, Basic
 * auth, the `{ status, requestId, result }` envelope, 401/404 as envelopes, and on request latency, a
 * token-bucket rate limit answering 429 with Retry-After, and injected failures. Used until the real
 * emulator (`src/emulator/`) is merged; then the CLI test moves to it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CloudData } from './seed.ts';

export interface FakeCloudOptions {
  data: CloudData;
  keyId?: string;
  keySecret?: string;
  /** Added before every answer. */
  latencyMs?: number;
  /** Server-side limit: a bucket of `burst` tokens refilled at this rate; an empty bucket answers 429. */
  requestsPerMinute?: number;
  burst?: number;
  /** Return a status to fail that request with (e.g. 500), or undefined to serve it. */
  fail?: (path: string) => number | undefined;
}

export interface FakeCloud {
  url: string;
  /** Every request, in arrival order. */
  requests: { method: string; path: string; status: number; at: number }[];
  close(): Promise<void>;
}

const ROUTE = /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)\/(ingestpipes|ingestpipesReversePrivateEndpoints|backups)(?:\/([^/]+))?$/;

export async function startFakeCloud(opts: FakeCloudOptions): Promise<FakeCloud> {
  const expectedAuth = `Basic ${Buffer.from(`${opts.keyId ?? 'dev-key'}:${opts.keySecret ?? 'dev-secret'}`).toString('base64')}`;
  const requests: FakeCloud['requests'] = [];
  const rate = opts.requestsPerMinute ? opts.requestsPerMinute / 60_000 : undefined; // tokens per ms
  const burst = opts.burst ?? 1;
  let tokens = burst;
  let last = performance.now();

  const send = (res: ServerResponse, status: number, result: unknown, headers: Record<string, string> = {}) => {
    const body = JSON.stringify(status < 400 ? { status, requestId: randomUUID(), result } : { status, requestId: randomUUID(), error: result });
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const log = (status: number) => requests.push({ method: req.method ?? '', path, status, at: performance.now() });
    if (rate !== undefined) {
      const t = performance.now();
      tokens = Math.min(burst, tokens + (t - last) * rate);
      last = t;
      if (tokens < 1) {
        log(429);
        return send(res, 429, 'rate limit exceeded', { 'retry-after': String(Math.max(1, Math.ceil((1 - tokens) / rate / 1000))) });
      }
      tokens -= 1;
    }
    if (req.headers.authorization !== expectedAuth) {
      log(401);
      return send(res, 401, 'unauthorized');
    }
    const injected = opts.fail?.(path);
    if (injected !== undefined) {
      log(injected);
      return send(res, injected, 'injected failure');
    }
    const m = ROUTE.exec(path);
    const svc = m ? opts.data[m[1]!]?.[m[2]!] : undefined;
    if (req.method !== 'GET' || !m || !svc) {
      log(404);
      return send(res, 404, 'not found');
    }
    const [, , , what, id] = m;
    let result: unknown;
    if (what === 'ingestpipes' && id === undefined) result = svc.pipes;
    else if (what === 'ingestpipesReversePrivateEndpoints' && id === undefined) result = svc.endpoints;
    else if (what === 'backups' && id === undefined) result = svc.backups;
    else if (what === 'backups') result = svc.backups.find((b) => b.id === id);
    if (result === undefined) {
      log(404);
      return send(res, 404, 'not found');
    }
    log(200);
    send(res, 200, result);
  };

  const server = createServer((req, res) => {
    if (opts.latencyMs) setTimeout(() => handle(req, res), opts.latencyMs);
    else handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
