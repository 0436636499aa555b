/**
 * Benchmark of the report's read stage: `readCloud` through the real cloud client over many services against the emulator with
 * latency and a rate limit, compared with the bound the rate limit sets (requests / rate).
 *
 *   node --import tsx bench/report.ts [services] [requestsPerMinute] [latencyMs] [concurrency]
 *
 * The emulator runs in this process with generated seed data (3 pipes, 1 endpoint, 14 backups per service)
 * and enforces the same per-minute limit, answering 429 beyond it.
 */
import { pathToFileURL } from 'node:url';
import { createCloudClient } from '../src/clients/cloud.ts';
import { startEmulator, type SeedService } from '../src/emulator/index.ts';
import { readCloud, readerFromClient, type CloudServiceTarget } from '../src/report/read.ts';

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

  const ORG = '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31';
  const uuid = (i: number) => `5e000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const seedServices: SeedService[] = [];
  const targets: CloudServiceTarget[] = [];
  for (let i = 0; i < services; i++) {
    const serviceId = uuid(i + 1);
    seedServices.push({
      id: serviceId,
      name: `svc-${i + 1}`,
      pipes: [1, 2, 3].map((n) => ({ id: uuid(1000 * n + i), name: `pipe-${n}`, state: 'Running', source: { kafka: { brokers: 'b:9092', topics: `t${n}` } } })),
      reversePrivateEndpoints: [{ id: uuid(9000 + i), description: 'msk', status: 'Ready' }],
      backups: Array.from({ length: 14 }, (_, d) => ({
        id: uuid(100000 + i * 100 + d),
        status: 'done',
        startedAt: `-${6 + 24 * d}h30m`,
        finishedAt: `-${6 + 24 * d}h`,
        sizeInBytes: 1e9 + d * 1e6,
        durationInSeconds: 1800,
      })),
    });
    targets.push({
      name: `svc-${String(i + 1).padStart(3, '0')}`,
      spec: { organizationId: ORG, serviceId, backups: { maxAgeHours: 26, minCount: 7 }, pipes: { expected: [{ name: 'pipe-1', state: 'Running' }] } },
    });
  }

  // The emulator enforces the same per-minute limit on its side, so a client that overruns it sees 429s.
  const emu = await startEmulator({
    data: { organizations: [{ id: ORG, services: seedServices }] },
    latencyMs,
    ...(rpm > 0 ? { rateLimitPerMinute: rpm } : {}),
  });
  try {
    const client = createCloudClient({ url: emu.url, keyId: 'dev-key', keySecret: 'dev-secret', concurrency, ...(rpm > 0 ? { requestsPerMinute: rpm } : {}) });
    // The same reader steward report uses (src/cli/commands/report-deps.ts).
    const reader = readerFromClient(client);
    const t0 = performance.now();
    const reads = await readCloud({ reader, concurrency }, targets);
    const wallMs = performance.now() - t0;
    const log = emu.requests();
    const requests = log.filter((r) => r.status !== 429).length;
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
      rejected: log.filter((r) => r.status === 429).length,
      failures: reads.reduce((n, r) => n + r.observed.failures.length, 0),
    };
  } finally {
    await emu.close();
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
