import type { Project } from '../config/project.ts';
import { relative } from 'node:path';
import { apiSettingAt, resolveCloud, resolveObservability } from '../config/connection.ts';
import { secretLookingValues } from '../config/credentials.ts';
import { createCloudClient, type CloudClient } from '../clients/cloud.ts';
import { createObservabilityClient, type ObservabilityClient } from '../clients/observability.ts';
import { OBSERVABILITY_PROFILES } from '../clients/profiles.ts';
import { constants as bufferConstants } from 'node:buffer';
import { getHeapStatistics } from 'node:v8';
import { CliError } from '../errors.ts';
import type { CommandContext } from './context.ts';
import type { Services } from '../workflows/deps.ts';

/**
 * The largest response body a client reads (issue 15). STEWARD_MAX_RESPONSE_MIB when set; otherwise a tenth of
 * the heap this process may use (a list is held as text, then as objects, then normalized: about ten times
 * its size at the peak), at most what Node can decode into one string for JSON.parse (~511 MiB). So no fixed
 * number stops a large service (100,000 dashboards of 12 tiles are a 340 MB list; Node's default heap of
 * 4 GiB on a machine of 16 GiB or more allows 414 MiB), a body that would not fit in memory is refused with
 * one line before it is read whole, and NODE_OPTIONS=--max-old-space-size raises both together.
 */
export function maxResponseBytes(env: Readonly<Record<string, string | undefined>>, heapLimitBytes = getHeapStatistics().heap_size_limit): number {
  const most = Math.floor(bufferConstants.MAX_STRING_LENGTH / 1048576);
  const raw = env['STEWARD_MAX_RESPONSE_MIB'];
  if (raw === undefined || raw.trim() === '') return Math.max(MIN_DEFAULT_MIB, Math.min(most, Math.floor(heapLimitBytes / 10 / 1048576))) * 1048576;
  const mib = Number(raw);
  if (!Number.isFinite(mib) || mib <= 0) throw new CliError(`STEWARD_MAX_RESPONSE_MIB is "${raw.slice(0, 20)}": expected a number of MiB above 0 (like 256)`);
  if (mib > most) throw new CliError(`STEWARD_MAX_RESPONSE_MIB is ${mib}: at most ${most} (the largest JSON text Node can read in one piece)`);
  return Math.floor(mib * 1048576);
}

/** The default never goes below the client's own (64 MiB), however small the heap. */
const MIN_DEFAULT_MIB = 64;

/** Everything below the CLI receives from here: clients, clock, trace. Built once per command. */
export type Deps = Services;

/**
 * Builds the clients from the project file and the environment. Connection settings are resolved only
 * when a client is first asked for, so commands that never connect need nothing set.
 */
