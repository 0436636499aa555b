/**
 * The one HTTP layer both API clients are built on (STYLE.md: "one createHttp(...)").
 *
 * createHttp resolves a client once: its URL, headers, limits, timeouts, redaction, shared pacing, and a
 * node:http keep-alive Agent to its origin (connections.ts: one connection per concurrency slot, made on first use). Each
 * request is one Exchange (exchange.ts): a loop of attempts under steward's rules (retry.ts), each attempt
 * sent and read within the limits by attempt.ts; failures become one-line ApiErrors (transport-errors.ts).
 */
import { validateHeaderValue, type IncomingHttpHeaders } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { CliError } from '../errors.ts';
import type { HttpMethod, ResponseProblem } from './errors.ts';
import { ACCEPT_ENCODING } from './attempt.ts';
import { createConnections, type Connections } from './connections.ts';
import { Exchange, type Transport } from './exchange.ts';
import { RateLimiter, Semaphore, type Sleep } from './limiter.ts';
import { createRedactor, redact } from './redact.ts';
import { traceBody } from './response.ts';
import { retryPolicy, type RetryOptions } from './retry.ts';
import { DEFAULT_CONCURRENCY, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, parseApiUrl } from './settings.ts';

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
  /** Deadline for a whole request, from sending to the last body byte (default 30 000 ms). */
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
  /**
   * Also return a digest of the success body's bytes (`HttpResponse.digest`): sha256 of them all (true), or
   * what the given function makes of them (a list whose envelope carries a per-request id: body-digest.ts).
   */
  digest?: boolean | ((body: Buffer) => string);
  /**
   * With `digest`: asked the success body's digest before it is parsed. When it answers true, the body is
   * kept as bytes: `HttpResponse.body` is undefined and `HttpResponse.parse()` decodes, parses and checks it
   * (the same checks and errors as here) when called. For a caller that already knows what these very bytes
   * hold (the plan's live memo, issue 15: a 28 MB list need not be parsed to be planned on).
   */
  deferParse?: ((digest: string) => boolean) | undefined;
  /**
   * A POST that changes nothing on the server (`POST .../dashboards/validate`: "The dashboard is never
   * persisted", HyperDX 2026-08-21 and ClickStack): retried as a GET is, and never of unknown outcome.
   */
  readOnly?: boolean | undefined;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON; undefined when the body was empty. */
  body: T;
  /** Tries made (1 when it succeeded the first time). */
  attempts: number;
  /** With `digest`: sha256 (base64url) of the body's bytes as received (decoded), or what the given function made of them. */
  digest?: string;
  /** Set when `deferParse` answered true: parses and checks the body kept as bytes (once; later calls give the same). */
  parse?: () => T;
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

export { DEFAULT_CONCURRENCY, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './settings.ts';

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
  const t = transport(opts);
  const headers = requestHeaders(opts);
  checkHeaderValues(headers, opts.credentialHint);
  // A JSON body says so (a caller's own content-type is kept).
  const jsonHeaders = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type') ? headers : { ...headers, 'content-type': 'application/json' };

  async function request<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const path = req.path.startsWith('/') ? req.path : `/${req.path}`;
    const url = t.prefix + path;
    const body = req.json === undefined ? undefined : JSON.stringify(req.json);
    // --debug: what is sent (redacted, cut at TRACE_BODY_LIMIT), which is what one needs to read a 400.
    // Written and redacted only for a sink: per request, that was most of the client's CPU in an apply.
    if (t.tracing && body !== undefined) t.trace(`http ${req.method} ${url} request body: ${traceBody(t.clean(body))}`);
    // Parsed as a URL, so the path reaches the server as a URL parser writes it (spaces and the like escaped).
    const target = new URL(url);
    const exchange = new Exchange(t, {
      method: req.method,
      url,
      path: path.split('?')[0] ?? path,
      send: {
        path: target.pathname + target.search,
        method: req.method,
        headers: body === undefined ? headers : jsonHeaders,
        ...(body === undefined ? {} : { body }),
      },
      signal: combineSignals(opts.signal, req.signal),
      validate: req.validate,
      digest: req.digest ?? false,
      deferParse: req.deferParse,
      readOnly: req.readOnly,
    });
    return (await exchange.run()) as HttpResponse<T>;
  }

  return { request, host: t.host, redact: t.clean };
}

