/**
 * The one HTTP layer both API clients are built on (STYLE.md: "one createHttp(...)").
 *
 * got does the transport (with its own retry off); this module adds what steward needs around it:
 * authentication, a client-wide rate limit and concurrency bound, retries of idempotent requests with
 * backoff that honours the server's wait headers, never a retry of POST, a response size limit, a
 * whole-request and an inactivity timeout, one-line errors, and a redacted trace.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import gotDefault, { type Got } from 'got';
import { CliError } from '../errors.ts';
import type { HttpMethod, ResponseProblem } from './errors.ts';
import { RateLimiter, Semaphore, type Sleep } from './limiter.ts';
import { redact } from './redact.ts';
import { backoffMs, isIdempotent, retryPolicy, RETRY_STATUSES, serverWait, type RetryOptions } from './retry.ts';
import { isRetryableTransport, mayHaveApplied, sendOnce, type Attempt } from './attempt.ts';
import { abortedError, headerValue, parseSuccess, statusError, traceBody, transportError, type Ctx, type OutcomeSettings } from './outcome.ts';

export type { HttpMethod } from './errors.ts';
export type { RetryOptions } from './retry.ts';
export type { Sleep } from './limiter.ts';

/** How requests authenticate. */
export type HttpAuth = { type: 'bearer'; token: string } | { type: 'basic'; username: string; password: string } | { type: 'none' };

/** Receives one line per request attempt (already redacted). `--debug` plugs stderr in here. */
export type TraceSink = (line: string) => void;

export interface HttpOptions {
  /** Base URL; request paths are appended to it (`https://obs.example.com` + `/api/v2/dashboards`). */
  prefixUrl: string;
  auth: HttpAuth;
  /** Deadline for a whole request, from sending to the last body byte (default DEFAULT_TIMEOUT_MS, 30 s). */
  timeoutMs?: number | undefined;
  /** Longest silence on the connection once connected (default 30 000 ms, at most timeoutMs). */
  idleTimeoutMs?: number | undefined;
  /** Retry of GET/PUT (POST is never retried). Default 5 tries, 500 ms base, 60 s cap. */
  retry?: RetryOptions | undefined;
  /** Client-side rate limit shared by every request of this client (default: none). */
  requestsPerMinute?: number | undefined;
  /** Requests that may start back to back before the rate limit spaces them (default 1). */
  burst?: number | undefined;
  /** Requests in flight at once (default 4). */
  concurrency?: number | undefined;
  /** Largest response body accepted, decompressed (default 64 MiB); larger ones are aborted. */
  maxResponseBytes?: number | undefined;
  /** `--debug` sink: one redacted line per attempt. */
  trace?: TraceSink | undefined;
  /** Values to redact from traces and error messages, on top of the auth credentials. */
  secrets?: readonly string[] | undefined;
  /** Where the credential comes from, for 401/403 messages: "the token in STEWARD_OBS_TOKEN". */
  credentialHint?: string | undefined;
  /** Told of every wait before it starts (ms, why), so progress can say "waiting 47 s: rate limited". */
  onWait?: ((ms: number, reason: string) => void) | undefined;
  /** Injected for tests: waits (backoff, rate limit). Must reject when the signal aborts. */
  sleep?: Sleep | undefined;
  /** Injected clock (epoch ms): rate limit, Retry-After dates. */
  now?: (() => number) | undefined;
  /** Injected randomness in [0, 1) for backoff jitter. */
  random?: (() => number) | undefined;
  /** Aborts every request of this client (Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** Extra request headers (never used for credentials: those go in `auth`). */
  headers?: Record<string, string> | undefined;
  /** A got instance to extend instead of the default one. */
  got?: Got | undefined;
}

export interface HttpRequest {
  method: HttpMethod;
  /** Path below prefixUrl, already URL-encoded (build it with `encodePath`). */
  path: string;
  /** JSON request body. */
  json?: unknown;
  signal?: AbortSignal | undefined;
  /**
   * Checks and narrows the parsed success body. Return the problems found (empty or undefined when the
   * body is fine); they become an ApiResponseError naming the first field.
   */
  validate?: ((body: unknown) => ResponseProblem[] | undefined) | undefined;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON; undefined when the body was empty. */
  body: T;
  /** Tries made (1 when it succeeded the first time). */
  attempts: number;
}

