/**
 * Retry rules, kept apart from the transport so they can be tested as plain functions.
 *
 * - Idempotent methods (GET, PUT, DELETE) are retried on 429, 500, 502, 503, 504 and network errors (reset,
 *   timeout, refused, DNS try-again…).
 * - A POST is never sent again by the client (DESIGN.md, Apply), but for a read-only one (HttpRequest.readOnly:
 *   dashboards/validate, which saves nothing), which the exchange retries as a GET. Not after a 5xx, a timeout or a dropped
 *   connection (outcomes that may have applied it), and not after a 429 either: a server refuses a request
 *   unprocessed with one, but a gateway or proxy that rate-limits on the way back answers 429 for a create
 *   that was made (red team, round 8: three dashboards became fifteen). Apply decides (src/apply/create.ts):
 *   after the wait (the server's, or a backoff when it gave none) it lists by name, adopts what it finds and
 *   sends again only what is not there (`create-rate-limited`); the client holds every request until a
 *   server's wait is over.
 * - Delay: exponential backoff with full jitter, `random() * min(maxDelay, base * 2^(attempt-1))`, unless the
 *   server said how long to wait (`Retry-After`, `RateLimit-Reset`, `X-RateLimit-Reset`, `RateLimit: …t=`):
 *   then at least that long. A server wait longer than `maxDelayMs` is not slept through: the request
 *   fails at once with the server's figure in the message.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpMethod } from './errors.ts';

export interface RetryOptions {
  /** Total tries, the first included (default 5). 1 (or 0) turns retries off. A POST is never tried again. */
  limit?: number | undefined;
  /** First backoff ceiling in ms (default 500); doubles per retry. */
  baseDelayMs?: number | undefined;
  /** Longest single wait in ms (default 60 000), for backoff and for server-requested waits. */
  maxDelayMs?: number | undefined;
}

export interface RetryPolicy {
  limit: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { limit: 5, baseDelayMs: 500, maxDelayMs: 60_000 };

export function retryPolicy(opts: RetryOptions | undefined): RetryPolicy {
  return {
    limit: Math.max(1, Math.floor(opts?.limit ?? DEFAULT_RETRY.limit)),
    baseDelayMs: Math.max(0, opts?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: Math.max(0, opts?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs),
  };
}

export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Transport error codes worth another try. ENOTFOUND is not: a wrong host name does not heal. */
export const RETRY_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** Methods that may be sent twice without a second effect. */
export function isIdempotent(method: HttpMethod): boolean {
  return method === 'GET' || method === 'PUT' || method === 'DELETE';
}

/**
 * Whether an error status is worth another try of this method: see the rules above.
 */
export function retryStatus(method: HttpMethod, status: number): boolean {
  if (!RETRY_STATUSES.has(status)) return false;
  return isIdempotent(method);
}

/** Full-jitter exponential backoff for the given attempt (1 = the wait after the first try). */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(clamp01(random()) * ceiling);
}

/** A wait the server asked for, and which header said so. */
export interface ServerWait {
  ms: number;
  header: string;
}

/**
 * The wait the server asks for, in ms from `nowMs`, or undefined. `Retry-After` counts on any status;
 * the rate-limit reset headers count on a 429, or when they say nothing is remaining.
 */
export function serverWait(status: number, headers: IncomingHttpHeaders, nowMs: number): ServerWait | undefined {
  const retryAfter = parseRetryAfter(header(headers, 'retry-after'), nowMs);
  if (retryAfter !== undefined) return { ms: retryAfter, header: 'Retry-After' };
  const structured = parseStructuredRateLimit(header(headers, 'ratelimit'));
  const remaining = parseNumber(header(headers, 'ratelimit-remaining')) ?? parseNumber(header(headers, 'x-ratelimit-remaining')) ?? structured.remaining;
  if (status !== 429 && remaining !== 0) return undefined;
  for (const name of ['ratelimit-reset', 'x-ratelimit-reset'] as const) {
    const ms = parseResetHeader(header(headers, name), nowMs);
    if (ms !== undefined) return { ms, header: name === 'ratelimit-reset' ? 'RateLimit-Reset' : 'X-RateLimit-Reset' };
  }
  if (structured.resetSeconds !== undefined) return { ms: structured.resetSeconds * 1000, header: 'RateLimit' };
  return undefined;
}

/** `Retry-After`: delta seconds (decimals tolerated) or an HTTP date. Past dates give 0. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  const n = parseNumber(v);
  if (n !== undefined) return n >= 0 ? Math.ceil(n * 1000) : undefined;
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * `RateLimit-Reset` / `X-RateLimit-Reset`: servers send either seconds to wait (IETF draft, most APIs) or
 * the epoch second of the reset (GitHub and others). No delta is anywhere near 10^9 s (31 years), and no
 * epoch second in use is below it, so the magnitude tells them apart; 10^12 and above is epoch ms.
 */
export function parseResetHeader(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const n = parseNumber(value.trim());
  if (n === undefined) {
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
  }
  if (n < 0) return undefined;
  if (n >= 1e12) return Math.max(0, Math.ceil(n - nowMs));
  if (n >= 1e9) return Math.max(0, Math.ceil(n * 1000 - nowMs));
  return Math.ceil(n * 1000);
}

/**
 * The structured `RateLimit` header of the IETF draft, in both its forms:
 * `limit=100, remaining=0, reset=30` (draft 03–06) and `"default";r=0;t=30` (draft 07+).
 */
export function parseStructuredRateLimit(value: string | undefined): { remaining?: number; resetSeconds?: number } {
  if (!value) return {};
  const out: { remaining?: number; resetSeconds?: number } = {};
  const remaining = /(?:^|[;,\s])(?:remaining|r)=(\d+(?:\.\d+)?)/i.exec(value);
  const reset = /(?:^|[;,\s])(?:reset|t)=(\d+(?:\.\d+)?)/i.exec(value);
  if (remaining?.[1] !== undefined) out.remaining = Number(remaining[1]);
  if (reset?.[1] !== undefined) out.resetSeconds = Number(reset[1]);
  return out;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function parseNumber(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*-?\d+(?:\.\d+)?\s*$/.test(v)) return undefined;
  return Number(v);
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(Math.max(x, 0), 1) : 0;
}