/** A client's settings, resolved once: the URL, limits, timeouts, redaction, sinks, shared pacing. */
function transport(opts: HttpOptions): Transport & { prefix: string } {
  const parsed = parseApiUrl(opts.prefixUrl);
  if (!parsed.ok) {
    const shown = redact(opts.prefixUrl);
    if (parsed.problem.kind === 'not-a-url')
      throw new CliError(`invalid API URL "${shown}": not an absolute URL`, { code: 'config', cause: parsed.problem.cause });
    throw new CliError(`invalid API URL "${shown}": must start with http:// or https://`, { code: 'config' });
  }
  const base = parsed.url;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const timeoutMs = positive(opts.timeoutMs, DEFAULT_TIMEOUT_MS);
  const idleTimeoutMs = Math.min(positive(opts.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS), timeoutMs);
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  let connections: Connections | undefined;
  const clean = createRedactor([...(opts.secrets ?? []), ...credentials(opts.auth)]);
  const told = (ms: number, reason: string) => {
    try {
      if (ms > 0) opts.onWait?.(ms, reason);
    } catch {
      // A broken progress sink must not change the outcome of a request.
    }
  };
  return {
    prefix: `${base.origin}${base.pathname.replace(/\/+$/, '')}`,
    host: base.host,
    policy: retryPolicy(opts.retry),
    timeoutMs,
    idleTimeoutMs,
    maxBytes: positive(opts.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
    credentialHint: opts.credentialHint,
    now,
    sleep,
    random: opts.random ?? Math.random,
    limiter: new RateLimiter({
      requestsPerMinute: opts.requestsPerMinute,
      burst: opts.burst,
      now,
      sleep: (ms, signal) => {
        told(ms, 'rate limit');
        return sleep(ms, signal);
      },
    }),
    slots: new Semaphore(concurrency),
    // No redirect is followed (nothing here follows one): a 3xx is read as an answer. TLS is verified (Node's
    // default). Both timeouts are attempt.ts's; a connect is abandoned after the idle timeout. Idle keep-alive
    // sockets do not hold the process open (node:http's Agent unrefs them).
    // One connection per concurrency slot: a socket is back in the Agent's free list a tick after its answer,
    // before the request that takes its slot is sent.
    connections: () =>
      (connections ??= createConnections(base, {
        connections: concurrency > 0 && Number.isFinite(concurrency) ? Math.floor(concurrency) : null,
        connectTimeoutMs: idleTimeoutMs,
      })),
    clean,
    tracing: opts.trace !== undefined,
    trace: (line) => {
      if (!opts.trace) return;
      try {
        opts.trace(clean(line));
      } catch {
        // A broken trace sink must not change the outcome of a request.
      }
    },
    told,
  };
}

/** Every request's headers: JSON wanted, who asks, the encodings it decodes, the credential (only here). */
function requestHeaders(opts: HttpOptions): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'steward', 'accept-encoding': ACCEPT_ENCODING, ...opts.headers };
  if (opts.auth.type === 'bearer') headers['authorization'] = `Bearer ${opts.auth.token}`;
  else if (opts.auth.type === 'basic') headers['authorization'] = `Basic ${basicCredential(opts.auth)}`;
  return headers;
}

/**
 * A header value with a line break or another control character cannot be sent (node:http refuses it at each
 * request, naming the header only): said once, up front, naming where the value comes from, never the value.
 */
function checkHeaderValues(headers: Record<string, string>, credentialHint: string | undefined): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderValue(name, value);
    } catch {
      const what = name.toLowerCase() === 'authorization' ? (credentialHint ?? 'the credential') : `the value of the header ${JSON.stringify(name)}`;
      throw new CliError(`${what} holds a character an HTTP header cannot carry (a line break or another control character): nothing was sent`, {
        code: 'config',
      });
    }
  }
}

/** The values the auth puts on the wire, redacted everywhere this client writes. */
function credentials(auth: HttpAuth): string[] {
  if (auth.type === 'bearer') return [auth.token];
  if (auth.type === 'basic') return [basicCredential(auth), auth.password, auth.username];
  return [];
}

function basicCredential(auth: { username: string; password: string }): string {
  return Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64');
}

function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}

function positive(v: number | undefined, fallback: number): number {
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
}
