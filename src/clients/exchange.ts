/**
 * One `Http.request` call and its attempts. got makes the attempts and runs the retry loop; its hooks ask
 * this object what steward's rules (src/clients/retry.ts) say:
 *
 *   hooks.beforeRequest   gate()    a concurrency slot, then the client's rate limit, before every attempt
 *   (each attempt)        ResponseReader reads the response within its limits; an error status goes to
 *                         got's retry step as an HTTPError, like a failed connection
 *   retry.calculateDelay  decide()  retry or not, how long to wait, the shared pause, the --debug line
 *   hooks.beforeRetry     wait()    the wait itself, through the injected sleep
 *   'retry' event         follow()  the next attempt's stream
 *
 * What the caller gets is settled here once: the parsed body, or the ApiError of the last attempt.
 *
 * Why not got's promise API: it buffers a whole body before anything may look at it, so the size limits
 * (abort as soon as one passes, refuse a declared content-length above it, never two copies) could not
 * hold. Why error statuses are handed to got's retry step here (`_beforeError`, declared in got's types)
 * instead of by `throwHttpErrors`: in stream mode got raises the HTTPError before the body is read and then
 * reads the body whole, with no limit; here it is read to MAX_ERROR_BODY_BYTES first and set as rawBody.
 */
import { hash } from 'node:crypto';
import { HTTPError, type Got, type Request as GotRequest, type RequestError as GotRequestError, type Response as GotResponse } from 'got';
import type { ApiError, HttpMethod } from './errors.ts';
import type { RateLimiter, Semaphore, Sleep } from './limiter.ts';
import { parseSuccess, ResponseReader, traceBody, traceText, type ReadResponse, type Validate } from './response.ts';
import { backoffMs, isIdempotent, retryStatus, serverWait, type RetryPolicy } from './retry.ts';
import {
  abortedError,
  codeOf,
  isRetryableTransport,
  mayHaveApplied,
  statusError,
  transportAttempt,
  transportError,
  type ErrorSettings,
  type RequestContext,
  type ResponseAttempt,
  type TransportAttempt,
} from './transport-errors.ts';

/** A client's settings and shared state, resolved once by createHttp. */
export interface Transport extends ErrorSettings {
  host: string;
  policy: RetryPolicy;
  maxBytes: number;
  now: () => number;
  sleep: Sleep;
  random: () => number;
  limiter: RateLimiter;
  slots: Semaphore;
  /** The --debug sink, redacting, never throwing. */
  trace: (line: string) => void;
  /** Whether `trace` goes anywhere: a body is written for it (and redacted) only then. */
  tracing: boolean;
  /** The onWait sink, never throwing. */
  told: (ms: number, reason: string) => void;
}

/** What one call asks for. */
export interface ExchangeRequest {
  method: HttpMethod;
  /** The full URL (shown in --debug lines). */
  url: string;
  /** The path without its query (shown in errors). */
  path: string;
  json: unknown;
  signal: AbortSignal | undefined;
  validate: Validate | undefined;
  digest: boolean | ((body: Buffer) => string);
  deferParse?: ((digest: string) => boolean) | undefined;
}

export interface ExchangeResult {
  status: number;
  headers: ResponseAttempt['headers'];
  body: unknown;
  attempts: number;
  digest?: string;
  parse?: () => unknown;
}

/** The key under got's `context` option where each request's Exchange rides along to the hooks. */
const CONTEXT_KEY = 'stewardExchange';

/**
 * got takes a delay of 0 from calculateDelay as "do not retry", so a retry is announced with the shortest
 * delay it accepts; the real wait happens in the beforeRetry hook, through the injected sleep, so tests
 * control time and Ctrl-C ends it.
 */
const GOT_RETRY_DELAY_MS = 1;

/** The Exchange a got hook is running for (undefined for a request this module did not start). */
export function exchangeOf(options: { context: Record<string, unknown> } | undefined): Exchange | undefined {
  const e = options?.context[CONTEXT_KEY];
  return e instanceof Exchange ? e : undefined;
}

export class Exchange {
  readonly result: Promise<ExchangeResult>;
  private readonly ctx: RequestContext;
  private readonly maxTries: number;
  private resolve!: (r: ExchangeResult) => void;
  private reject!: (e: ApiError) => void;
  private settled = false;
  /** The attempt under way (1-based) and where it stands: waiting for its turn, sent, or waiting to retry. */
  private attempt = 0;
  private phase: 'gate' | 'sending' | 'waiting' = 'gate';
  private stream: GotRequest | undefined;
  private reader: ResponseReader | undefined;
  private holdsSlot = false;
  private started = 0;
  private waited = 0;
  /** This attempt's error status, read, for decide(). */
  private errorResponse: ResponseAttempt | undefined;
  private nextWait = 0;

