/**
 * The one HTTP layer both API clients are built on (STYLE.md: "one createHttp(...)").
 *
 * got does the transport (with its own retry off); this module adds what steward needs around it:
 * authentication, a client-wide rate limit and concurrency bound, retries of idempotent requests with
 * backoff that honours the server's wait headers, never a retry of POST, a response size limit, a
 * whole-request and an inactivity timeout, one-line errors, and a redacted trace.
 */
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import gotDefault, { type Got, type Request as GotRequest, type Response as GotResponse } from 'got';
import { CliError } from '../errors.ts';
import {
  ApiError,
  ApiResponseError,
  ApiTransportError,
  ConflictError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  type ApiErrorInit,
  type HttpMethod,
  type ResponseProblem,
  type TransportFailure,
} from './errors.ts';
import { summarizeErrorBody, oneLine } from './error-body.ts';
import { RateLimiter, Semaphore, type Sleep } from './limiter.ts';
import { redact } from './redact.ts';
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from './depth.ts';
import { backoffMs, isIdempotent, retryPolicy, RETRY_CODES, RETRY_STATUSES, serverWait, type RetryOptions, type ServerWait } from './retry.ts';

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
  /** Deadline for a whole request, from sending to the last body byte (default 60 000 ms). */
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

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Error bodies are only read this far: one line of them is shown. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

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

