import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a proxy answers itself instead of forwarding. */
export interface ProxyAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/**
 * A proxy on 127.0.0.1 in front of `target` (an emulator) that forwards every request, except those
 * `intercept` answers itself; `rewrite` may change a forwarded answer's text. For servers that misbehave in
 * one way the emulator does not (a 429 without its limiter, a list short of its total).
 */
export async function startProxy(
  target: string,
  opts: {
    /** May be awaited; `body` is the request's text (a hook may act on the server first, then forward it). */
    intercept?: (req: IncomingMessage, path: string, body: string) => ProxyAnswer | undefined | Promise<ProxyAnswer | undefined>;
    /**
     * A new text for a forwarded answer, or a whole answer instead of it (the request was still forwarded);
     * `'drop'` cuts the connection without an answer (the server has committed it). May be awaited first.
     */
    rewrite?: (req: IncomingMessage, path: string, status: number, text: string) => string | ProxyAnswer | 'drop' | Promise<string | ProxyAnswer | 'drop'>;
  },
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '').split('?')[0]!;
        const own = await opts.intercept?.(req, path, Buffer.concat(chunks).toString('utf8'));
        if (own) {
          res.writeHead(own.status, { 'content-type': 'application/json', ...own.headers }).end(own.body);
          return;
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const r = await fetch(target + req.url, { method: req.method, headers, ...(body ? { body } : {}) });
        const text = await r.text();
        const out = opts.rewrite ? await opts.rewrite(req, path, r.status, text) : text;
        if (out === 'drop') res.destroy();
        else if (typeof out === 'string') res.writeHead(r.status, { 'content-type': 'application/json' }).end(out);
        else res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers }).end(out.body);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