export function createDeps(ctx: CommandContext, project: Project, opts: { debug: boolean; concurrency?: number }): Deps {
  const trace = opts.debug ? (line: string) => ctx.io.stderr(`[http] ${line}\n`) : undefined;
  const onWait = waitNotifier(
    (line) => ctx.io.stderr(line),
    () => Date.now(),
  );
  const secrets = new Set<string>();
  // Each client redacts every credential the project names, not only its own: a server (or a proxy in
  // front of both APIs) may echo any of them.
  const configured = configuredCredentials(project, ctx.env);
  // Everything printed or written from here on hides them too (the output sink in main.ts).
  ctx.secrets?.addProject(project.spec);
  ctx.secrets?.add(configured);
  let obs: ObservabilityClient | undefined;
  let cloud: CloudClient | undefined;
  const concurrency = opts.concurrency ?? project.concurrency;
  // Where each `api` setting is (or would go), for the hint on a 404 that another profile would avoid.
  const apiSetting = (section: 'observability' | 'cloud') => {
    const pos = apiSettingAt(project, section);
    const rel = relative(ctx.cwd, pos.file);
    return `${rel === '' || rel.startsWith('..') ? pos.file : rel}:${pos.line}:${pos.col}`;
  };
  const maxBytes = maxResponseBytes(ctx.env);
  // The cloud lists (backups, pipes, endpoints) do not grow like a dashboard list: no heap share for them,
  // so the default is its floor, 64 MiB, unless the variable says otherwise, and report's three reads at
  // once cannot each hold a tenth of the heap (red team round 10, F1).
  const cloudMaxBytes = maxResponseBytes(ctx.env, 0);
  return {
    clock: { now: () => new Date() },
    observability() {
      if (!obs) {
        const c = resolveObservability(project, ctx.env);
        for (const v of [c.token, c.keyId, c.keySecret]) if (v) secrets.add(v);
        obs = createObservabilityClient({
          url: c.url,
          token: c.token,
          profile: OBSERVABILITY_PROFILES[c.api],
          ...(c.keyId !== undefined ? { keyId: c.keyId, keySecret: c.keySecret, organizationId: c.organizationId, serviceId: c.serviceId } : {}),
          requestsPerMinute: c.requestsPerMinute,
          ...(concurrency !== undefined ? { concurrency } : {}),
          timeoutMs: c.timeoutMs,
          maxResponseBytes: maxBytes,
          apiSetting: apiSetting('observability'),
          credentialHint: c.keyId !== undefined ? `the key in ${c.tokenEnv}` : `the token in ${c.tokenEnv}`,
          secrets: configured,
          trace,
          onWait,
          signal: ctx.signal,
        });
      }
      return obs;
    },
    cloud() {
      if (!cloud) {
        const c = resolveCloud(project, ctx.env);
        secrets.add(c.keyId);
        secrets.add(c.keySecret);
        cloud = createCloudClient({
          api: c.api,
          url: c.url,
          keyId: c.keyId,
          keySecret: c.keySecret,
          requestsPerMinute: c.requestsPerMinute,
          ...(concurrency !== undefined ? { concurrency } : {}),
          timeoutMs: c.timeoutMs,
          maxResponseBytes: cloudMaxBytes,
          apiSetting: apiSetting('cloud'),
          credentialHint: `the key in ${c.keyIdEnv} and ${c.keySecretEnv}`,
          secrets: configured,
          trace,
          onWait,
          signal: ctx.signal,
        });
      }
      return cloud;
    },
    // And the values of variables whose names say they are secrets (a prefixed ${DASH_API_KEY}): the live memo
    // keeps what the service lists only when it holds none of these, and a service lists what it was sent.
    secrets: () => [...secrets, ...configured, ...secretLookingValues(ctx.env)],
    ...(opts.debug ? { debug: (line: string) => ctx.io.stderr(`[cache] ${line}\n`) } : {}),
  };
}

/**
 * Says on stderr when steward is about to wait 2 s or more for a rate limit ("waiting 47 s: rate limited (429)"), so a long
 * silence is explained. Requests in flight together wait for the same reason: one line per wait, not one per
 * request.
 */
export function waitNotifier(write: (line: string) => void, now: () => number): (ms: number, reason: string) => void {
  let until = 0;
  let last = '';
  return (ms, reason) => {
    // Rate limits and waits the server asked for; retries after errors stay quiet (--debug shows them), so
    // a request that finally fails still ends in one line.
    if (ms < 2000 || !/^(rate limit|the server asked)/.test(reason)) return;
    const end = now() + ms;
    if (reason === last && end <= until + 1000) return;
    until = Math.max(until, end);
    last = reason;
    write(`waiting ${Math.round(ms / 1000)} s: ${reason}\n`);
  };
}

/**
 * The values of every credential variable the project names (observability token, cloud key id and secret)
 * that are set, and the Basic credential the key makes.
 */
export function configuredCredentials(project: Project, env: Readonly<Record<string, string | undefined>>): string[] {
  const value = (name: string | undefined) => (name === undefined ? undefined : env[name] || undefined);
  const token = value(project.spec.observability?.token?.env);
  const pairs: Array<[string | undefined, string | undefined]> = [
    [value(project.spec.cloud?.keyId?.env), value(project.spec.cloud?.keySecret?.env)],
    [value(project.spec.observability?.keyId?.env), value(project.spec.observability?.keySecret?.env)],
  ];
  const out = [token, ...pairs.flat()].filter((v): v is string => v !== undefined);
  for (const [keyId, keySecret] of pairs) {
    if (keyId !== undefined && keySecret !== undefined) out.push(Buffer.from(`${keyId}:${keySecret}`, 'utf8').toString('base64'));
  }
  return out;
}
