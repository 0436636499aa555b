/**
 * A server for both APIs that answers with one hostile behaviour: on every request, or only on writes (the
 * dashboard list is then an honest empty list, so apply gets as far as its POSTs). Used by the end-to-end
 * hostile tests of the CLI.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from './helpers.ts';

export type HostileMode = 'html-502' | 'truncated-json' | 'body-100mb' | 'wrong-types' | 'never-ends' | 'stalls-after-headers' | 'never-answers';
export const HOSTILE_MODES: readonly HostileMode[] = [
  'html-502',
  'truncated-json',
  'body-100mb',
  'wrong-types',
  'never-ends',
  'stalls-after-headers',
  'never-answers',
];

const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';

export interface HostileServer extends TestServer {
  /** The most bytes of one 100 MB body actually sent (the client should cut it short). */
  bigBytesSent(): number;
}

/** Answers `mode` to every request, or (scope 'writes') only to POST and PUT. */
export async function startHostileServer(mode: HostileMode, scope: 'all' | 'writes' = 'all'): Promise<HostileServer> {
  let big = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    if (scope === 'writes' && req.method === 'GET') {
      const body = req.url?.startsWith('/v1/') ? '{"status":200,"result":[]}' : '{"data":[]}';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const cloud = req.url?.startsWith('/v1/') ?? false;
    const open = cloud ? '{"status":200,"requestId":"r1","result":' : '{"data":';
    switch (mode) {
      case 'html-502':
        res.writeHead(502, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(NGINX_502) });
        res.end(NGINX_502);
        return;
      case 'truncated-json': {
        const body = `${open}[{"id":"65f5e4a3b9e77c001a000001","na`;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      case 'wrong-types': {
        const body = `${open}${req.method === 'GET' ? '[{"id":7,"name":["x"],"tiles":"none","state":5}]' : '{"id":7,"name":["x"],"tiles":"none"}'}}`;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      case 'body-100mb': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`${open}[`);
        const chunk = Buffer.from(`{"id":"x","name":"${'z'.repeat(64 * 1024)}"},`);
        let stopped = false;
        let sent = 0;
        res.on('close', () => (stopped = true));
        const pump = () => {
          while (!stopped && sent < 100 * 1024 * 1024) {
            sent += chunk.length;
            big = Math.max(big, sent);
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!stopped) res.end('{}]}');
        };
        pump();
        return;
      }
      case 'never-ends': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`${open}[`);
        const t = setInterval(() => res.write(' '), 50);
        timers.add(t);
        res.on('close', () => (clearInterval(t), timers.delete(t)));
        return;
      }
      case 'stalls-after-headers':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(open);
        return;
      case 'never-answers':
        return;
    }
  });
  return {
    get url() {
      return server.url;
    },
    get requests() {
      return server.requests;
    },
    get inFlight() {
      return server.inFlight;
    },
    get maxInFlight() {
      return server.maxInFlight;
    },
    get connections() {
      return server.connections;
    },
    bigBytesSent: () => big,
    close: async () => {
      for (const t of timers) clearInterval(t);
      await server.close();
    },
  };
}