export interface Http {
  /**
   * Sends one request (retrying idempotent ones as the rules say) and returns the parsed JSON body.
   * @throws {ApiError} NotFoundError, UnauthorizedError, ConflictError, RateLimitedError for statuses;
   *   ApiResponseError for a body that is not JSON, too large, or fails `validate`; ApiTransportError when
   *   no complete response arrived. `outcomeUnknown` is set when a write may have been applied anyway.
   */
  request<T = unknown>(req: HttpRequest): Promise<HttpResponse<T>>;
  /** Host (and port) of prefixUrl, for messages. */
  readonly host: string;
  /** The redaction this client applies (its credentials and configured secrets). */
  redact(text: string): string;
}

/** The whole-request deadline unless the project's `timeoutSeconds` says otherwise (one default for both). */
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Builds a path from a template, URL-encoding every interpolated segment: encodePath`/a/${id}`. */
export function encodePath(strings: TemplateStringsArray, ...segments: Array<string | number>): string {
  let out = strings[0] ?? '';
  segments.forEach((seg, i) => {
    const text = String(seg);
    // encodeURIComponent leaves `.` and `..` alone and the URL parser resolves them: an id the server sent
    // as `..` would turn DELETE /alerts/.. into DELETE /api/v2/. Such an id names no object steward can address.
    if (text === '' || text === '.' || text === '..')
      throw new CliError(`refusing to address the id ${JSON.stringify(text)}: it is not a usable path segment`, { code: 'api-response' });
    out += encodeURIComponent(text) + (strings[i + 1] ?? '');
  });
  return out;
}

const defaultSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal ? { signal } : undefined);
};

/**
 * Creates the HTTP layer for one API. Every request of the returned client shares its rate limit and
 * concurrency bound.
 */
