/** Plain HTTP helpers for the emulator tests: `fetch` on loopback, never the steward clients. */
import type { Emulator } from '../../src/emulator/index.ts';

export interface Reply {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined when the body is empty). */
  body: any;
  text: string;
}

export async function request(
  emu: Emulator<unknown> | string,
  method: string,
  path: string,
  opts: { auth?: string | null; body?: unknown; rawBody?: string } = {},
): Promise<Reply> {
  const base = typeof emu === 'string' ? emu : emu.url;
  const headers: Record<string, string> = {};
  if (opts.auth) headers['authorization'] = opts.auth;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text === '' ? undefined : JSON.parse(text) };
}

export const BEARER = 'Bearer dev-token';
export function basic(keyId = 'dev-key', keySecret = 'dev-secret'): string {
  return 'Basic ' + Buffer.from(`${keyId}:${keySecret}`).toString('base64');
}

/** Observability API with the default token unless `auth` says otherwise (null: no header). */
export function obs(emu: Emulator<unknown> | string, method: string, path: string, body?: unknown, auth: string | null = BEARER): Promise<Reply> {
  return request(emu, method, path, { auth, body });
}

/** Cloud API GET with the default key unless `auth` says otherwise. */
export function cloud(emu: Emulator<unknown> | string, path: string, auth: string | null = basic()): Promise<Reply> {
  return request(emu, 'GET', path, { auth });
}

/** A dashboard body with `n` tiles of one series each. */
export function dashboardBody(name: string, n = 2, tags: string[] = ['team:payments']): Record<string, unknown> {
  return {
    name,
    tags,
    tiles: Array.from({ length: n }, (_, i) => ({
      name: `Tile ${i + 1}`,
      x: (i % 2) * 6,
      y: Math.floor(i / 2) * 3,
      w: 6,
      h: 3,
      asRatio: false,
      series: [
        {
          type: 'time',
          dataSource: 'events',
          sourceId: '65f5e4a3b9e77c001a0000f1',
          aggFn: 'count',
          where: `level:error tile:${i}`,
          whereLanguage: 'lucene',
          groupBy: [],
        },
      ],
    })),
  };
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const HEX24 = /^[0-9a-f]{24}$/;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
