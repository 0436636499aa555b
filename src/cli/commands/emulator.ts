import { isAbsolute, resolve } from 'node:path';
import { CliError, UsageError } from '../../errors.ts';
// The emulator itself is loaded by `run` only: every command loads this module to list it (~0.1 s).
import type { Emulator, EmulatorOptions, RequestLogEntry } from '../../emulator/index.ts';
import { API_PROFILES, type ApiProfile } from '../../emulator/profiles.ts';
import { defineCommand } from '../context.ts';

/** The port `steward emulator` listens on unless told otherwise (so the printed variables stay valid). */
export const DEFAULT_EMULATOR_PORT = 7878;

interface EmulatorArgs {
  api: string;
  port: number;
  host: string;
  data?: string;
  persist?: string;
  alertUpdate: string;
  latency?: number;
  rateLimit?: number;
  failRate?: number;
  dropAfterCommit?: number;
  seed?: number;
  token: string;
  keyId: string;
  keySecret: string;
  logRequests: boolean;
  printSeed: boolean;
}

/** Flags -> options, refusing what makes no sense with a message naming the flag. */
export function emulatorOptions(args: EmulatorArgs, cwd: string): EmulatorOptions {
  const bad = (flag: string, want: string, got: unknown) =>
    new UsageError(`--${flag}: ${want}, got ${typeof got === 'number' && Number.isNaN(got) ? 'something that is not a number' : String(got)}`);
  const int = (flag: string, v: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER) => {
    if (v !== undefined && !(Number.isInteger(v) && v >= min && v <= max))
      throw bad(flag, `must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}`, v);
    return v;
  };
  const share = (flag: string, v: number | undefined) => {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= 1)) throw bad(flag, 'must be a share from 0 to 1 (0.1 = 10 %)', v);
    return v;
  };
  if (!(API_PROFILES as readonly string[]).includes(args.api)) throw bad('api', `must be one of ${API_PROFILES.join(', ')}`, args.api);
  if (args.alertUpdate !== 'merge' && args.alertUpdate !== 'replace') throw bad('alert-update', 'must be merge or replace', args.alertUpdate);
  if (args.latency !== undefined && !(Number.isFinite(args.latency) && args.latency >= 0))
    throw bad('latency', 'must be a number of milliseconds >= 0', args.latency);
  for (const [flag, v] of [
    ['token', args.token],
    ['key-id', args.keyId],
    ['key-secret', args.keySecret],
  ] as const) {
    if (v === '' || /\s/.test(v)) throw bad(flag, 'must be a non-empty value without spaces', JSON.stringify(v));
  }
  if (args.keyId.includes(':')) throw bad('key-id', 'must not contain ":"', args.keyId);
  const path = (p: string | undefined) => (p === undefined ? undefined : isAbsolute(p) ? p : resolve(cwd, p));
  const options: EmulatorOptions = {
    api: args.api as ApiProfile,
    port: int('port', args.port, 0, 65535),
    host: args.host,
    alertUpdate: args.alertUpdate,
    token: args.token,
    keyId: args.keyId,
    keySecret: args.keySecret,
  };
  const data = path(args.data);
  if (data !== undefined) options.data = data;
  const persist = path(args.persist);
  if (persist !== undefined) options.persist = persist;
  if (args.latency !== undefined) options.latencyMs = args.latency;
  const rateLimit = int('rate-limit', args.rateLimit, 1);
  if (rateLimit !== undefined) options.rateLimitPerMinute = rateLimit;
  const failRate = share('fail-rate', args.failRate);
  if (failRate !== undefined) options.failRate = failRate;
  const drop = share('drop-after-commit', args.dropAfterCommit);
  if (drop !== undefined) options.dropAfterCommit = drop;
  const seed = int('seed', args.seed, 0, 2 ** 32 - 1);
  if (seed !== undefined) options.seed = seed;
  return options;
}

/** What the emulator prints on start: where it is, the credentials, and the variables to export. */
export function renderEmulatorBanner(emu: Emulator<unknown>): string {
  const s = emu.settings;
  const faults = [
    s.latencyMs > 0 ? `latency ${s.latencyMs} ms` : '',
    s.rateLimitPerMinute > 0 ? `rate limit ${s.rateLimitPerMinute}/min per credential` : '',
    s.failRate > 0 ? `fail rate ${s.failRate}` : '',
    s.dropAfterCommit > 0 ? `drop after commit ${s.dropAfterCommit}` : '',
  ].filter(Boolean);
  const cs = emu.clickstack;
  const observability =
    emu.api === 'seed'
      ? [`  observability API  ${emu.url}/api/v2   Bearer auth, token ${emu.credentials.token} (the seed documents)`]
      : emu.api === 'hyperdx'
        ? [`  observability API  ${emu.url}/api/v2   Bearer auth, token ${emu.credentials.token} (HyperDX external API v2, 2026-08-21)`]
        : [
            `  ClickStack API     ${emu.url}/v1/organizations/${cs!.organizationId}/services/${cs!.serviceId}/clickstack`,
            `                     Basic auth, key id ${emu.credentials.keyId}, key secret ${emu.credentials.keySecret} (ClickHouse Cloud, 2026-07-31)`,
          ];
  const lines = [
    `steward emulator listening on ${emu.url} (api profile: ${emu.api})`,
    ...observability,
    `  cloud API          ${emu.url}/v1       Basic auth, key id ${emu.credentials.keyId}, key secret ${emu.credentials.keySecret}`,
    `                     (ingestpipes* as the seed names them, clickpipes* as ClickHouse Cloud does, backups)`,
    `  admin              ${emu.url}/__emulator/requests | /__emulator/state | POST /__emulator/reset`,
    `  ${emu.api === 'seed' ? `alert updates      ${s.alertUpdate}; ` : 'alert updates      replace (the spec); '}state ${s.persist === undefined ? 'in memory' : `persisted in ${s.persist}`}`,
    `  faults             ${faults.length ? faults.join(', ') : 'none'} (seed ${s.seed})`,
    '',
    'To point steward at it:',
    ...Object.entries(emu.env)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `  export ${k}=${v}`),
    '',
    'Stop with Ctrl-C.',
    '',
  ];
  return lines.join('\n');
}