  constructor(
    private readonly t: Transport,
    private readonly req: ExchangeRequest,
  ) {
    this.ctx = { method: req.method, path: req.path, host: t.host };
    // Which statuses are tried again, and for which methods (never a POST): retryStatus.
    this.maxTries = t.policy.limit;
    this.result = new Promise<ExchangeResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Sends the first attempt through `client`; the result settles when the last one ends. */
  start(client: Got): void {
    let stream: GotRequest;
    try {
      stream = client.stream(this.req.url, {
        method: this.req.method,
        ...(this.req.json === undefined ? {} : { json: this.req.json }),
        ...(this.req.signal ? { signal: this.req.signal } : {}),
        context: { [CONTEXT_KEY]: this },
      });
    } catch (error) {
      this.fail(transportError(this.t, this.ctx, { kind: 'transport', error, code: codeOf(error), failure: 'other', sent: false, ms: 0 }, 1, this.req.signal));
      return;
    }
    this.follow(stream);
  }

  /** hooks.beforeRequest: the attempt waits for a slot, then for the rate limit; its clock starts after. */
  async gate(): Promise<void> {
    await this.t.slots.acquire();
    this.holdsSlot = true;
    // Interrupted while queued: got has already reported it; the slot goes to the next request.
    if (this.settled) {
      this.releaseSlot();
      throw new Error('request ended while waiting for a slot');
    }
    this.waited = await this.t.limiter.acquire(this.req.signal);
    if (this.settled) throw new Error('request ended while waiting for the rate limit');
    this.phase = 'sending';
    this.started = performance.now();
  }

  /**
   * retry.calculateDelay: what retry.ts says about the attempt that just failed. 0: no retry, and the
   * request is settled here with its ApiError (got then ends the stream with its own error, ignored).
   */
  decide(error: GotRequestError): number {
    // The attempt is over: its slot goes to the next request while this one waits.
    this.releaseSlot();
    // A late error of a request already answered (got's stream is destroyed then; this is belt and braces).
    if (this.settled) return 0;
    if (this.phase === 'gate') {
      // Only the rate-limit wait fails before sending, and only when interrupted: nothing was sent.
      this.fail(abortedError(this.ctx, this.attempt, false, error, this.req.signal));
      return 0;
    }
    const r = this.errorResponse;
    if (r && error instanceof HTTPError) return this.decideStatus(r);
    return this.decideTransport(transportAttempt(error, this.reader?.response !== undefined, this.elapsed()));
  }

  /** hooks.beforeRetry: the wait decide() chose (rejects when the signal aborts). */
  async wait(): Promise<void> {
    await this.t.sleep(this.nextWait, this.req.signal);
  }

  private follow(stream: GotRequest): void {
    this.attempt++;
    this.phase = 'gate';
    this.stream = stream;
    this.errorResponse = undefined;
    this.waited = 0;
    this.reader = new ResponseReader(stream, this.t.maxBytes, (r) => {
      if (stream === this.stream) this.onResponse(stream, r);
    });
    stream.on('error', (error: unknown) => {
      if (stream === this.stream) this.onError(error);
    });
    stream.once('retry', (_count: number, _error: unknown, next: () => GotRequest) => {
      if (!this.settled) this.follow(next());
    });
  }

  private onResponse(stream: GotRequest, read: ReadResponse): void {
    const r: ResponseAttempt = { ...read, ms: this.elapsed() };
    if (r.status >= 200 && r.status < 300) {
      this.releaseSlot();
      stream.destroy();
      this.observeRemaining(r.headers);
      this.t.trace(`http ${this.tag()} → ${r.status} ${r.statusText} (${this.timing(r.ms)}, ${r.bytes} bytes)`);
      const { ctx, attempt } = this;
      const checks = { validate: this.req.validate, maxBytes: this.t.maxBytes, clean: this.t.clean };
      try {
        const d = this.req.digest;
        const digest = !d || r.overLimit ? undefined : d === true ? hash('sha256', r.body, 'base64url') : d(r.body);
        if (digest !== undefined && this.deferred(digest)) {
          const tag = this.tag();
          this.t.trace(`http ${tag}: body known to the caller (sha256 ${digest.slice(0, 12)}…): kept unparsed`);
          let parsed: { body: unknown } | undefined;
          const parse = () => {
            if (!parsed) this.t.trace(`http ${tag}: parsing the kept body (more than the caller knew was read)`);
            return (parsed ??= { body: parseSuccess(ctx, r, attempt, checks) }).body;
          };
          this.succeed({ status: r.status, headers: r.headers, body: undefined, attempts: attempt, digest, parse });
          return;
        }
        const body = parseSuccess(ctx, r, attempt, checks);
        this.succeed({ status: r.status, headers: r.headers, body, attempts: attempt, ...(digest ? { digest } : {}) });
      } catch (e) {
        this.fail(e as ApiError);
      }
      return;
    }
    // An error status (or an unexpected redirect) goes to got's retry step, as got's own promise API sends
    // it there after reading the body. The body is read already (to its limit): rawBody tells got not to
    // read the rest.
    this.errorResponse = r;
    const res = stream.response as GotResponse;
    res.rawBody = r.body;
    stream._beforeError(new HTTPError(res));
  }

  /** Whether the caller knows these bytes already (a throwing callback counts as no: the body is parsed now). */
  private deferred(digest: string): boolean {
    try {
      return this.req.deferParse?.(digest) === true;
    } catch {
      return false;
    }
  }

  /**
   * An error got reports that its retry step never saw (an abort destroys the stream directly). The end of
   * a request decide() gave up on arrives here too, after it was settled, and is ignored.
   */
  private onError(error: unknown): void {
    if (this.settled) return;
    this.releaseSlot();
    // Interrupted (got destroys the stream when the signal aborts) while waiting: nothing was sent.
    if (this.phase !== 'sending') return this.fail(abortedError(this.ctx, this.attempt, false, error, this.req.signal));
    const r = transportAttempt(error, this.reader?.response !== undefined, this.elapsed());
    this.t.trace(`http ${this.tag()} → ${r.code ?? r.failure} (${this.timing(r.ms)})` + (mayHaveApplied(this.req.method, r) ? '; outcome unknown' : ''));
    this.fail(transportError(this.t, this.ctx, r, this.attempt, this.req.signal));
  }

  private decideTransport(r: TransportAttempt): number {
    const { method } = this.req;
    const retry = isIdempotent(method) && this.attempt < this.maxTries && isRetryableTransport(r);
    const wait = retry ? backoffMs(this.attempt, this.t.policy, this.t.random) : 0;
    this.t.trace(
      `http ${this.tag()} → ${r.code ?? r.failure} (${this.timing(r.ms)})` +
        (retry ? `; retry in ${wait} ms` : '') +
        (!retry && mayHaveApplied(method, r) ? '; outcome unknown' : ''),
    );
    if (!retry) {
      this.fail(transportError(this.t, this.ctx, r, this.attempt, this.req.signal));
      return 0;
    }
    this.t.told(wait, `${r.code ?? r.failure}, retrying ${method} ${this.ctx.path}`);
    return this.retryAfter(wait);
  }

  private decideStatus(r: ResponseAttempt): number {
    const { method } = this.req;
    const { policy, now } = this.t;
    const status = r.status;
    const hinted = serverWait(status, r.headers, now());
    const retryableStatus = retryStatus(method, status);
    const tooLong = hinted !== undefined && hinted.ms > policy.maxDelayMs;
    const retry = retryableStatus && this.attempt < this.maxTries && !tooLong;
    if (hinted !== undefined && !tooLong && (status === 429 || status === 503)) {
      // Hold every request of this client, not only this one: the server spoke about the key.
      this.t.limiter.pauseUntil(now() + hinted.ms);
    }
    const wait = retry ? Math.max(hinted?.ms ?? 0, backoffMs(this.attempt, policy, this.t.random)) : 0;
    const tag = this.tag();
    this.t.trace(
      `http ${tag} → ${status} ${r.statusText} (${this.timing(r.ms)})` + (retry ? `; retry in ${wait} ms${hinted ? ` (${hinted.header})` : ''}` : ''),
    );
    if (this.t.tracing && r.body.length > 0) this.t.trace(`http ${tag} response body: ${traceBody(this.t.clean(traceText(r.body.toString('utf8'))))}`);
    if (!retry) {
      this.fail(statusError(this.t, this.ctx, r, this.attempt, hinted, tooLong && retryableStatus ? policy.maxDelayMs : undefined));
      return 0;
    }
    this.t.told(
      wait,
      status === 429
        ? 'rate limited (429)'
        : hinted
          ? `the server asked to wait (${status}, ${hinted.header})`
          : `${status} ${r.statusText}, retrying ${method} ${this.ctx.path}`,
    );
    return this.retryAfter(wait);
  }

  private retryAfter(wait: number): number {
    this.nextWait = wait;
    this.phase = 'waiting';
    return GOT_RETRY_DELAY_MS;
  }

  /** A success with `remaining: 0` and a reset: hold the next requests until the reset. */
  private observeRemaining(h: ResponseAttempt['headers']): void {
    const hinted = serverWait(200, h, this.t.now());
    if (hinted !== undefined && hinted.ms > 0 && hinted.ms <= this.t.policy.maxDelayMs) this.t.limiter.pauseUntil(this.t.now() + hinted.ms);
  }

  private tag(): string {
    return `${this.req.method} ${this.req.url}`;
  }

  private timing(ms: number): string {
    return `${ms} ms, attempt ${this.attempt}/${this.maxTries}${this.waited > 0 ? `, rate limit wait ${Math.round(this.waited)} ms` : ''}`;
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }

  private releaseSlot(): void {
    if (!this.holdsSlot) return;
    this.holdsSlot = false;
    this.t.slots.release();
  }

  private succeed(r: ExchangeResult): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(r);
  }

  private fail(e: ApiError): void {
    if (this.settled) return;
    this.settled = true;
    this.releaseSlot();
    this.reject(e);
  }
}