export function createHttp(opts: HttpOptions): Http {
  let base: URL;
  try {
    base = new URL(opts.prefixUrl);
  } catch (cause) {
    throw new CliError(`invalid API URL "${redact(opts.prefixUrl)}": not an absolute URL`, { code: 'config', cause });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new CliError(`invalid API URL "${redact(opts.prefixUrl)}": must start with http:// or https://`, {
      code: 'config',
    });
  }
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const host = base.host;

  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const policy = retryPolicy(opts.retry);
  const timeoutMs = positive(opts.timeoutMs, DEFAULT_TIMEOUT_MS);
  const idleTimeoutMs = Math.min(positive(opts.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS), timeoutMs);
  const maxBytes = positive(opts.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES);
  const told = (ms: number, reason: string) => {
    try {
      if (ms > 0) opts.onWait?.(ms, reason);
    } catch {
      // A broken progress sink must not change the outcome of a request.
    }
  };
  const limiter = new RateLimiter({
    requestsPerMinute: opts.requestsPerMinute,
    burst: opts.burst,
    now,
    sleep: (ms, signal) => {
      told(ms, 'rate limit');
      return sleep(ms, signal);
    },
  });
  const slots = new Semaphore(opts.concurrency ?? DEFAULT_CONCURRENCY);

  const secrets: string[] = [...(opts.secrets ?? [])];
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': 'steward',
    ...opts.headers,
  };
  if (opts.auth.type === 'bearer') {
    headers['authorization'] = `Bearer ${opts.auth.token}`;
    secrets.push(opts.auth.token);
  } else if (opts.auth.type === 'basic') {
    const encoded = Buffer.from(`${opts.auth.username}:${opts.auth.password}`, 'utf8').toString('base64');
    headers['authorization'] = `Basic ${encoded}`;
    secrets.push(encoded, opts.auth.password, opts.auth.username);
  }
  const clean = (text: string): string => redact(text, secrets);
  const settings: OutcomeSettings = { clean, maxBytes, timeoutMs, idleTimeoutMs, credentialHint: opts.credentialHint };
  const trace = (line: string): void => {
    if (!opts.trace) return;
    try {
      opts.trace(clean(line));
    } catch {
      // A broken trace sink must not change the outcome of a request.
    }
  };

  const client = (opts.got ?? gotDefault).extend({
    headers,
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
    decompress: true,
    timeout: { request: timeoutMs, socket: idleTimeoutMs },
  });

  async function request<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const method = req.method;
    const path = req.path.startsWith('/') ? req.path : `/${req.path}`;
    const url = prefix + path;
    const shownPath = path.split('?')[0] ?? path;
    const signal = combineSignals(opts.signal, req.signal);
    const maxTries = isIdempotent(method) ? policy.limit : 1;
    const ctx = { method, path: shownPath, host };
    // --debug: what is sent (redacted, cut at TRACE_BODY_LIMIT), which is what one needs to read a 400.
    if (req.json !== undefined) trace(`http ${method} ${url} request body: ${traceBody(clean(JSON.stringify(req.json)))}`);

    for (let attempt = 1; ; attempt++) {
      let waited = 0;
      let result: Attempt;
      try {
        result = await slots.run(async () => {
          waited = await limiter.acquire(signal);
          return sendOnce(client, maxBytes, method, url, req.json, signal);
        });
      } catch (cause) {
        // Only the rate-limit wait throws, and only when aborted: nothing was sent.
        throw abortedError(ctx, attempt, false, cause, signal);
      }
      const tag = `${method} ${url}`;
      const timing = `${result.ms} ms, attempt ${attempt}/${maxTries}${waited > 0 ? `, rate limit wait ${Math.round(waited)} ms` : ''}`;

      if (result.kind === 'transport') {
        const retry = isIdempotent(method) && attempt < maxTries && isRetryableTransport(result);
        const wait = retry ? backoffMs(attempt, policy, random) : 0;
        trace(
          `http ${tag} → ${result.code ?? result.failure} (${timing})` +
            (retry ? `; retry in ${wait} ms` : '') +
            (!retry && mayHaveApplied(method, result) ? '; outcome unknown' : ''),
        );
        if (!retry) throw transportError(settings, ctx, result, attempt, signal);
        told(wait, `${result.code ?? result.failure}, retrying ${method} ${shownPath}`);
        await sleepOrAbort(wait, signal, ctx, attempt);
        continue;
      }

      const { status } = result;
      const requestId = headerValue(result.headers, 'x-request-id') ?? headerValue(result.headers, 'request-id');

      if (status >= 200 && status < 300) {
        observeRemaining(result.headers);
        trace(`http ${tag} → ${status} ${result.statusText} (${timing}, ${result.bytes} bytes)`);
        return { status, headers: result.headers, body: parseSuccess(settings, ctx, result, attempt, req.validate) as T, attempts: attempt };
      }

      // An error status (or an unexpected redirect / informational status).
      const hinted = serverWait(status, result.headers, now());
      const retryableStatus = RETRY_STATUSES.has(status) && isIdempotent(method);
      const tooLong = hinted !== undefined && hinted.ms > policy.maxDelayMs;
      const retry = retryableStatus && attempt < maxTries && !tooLong;
      if (hinted !== undefined && !tooLong && (status === 429 || status === 503)) {
        // Hold every request of this client, not only this one: the server spoke about the key.
        limiter.pauseUntil(now() + hinted.ms);
      }
      const wait = retry ? Math.max(hinted?.ms ?? 0, backoffMs(attempt, policy, random)) : 0;
      trace(`http ${tag} → ${status} ${result.statusText} (${timing})` + (retry ? `; retry in ${wait} ms${hinted ? ` (${hinted.header})` : ''}` : ''));
      if (result.body.length > 0) trace(`http ${tag} response body: ${traceBody(clean(result.body.toString('utf8')))}`);
      if (!retry) {
        throw statusError(settings, ctx, result, attempt, requestId, hinted, tooLong && retryableStatus ? policy.maxDelayMs : undefined);
      }
      told(
        wait,
        status === 429
          ? 'rate limited (429)'
          : hinted
            ? `the server asked to wait (${status}, ${hinted.header})`
            : `${status} ${result.statusText}, retrying ${method} ${shownPath}`,
      );
      await sleepOrAbort(wait, signal, ctx, attempt);
    }
  }

  /** A success with `remaining: 0` and a reset: hold the next requests until the reset. */
  function observeRemaining(h: IncomingHttpHeaders): void {
    const hinted = serverWait(200, h, now());
    if (hinted !== undefined && hinted.ms > 0 && hinted.ms <= policy.maxDelayMs) limiter.pauseUntil(now() + hinted.ms);
  }

  async function sleepOrAbort(ms: number, signal: AbortSignal | undefined, ctx: Ctx, attempt: number) {
    try {
      await sleep(ms, signal);
    } catch (cause) {
      throw abortedError(ctx, attempt, false, cause, signal);
    }
  }

  return { request, host, redact: clean };
}

function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}

function positive(v: number | undefined, fallback: number): number {
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
}
