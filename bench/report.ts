/**
 * Benchmark of the report's read stage: `readCloud` over many services against a loopback fake cloud with
 * latency and a rate limit, compared with the bound the rate limit sets (requests / rate).
 *
 *   node --import tsx bench/report.ts [services] [requestsPerMinute] [latencyMs] [concurrency]
 *
 * The reader is the tests' minimal fetch reader (steady spacing at the rate, waits out 429s) until the cloud
 * client is merged; the server enforces the same rate with a small burst and answers 429 beyond it.
 */
import { pathToFileURL } from 'node:url';
import { readCloud, type CloudServiceTarget } from '../src/report/read.ts';
import { startFakeCloud } from '../test/report/fake-cloud.ts';
import { createFetchReader } from '../test/report/fetch-reader.ts';
import { dailyBackups, ORG, uuid, type CloudData } from '../test/report/seed.ts';

export interface ReportBenchOptions {
  services?: number;
  /** Client and server rate; 0 for none. */
  requestsPerMinute?: number;
  latencyMs?: number;
  concurrency?: number;
}

export interface ReportBenchResult {
  services: number;
  requests: number;
  requestsPerMinute: number;
  latencyMs: number;
  concurrency: number;
  /** (requests - 1) / rate: the first request goes at once, each next one an interval later. */
  boundMs: number;
  wallMs: number;
  /** wall / bound; 1.0 means the rate limit is the only cost. */
  ratio: number;
  /** 429s the server answered (a well-behaved client gets none). */
  rejected: number;
  failures: number;
}

export async function runReportBench(opts: ReportBenchOptions = {}): Promise<ReportBenchResult> {
  const services = opts.services ?? 50;
  const rpm = opts.requestsPerMinute ?? 3000;
  const latencyMs = opts.latencyMs ?? 20;
  const concurrency = opts.concurrency ?? 8;

  const data: CloudData = { [ORG]: {} };
  const targets: CloudServiceTarget[] = [];
  for (let i = 0; i < services; i++) {
    const serviceId = uuid('5e', i + 1);
    data[ORG]![serviceId] = {
      pipes: [1, 2, 3].map((n) => ({ id: uuid(`a${n}`, i + 1), name: `pipe-${n}`, state: 'Running', source: { kafka: { topics: `t${n}` } } })),
      endpoints: [{ id: uuid('e1', i + 1), description: 'msk', status: 'Ready' }],
      backups: dailyBackups(serviceId, { count: 14, newestFinishedHoursAgo: 6, prefix: `b${i % 10}` }),
    };
    targets.push({
      name: `svc-${String(i + 1).padStart(3, '0')}`,
      spec: { organizationId: ORG, serviceId, backups: { maxAgeHours: 26, minCount: 7 }, pipes: { expected: [{ name: 'pipe-1', state: 'Running' }] } },
    });
  }

  const server = await startFakeCloud({ data, latencyMs, ...(rpm > 0 ? { requestsPerMinute: rpm, burst: 5 } : {}) });
  try {
    const reader = createFetchReader({ url: server.url, keyId: 'dev-key', keySecret: 'dev-secret', ...(rpm > 0 ? { requestsPerMinute: rpm } : {}) });
    const t0 = performance.now();
    const reads = await readCloud({ reader, concurrency }, targets);
    const wallMs = performance.now() - t0;
    const requests = server.requests.filter((r) => r.status !== 429).length;
    const boundMs = rpm > 0 ? ((requests - 1) * 60_000) / rpm : 0;
    return {
      services,
      requests,
      requestsPerMinute: rpm,
      latencyMs,
      concurrency,
      boundMs: Math.round(boundMs),
      wallMs: Math.round(wallMs),
      ratio: boundMs > 0 ? Math.round((wallMs / boundMs) * 100) / 100 : Number.NaN,
      rejected: server.requests.filter((r) => r.status === 429).length,
      failures: reads.reduce((n, r) => n + r.observed.failures.length, 0),
    };
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [services, rpm, latency, concurrency] = process.argv.slice(2).map(Number);
  const r = await runReportBench({ services, requestsPerMinute: rpm, latencyMs: latency, concurrency });
  process.stdout.write(
    `report read: ${r.services} services, ${r.requests} requests, ${r.requestsPerMinute || 'no'} req/min, ${r.latencyMs} ms latency, concurrency ${r.concurrency}\n` +
      `  wall ${r.wallMs} ms, bound ${r.boundMs} ms${Number.isNaN(r.ratio) ? '' : ` (wall/bound ${r.ratio})`}, 429s ${r.rejected}, failed reads ${r.failures}\n`,
  );
}