/** What one attempt produced. */
type Attempt =
  | {
      kind: 'response';
      status: number;
      statusText: string;
      headers: IncomingHttpHeaders;
      body: Buffer;
      /** The body was cut at the size limit (a 2xx: refused; an error status: summarized as is). */
      overLimit: boolean;
      bytes: number;
      ms: number;
    }
  | { kind: 'transport'; error: unknown; code: string | undefined; failure: TransportFailure; sent: boolean; ms: number };

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

  /** One try: send, read the body up to the limit, never throw. */
  function sendOnce(method: HttpMethod, url: string, json: unknown, signal: AbortSignal | undefined): Promise<Attempt> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<Attempt>((resolve) => {
      let settled = false;
      let response: GotResponse | undefined;
      let size = 0;
      const chunks: Buffer[] = [];
      let stream: GotRequest;
      const finish = (a: Attempt, destroy: boolean) => {
        if (settled) return;
        settled = true;
        resolve(a);
        if (destroy) stream.destroy();
      };
      const fromResponse = (overLimit: boolean): Attempt => ({
        kind: 'response',
        status: response?.statusCode ?? 0,
        statusText: response?.statusMessage || STATUS_CODES[response?.statusCode ?? 0] || '',
        headers: response?.headers ?? {},
        // A success over the limit is refused unread: copying what arrived would double the memory held, and
        // what arrived is let go at once (splice empties the list the stream handlers still reference).
        body: overLimit && (response?.statusCode ?? 0) < 400 ? (chunks.splice(0), Buffer.alloc(0)) : Buffer.concat(chunks.splice(0)),
        overLimit,
        bytes: size,
        ms: elapsed(),
      });
      try {
        stream = client.stream(url, {
          method,
          ...(json === undefined ? {} : { json }),
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        resolve({ kind: 'transport', error, code: codeOf(error), failure: 'other', sent: false, ms: elapsed() });
        return;
      }
      stream.on('response', (res: GotResponse) => {
        response = res;
        const limit = res.statusCode >= 400 ? MAX_ERROR_BODY_BYTES : maxBytes;
        const declared = Number(res.headers['content-length']);
        if (res.statusCode < 400 && Number.isFinite(declared) && declared > limit) {
          size = declared;
          finish(fromResponse(true), true);
        }
      });
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        const limit = (response?.statusCode ?? 0) >= 400 ? MAX_ERROR_BODY_BYTES : maxBytes;
        size += chunk.length;
        if (size > limit) {
          const room = limit - (size - chunk.length);
          if (room > 0) chunks.push(chunk.subarray(0, room));
          finish(fromResponse(true), true);
          return;
        }
        chunks.push(chunk);
      });
      stream.on('end', () => finish(fromResponse(false), false));
      stream.on('error', (error: unknown) => {
        const { failure, sent } = classify(error, response !== undefined);
        finish({ kind: 'transport', error, code: codeOf(error), failure, sent, ms: elapsed() }, false);
      });
    });
  }

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
          return sendOnce(method, url, req.json, signal);
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
        if (!retry) throw transportError(ctx, result, attempt, signal);
        told(wait, `${result.code ?? result.failure}, retrying ${method} ${shownPath}`);
        await sleepOrAbort(wait, signal, ctx, attempt);
        continue;
      }

      const { status } = result;
      const requestId = headerValue(result.headers, 'x-request-id') ?? headerValue(result.headers, 'request-id');

      if (status >= 200 && status < 300) {
        observeRemaining(result.headers);
        trace(`http ${tag} → ${status} ${result.statusText} (${timing}, ${result.bytes} bytes)`);
        return { status, headers: result.headers, body: parseSuccess(ctx, result, attempt, req.validate) as T, attempts: attempt };
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
        throw statusError(ctx, result, attempt, requestId, hinted, tooLong && retryableStatus ? policy.maxDelayMs : undefined);
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

  function parseSuccess(ctx: Ctx, r: Extract<Attempt, { kind: 'response' }>, attempt: number, validate: HttpRequest['validate']): unknown {
    // A write answered 2xx was applied; if its body is unusable, the caller does not know what it got.
    const init: ApiErrorInit = { ...ctx, status: r.status, attempts: attempt, outcomeUnknown: ctx.method !== 'GET' };
    const head = `${ctx.method} ${ctx.path}`;
    const unknownNote = init.outcomeUnknown ? outcomeNote(ctx.method) : '';
    if (r.overLimit) {
      throw new ApiResponseError(
        `${head}: response larger than ${formatBytes(maxBytes)} (maxResponseBytes; STEWARD_MAX_RESPONSE_MIB raises it); refused${unknownNote}`,
        { ...init, problems: [{ field: '', message: 'response too large' }] },
      );
    }
    const text = r.body.toString('utf8');
    let body: unknown;
    if (text.trim() === '') {
      body = undefined;
    } else {
      try {
        body = JSON.parse(text);
      } catch {
        // No cause attached: the parser's message quotes the body's first characters, unredacted (a
        // secret's start), and the excerpt below says more, redacted.
        const ct = headerValue(r.headers, 'content-type') ?? 'no content type';
        // Redacted before it is summarized: a summary cut at 200 characters would keep half a secret.
        const excerpt = clean(summarizeErrorBody(clean(r.body.toString('utf8')), ct).message);
        throw new ApiResponseError(`${head}: response is not valid JSON (${r.status}, ${ct}, ${r.bytes} bytes): ${excerpt}${unknownNote}`, {
          ...init,
          problems: [{ field: '', message: 'not valid JSON' }],
        });
      }
    }
    // Before anything recursive sees it (the shape check, normalization): too deep is a bad response.
    if (nestsDeeperThan(body, MAX_RESPONSE_DEPTH)) {
      throw new ApiResponseError(`${head}: response nested deeper than ${MAX_RESPONSE_DEPTH} levels; refused${unknownNote}`, {
        ...init,
        problems: [{ field: '', message: 'nested too deep' }],
      });
    }
    const problems = validate?.(body);
    if (problems && problems.length > 0) {
      if (body === undefined) {
        throw new ApiResponseError(`${head}: empty response body (${r.status}), expected JSON${unknownNote}`, {
          ...init,
          problems: [{ field: '', message: 'empty body' }],
        });
      }
      const first = problems[0]!;
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
      const where = first.field === '' ? 'response body: ' : `${first.field}: `;
      throw new ApiResponseError(`${head}: ${clean(oneLine(where + first.message, false))}${more}${unknownNote}`, {
        ...init,
        problems,
      });
    }
    return body;
  }

  function statusError(
    ctx: Ctx,
    r: Extract<Attempt, { kind: 'response' }>,
    attempts: number,
    headerRequestId: string | undefined,
    hinted: ServerWait | undefined,
    refusedWaitCap: number | undefined,
  ): ApiError {
    // Redacted before it is summarized: a summary cut at 200 characters would keep half a secret.
    const summary = summarizeErrorBody(clean(r.body.toString('utf8')), headerValue(r.headers, 'content-type'));
    let serverMessage = clean(summary.message);
    if (r.overLimit) serverMessage = `${serverMessage}${serverMessage ? ' ' : ''}(body cut at ${formatBytes(MAX_ERROR_BODY_BYTES)})`;
    const requestId = summary.requestId ?? headerRequestId;
    const status = r.status;
    const outcomeUnknown = ctx.method !== 'GET' && status >= 500 && status !== 501;
    const init: ApiErrorInit = {
      ...ctx,
      status,
      serverMessage: serverMessage || undefined,
      requestId: requestId === undefined ? undefined : clean(requestId),
      attempts,
      outcomeUnknown,
    };
    let msg = `${ctx.method} ${ctx.path} → ${status}${r.statusText ? ` ${oneLine(r.statusText, true)}` : ''}`;
    if (serverMessage) msg += `: ${serverMessage}`;
    if (init.requestId) msg += ` (request id ${init.requestId})`;
    if (status >= 300 && status < 400) {
      const location = headerValue(r.headers, 'location');
      msg += `; unexpected redirect${location ? ` to ${clean(oneLine(location, true))}` : ''}: check the API URL`;
      return new ApiError(msg, init);
    }
    if (refusedWaitCap !== undefined && hinted) {
      msg += ` (the server asks to wait ${Math.ceil(hinted.ms / 1000)} s, more than the ${Math.round(refusedWaitCap / 1000)} s retry cap)`;
    } else if (attempts > 1) {
      msg += ` (gave up after ${attempts} attempts)`;
    }
    if (outcomeUnknown) msg += outcomeNote(ctx.method);
    if (status === 401 || status === 403) {
      const hint = opts.credentialHint;
      msg +=
        status === 401
          ? `; the credential was refused: check ${hint ?? 'the credentials'}`
          : `; the credential is not allowed to do this: check ${hint ?? 'the credentials'} and its permissions`;
      return new UnauthorizedError(msg, { ...init, hint });
    }
    if (status === 404) return new NotFoundError(msg, init);
    if (status === 409) return new ConflictError(msg, init);
    if (status === 429) return new RateLimitedError(msg, { ...init, retryAfterMs: hinted?.ms });
    return new ApiError(msg, init);
  }

  function transportError(ctx: Ctx, r: Extract<Attempt, { kind: 'transport' }>, attempts: number, signal: AbortSignal | undefined): ApiError {
    if (r.failure === 'aborted') return abortedError(ctx, attempts, r.sent, r.error, signal);
    const outcomeUnknown = mayHaveApplied(ctx.method, r);
    const code = r.code && !r.code.startsWith('ERR_GOT') ? ` (${r.code})` : '';
    const detail = clean(oneLine(errorMessage(r.error), true));
    let what: string;
    switch (r.failure) {
      case 'timeout':
        what = `no complete response within ${timeoutMs} ms (timeout)`;
        break;
      case 'stalled':
        what = `the connection stalled: nothing received for ${idleTimeoutMs} ms`;
        break;
      case 'reset':
        what = `the connection was closed before the response was complete${code}`;
        break;
      case 'refused':
        what = `connection refused${code}: is the server running and the URL right?`;
        break;
      case 'dns':
        what = `host name could not be resolved${code}`;
        break;
      case 'tls':
        what = `TLS failed: ${detail}`;
        break;
      default:
        what = `${detail}${code && !detail.includes(r.code ?? '') ? code : ''}`;
    }
    let msg = `${ctx.method} ${ctx.path} on ${host}: ${what}`;
    if (attempts > 1) msg += ` (gave up after ${attempts} attempts)`;
    if (outcomeUnknown) msg += outcomeNote(ctx.method);
    return new ApiTransportError(msg, {
      ...ctx,
      attempts,
      outcomeUnknown,
      failure: r.failure,
      transportCode: r.code,
      cause: r.error,
    });
  }

  return { request, host, redact: clean };
}