function renderRequest(e: RequestLogEntry): string {
  return `${e.time} ${e.method} ${e.path} ${e.status} ${e.ms} ms ${e.credential}${e.fault ? ` [${e.fault}]` : ''}\n`;
}

export const emulatorCommand = defineCommand<EmulatorArgs>({
  command: 'emulator',
  describe: 'Serve both APIs locally (--api seed, hyperdx or clickstack-cloud; cloud /v1), with faults on demand',
  builder: (y) =>
    y
      .usage(
        'steward emulator [options]\n\nServes the observability API (alerts, dashboards) and the cloud API (ingest pipes, reverse private endpoints, backups) on one port, from seed data, until Ctrl-C. See docs/emulator.md.',
      )
      .option('api', {
        type: 'string',
        choices: [...API_PROFILES],
        default: 'seed',
        describe:
          'The API profile to serve: seed (the seed documents), hyperdx (HyperDX API v2 of 2026-08-21), clickstack-cloud (ClickHouse Cloud ClickStack paths)',
      })
      .option('port', { type: 'number', default: DEFAULT_EMULATOR_PORT, describe: 'Port to listen on; 0 picks a free one' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Interface to listen on' })
      .option('data', {
        type: 'string',
        describe: 'Seed data JSON file (alerts, dashboards, organizations); default: the built-in seed that examples/ matches',
      })
      .option('persist', { type: 'string', describe: 'Keep dashboards and alerts in this JSON file (loaded at start, written atomically on change)' })
      .option('alert-update', {
        type: 'string',
        choices: ['merge', 'replace'],
        default: 'merge',
        describe:
          'Seed profile only (the others always replace, as their spec says): how PUT /api/v2/alerts/{id} treats members left out; merge changes only the fields sent, replace requires threshold, interval, thresholdType, source, channel and clears the rest',
      })
      .option('latency', {
        type: 'number',
        describe: 'Delay every API request by this many milliseconds (on average: later waits are shortened by how late the timers fired)',
      })
      .option('rate-limit', { type: 'number', describe: 'Allow N API requests per minute per credential; beyond: 429 with Retry-After' })
      .option('fail-rate', { type: 'number', describe: 'Answer this share of API requests (0..1) with 503' })
      .option('drop-after-commit', {
        type: 'number',
        describe: 'For this share (0..1) of dashboard creations: store it, then cut the connection without answering',
      })
      .option('seed', { type: 'number', describe: 'Seed for every random choice (faults, ids, request ids): the same seed replays the same run' })
      .option('token', { type: 'string', default: 'dev-token', describe: 'Bearer token the observability API accepts' })
      .option('key-id', { type: 'string', default: 'dev-key', describe: 'Key id the cloud API accepts (Basic auth)' })
      .option('key-secret', { type: 'string', default: 'dev-secret', describe: 'Key secret the cloud API accepts (Basic auth)' })
      .option('log-requests', { type: 'boolean', default: false, describe: 'Print one line per API request' })
      .option('print-seed', { type: 'boolean', default: false, describe: 'Print the built-in seed data as JSON (a start for --data) and exit' })
      .example('steward emulator', 'serve the built-in seed on port 7878')
      .example('steward emulator --api hyperdx', 'serve HyperDX API v2 (dashboards update/delete/validate, alerts, sources, webhooks)')
      .example('steward emulator --api clickstack-cloud', 'serve the same resources under ClickHouse Cloud /v1/.../clickstack')
      .example('steward emulator --port 0 --rate-limit 100 --fail-rate 0.05 --seed 7', 'a free port, 100 requests a minute, 5 % of requests fail, reproducibly')
      .example('steward emulator --print-seed > seed.json && steward emulator --data seed.json', 'start from an edited copy of the built-in seed'),
  run: async (args, ctx) => {
    const { defaultSeedFor, EmulatorError, startEmulator } = await import('../../emulator/index.ts');
    if (args.printSeed) {
      if (!(API_PROFILES as readonly string[]).includes(args.api)) throw new UsageError(`--api: must be one of ${API_PROFILES.join(', ')}, got ${args.api}`);
      ctx.io.stdout(JSON.stringify(defaultSeedFor(args.api as ApiProfile), null, 2) + '\n');
      return 0;
    }
    const options = emulatorOptions(args, ctx.cwd);
    if (args.logRequests) options.onRequest = (e) => ctx.io.stdout(renderRequest(e));
    let emu: Emulator;
    try {
      emu = await startEmulator(options);
    } catch (err) {
      if (err instanceof EmulatorError) throw new CliError(err.message, { code: 'config', cause: err });
      throw err;
    }
    ctx.io.stdout(renderEmulatorBanner(emu));
    if (!ctx.signal.aborted) {
      await new Promise<void>((resolveWait) => ctx.signal.addEventListener('abort', () => resolveWait(), { once: true }));
    }
    await emu.close();
    ctx.io.stderr('steward emulator stopped\n');
    return 0;
  },
});
