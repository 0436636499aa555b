/**
 * Test helpers for the clients: a loopback `node:http` server that records every request and lets each
 * test script its answers (including hostile ones), and a fake clock whose sleep advances time.
 */
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import { createServer, type IncomingMessage, type ServerResponse, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Recorded {
  method: string;
  /** Path and query as received (still URL-encoded). */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** 1-based index of this request on the server. */
  n: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, rec: Recorded) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: Recorded[];
  /** Requests being handled right now, and the most seen at once. */
  inFlight: number;
  maxInFlight: number;
  /** Connections accepted since start. */
  connections: number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  const state = { inFlight: 0, maxInFlight: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        n: requests.length + 1,
      };
      requests.push(rec);
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      let done = false;
      const finished = () => {
        if (!done) {
          done = true;
          state.inFlight--;
        }
      };
      res.on('finish', finished);
      res.on('close', finished);
      Promise.resolve(handler(req, res, rec)).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(599);
        res.end(String(err));
      });
    });
  });
  let connections = 0;
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get inFlight() {
      return state.inFlight;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON body. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Sends a raw body with a content type. */
export function raw(res: ServerResponse, status: number, body: string, contentType: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** A clock that only moves when slept on: `sleeps` records every requested wait. */
export function fakeClock(start = Date.UTC(2026, 0, 1)) {
  let t = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}

/** Runs `fn` and returns the error it throws (fails the test when it does not throw). */
export async function rejects(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof Error) return e;
    throw new Error(`threw a non-Error: ${String(e)}`);
  }
  throw new Error('expected a rejection, but it resolved');
}

export const TOKEN = 'tok_canary_4f1d9c2b7a';
export const KEY_ID = 'key_canary_id_81b2';
export const KEY_SECRET = 'sec_canary_secret_93c7e';

/** A ClickStack (ClickHouse Cloud) client's connection: the profile, the API key and the ids in the path. */
export const CLICKSTACK = {
  profile: OBSERVABILITY_PROFILES['clickstack-cloud'],
  keyId: 'key-id',
  keySecret: 'key-secret',
  organizationId: 'org',
  serviceId: 'svc',
};