type Ctx = { method: HttpMethod; path: string; host: string };

function outcomeNote(method: HttpMethod): string {
  return `; outcome unknown: the server may have applied this ${method}, check before sending it again`;
}

function abortedError(ctx: Ctx, attempts: number, sent: boolean, cause: unknown, signal: AbortSignal | undefined): ApiError {
  const reason: unknown = signal?.reason ?? cause;
  const exitCode = reason instanceof CliError ? reason.exitCode : 130;
  const outcomeUnknown = ctx.method !== 'GET' && sent;
  return new ApiTransportError(`${ctx.method} ${ctx.path} on ${ctx.host}: interrupted${outcomeUnknown ? outcomeNote(ctx.method) : ''}`, {
    ...ctx,
    attempts,
    outcomeUnknown,
    failure: 'aborted',
    transportCode: codeOf(cause),
    cause: reason,
    exitCode,
  });
}

/** A write whose request may have reached the server: anything but a failure before connecting. */
function mayHaveApplied(method: HttpMethod, r: { sent: boolean }): boolean {
  return method !== 'GET' && r.sent;
}

function isRetryableTransport(r: { code: string | undefined; failure: TransportFailure }): boolean {
  if (r.failure === 'aborted' || r.failure === 'tls' || (r.failure === 'dns' && r.code !== 'EAI_AGAIN')) return false;
  if (r.failure === 'timeout' || r.failure === 'stalled' || r.failure === 'reset' || r.failure === 'refused') return true;
  return r.code !== undefined && RETRY_CODES.has(r.code);
}

