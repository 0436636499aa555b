/**
 * A minimal fetch-based CloudReader for tests and the bench, standing in for `src/clients/cloud.ts` until it
 * is merged: Basic auth, unwraps the envelope's `result`, spaces requests to stay under `requestsPerMinute`,
 * and waits out a 429's Retry-After (a few times). Not a product client: no timeouts, no jitter.
 */
import type { ObservedBackup, ObservedEndpoint, ObservedPipe } from '../../src/model/cloud.ts';
import type { CloudReader } from '../../src/report/types.ts';

export interface FetchReaderOptions {
  url: string;
  keyId: string;
  keySecret: string;
  requestsPerMinute?: number;
  retries?: number;
}

export function createFetchReader(opts: FetchReaderOptions): CloudReader & { requests: number; retried: number } {
  const auth = `Basic ${Buffer.from(`${opts.keyId}:${opts.keySecret}`).toString('base64')}`;
  const interval = opts.requestsPerMinute ? 60_000 / opts.requestsPerMinute : 0;
  let nextSlot = 0;
  const stats = { requests: 0, retried: 0 };

  // Each request takes the next free slot, `interval` ms after the previous one: a steady rate, no bursts.
  const slot = async () => {
    if (!interval) return;
    const now = performance.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + interval;
    if (at > now) await sleep(at - now);
  };

  const get = async (path: string): Promise<unknown> => {
    for (let attempt = 0; ; attempt++) {
      await slot();
      stats.requests++;
      const res = await fetch(opts.url.replace(/\/$/, '') + path, { headers: { authorization: auth, accept: 'application/json' } });
      const text = await res.text();
      if (res.status === 429 && attempt < (opts.retries ?? 3)) {
        stats.retried++;
        await sleep(Number(res.headers.get('retry-after') ?? '1') * 1000);
        continue;
      }
      if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
      const body = JSON.parse(text) as { result?: unknown };
      return body.result;
    }
  };

  const base = (org: string, svc: string) => `/v1/organizations/${encodeURIComponent(org)}/services/${encodeURIComponent(svc)}`;
  return {
    get requests() {
      return stats.requests;
    },
    get retried() {
      return stats.retried;
    },
    listIngestPipes: async (org, svc) => ({ items: (await get(`${base(org, svc)}/ingestpipes`)) as ObservedPipe[], malformed: [] }),
    listReversePrivateEndpoints: async (org, svc) => ({
      items: (await get(`${base(org, svc)}/ingestpipesReversePrivateEndpoints`)) as ObservedEndpoint[],
      malformed: [],
    }),
    listBackups: async (org, svc) => ({ items: (await get(`${base(org, svc)}/backups`)) as ObservedBackup[], malformed: [] }),
    getBackup: async (org, svc, id) => ({ item: (await get(`${base(org, svc)}/backups/${encodeURIComponent(id)}`)) as ObservedBackup, malformed: undefined }),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