const PRE_SEND_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN']);

/** What kind of failure, and whether the request may have reached the server. */
function classify(error: unknown, gotResponse: boolean): { failure: TransportFailure; sent: boolean } {
  const code = codeOf(error);
  const name = error instanceof Error ? error.name : '';
  const event = (error as { event?: unknown } | null)?.event;
  if (name === 'AbortError' || code === 'ERR_ABORTED' || code === 'ABORT_ERR') return { failure: 'aborted', sent: true };
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') {
    if (event === 'lookup') return { failure: 'dns', sent: false };
    if (event === 'connect' || event === 'secureConnect') return { failure: 'timeout', sent: false };
    return { failure: event === 'socket' ? 'stalled' : 'timeout', sent: true };
  }
  if (code === 'ECONNREFUSED') return { failure: 'refused', sent: false };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { failure: 'dns', sent: false };
  if (code !== undefined && PRE_SEND_CODES.has(code)) return { failure: 'other', sent: false };
  if (
    code !== undefined &&
    (code.startsWith('ERR_TLS') ||
      code.startsWith('ERR_SSL') ||
      code.includes('CERT') ||
      code === 'EPROTO' ||
      code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
      code === 'SELF_SIGNED_CERT_IN_CHAIN')
  ) {
    return { failure: 'tls', sent: gotResponse };
  }
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ECONNABORTED' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    /socket hang up|premature close|aborted/i.test(errorMessage(error))
  ) {
    return { failure: 'reset', sent: true };
  }
  return { failure: 'other', sent: true };
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const causeCode = ((error as { cause?: unknown } | null)?.cause as { code?: unknown } | undefined)?.code;
  return typeof causeCode === 'string' ? causeCode : undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function headerValue(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}

function positive(v: number | undefined, fallback: number): number {
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** The most of a body a --debug trace shows. */
const TRACE_BODY_LIMIT = 4096;

/**
 * A body for a one-line trace: control characters (line breaks, ESC: a server's text must not drive the
 * terminal) shown as escapes, cut at TRACE_BODY_LIMIT characters.
 */
/** A body for the trace, already redacted (cutting first could split a credential the redactor then misses). */
function traceBody(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return flat.length > TRACE_BODY_LIMIT ? `${flat.slice(0, TRACE_BODY_LIMIT)}… (${flat.length - TRACE_BODY_LIMIT} more characters)` : flat;
}
