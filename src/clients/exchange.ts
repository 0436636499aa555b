/**
 * One `Http.request` call and its attempts, as one plain loop:
 *
 *   gate     a concurrency slot, then the client's rate limit (and a shared pause), before every attempt
 *   send     one attempt on the wire, its response read within the limits (attempt.ts); the slot is let go
 *            as soon as it ends
 *   decide   a 2xx is parsed and returned; anything else asks retry.ts whether to try again and how long to
 *            wait (a 429/503 wait pauses the whole client), or ends the request with its ApiError
 *   wait     through the injected sleep (fake clocks stay instant, Ctrl-C ends it), then again
 *
 * Every --debug line of a request is written here, one per attempt.
 */
import { hash } from 'node:crypto';
import type { Connections, SendOptions } from './connections.ts';
import type { HttpMethod } from './errors.ts';
import type { RateLimiter, Semaphore, Sleep } from './limiter.ts';
import { abortError, sendAttempt } from './attempt.ts';
import { oneLine } from './error-body.ts';
import { parseSuccess, traceBody, traceText, type Validate } from './response.ts';
import { backoffMs, isIdempotent, retryStatus, serverWait, type RetryPolicy } from './retry.ts';
import {
  abortedError,
  effectOf,
  isRetryableTransport,
  mayHaveApplied,
  statusError,
  statusMayHaveApplied,
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
  /** The client's keep-alive connections to its origin (made on first use). */
  connections: () => Connections;
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
  /** What is sent: the path and query below the origin, the headers, the body. */
  send: SendOptions;
  signal: AbortSignal | undefined;
  validate: Validate | undefined;
  digest: boolean | ((body: Buffer) => string);
  deferParse?: ((digest: string) => boolean) | undefined;
  /** A POST that changes nothing on the server: retried as a GET, never of unknown outcome (HttpRequest.readOnly). */
  readOnly?: boolean | undefined;
}

export interface ExchangeResult {
  status: number;
  headers: ResponseAttempt['headers'];
  body: unknown;
  attempts: number;
  digest?: string;
  parse?: () => unknown;
}

export class Exchange {
  private readonly ctx: RequestContext;
  private readonly maxTries: number;
  /** The attempt under way (1-based). */
  private attempt = 0;
  private holdsSlot = false;
  /** An attempt before this one may have applied the write (it reached the server, or got a 5xx): whatever comes after, the outcome is unknown. */
  private reached = false;
  private started = 0;
  private waited = 0;

  constructor(
    private readonly t: Transport,
    private readonly req: ExchangeRequest,
  ) {
    this.ctx = { method: req.method, path: req.path, host: t.host, ...(req.readOnly ? { readOnly: true } : {}) };
    // Which statuses are tried again, and for which methods (never a POST): retryStatus.
    this.maxTries = t.policy.limit;
  }

  /** Makes the attempts; resolves with the parsed answer, or rejects with the ApiError of the last one. */
  async run(): Promise<ExchangeResult> {
    const { signal } = this.req;
    for (;;) {
      this.attempt++;
      await this.gate();
      const outcome = await sendAttempt(this.t.connections(), this.req.send, {
        maxBytes: this.t.maxBytes,
        timeoutMs: this.t.timeoutMs,
        idleTimeoutMs: this.t.idleTimeoutMs,
        signal,
      });
      // The attempt is over: its slot goes to the next request while this one parses or waits.
      this.releaseSlot();
      const ms = this.elapsed();
      let wait: number;
      if (outcome.kind === 'failed') wait = this.decideTransport(transportAttempt(outcome.error, outcome.connected, ms));
      else if (outcome.status >= 200 && outcome.status < 300) return this.success({ ...outcome, ms });
      else wait = this.decideStatus({ ...outcome, ms });
      try {
        await this.t.sleep(wait, signal);
      } catch (error) {
        // Interrupted while waiting to retry: nothing more was sent (what was may have been applied).
        throw abortedError(this.ctx, this.attempt, this.reached, abortError(error), signal);
      }
    }
  }

  /** A concurrency slot, then the rate limit; the attempt's clock starts after. Interrupted: nothing was sent. */
  private async gate(): Promise<void> {
    const { signal } = this.req;
    try {
      if (signal?.aborted) throw signal.reason;
      await (signal ? slotOrAbort(this.t.slots, signal) : this.t.slots.acquire());
      this.holdsSlot = true;
      this.waited = await this.t.limiter.acquire(signal);
    } catch (error) {
      this.releaseSlot();
      throw abortedError(this.ctx, this.attempt, this.reached, abortError(error), signal);
    }
    this.started = performance.now();
  }

  private success(r: ResponseAttempt): ExchangeResult {
    this.observeRemaining(r.headers);
    // Written only for a sink: the line is most of what a success costs here otherwise.
    if (this.t.tracing) this.t.trace(`http ${this.tag()} → ${r.status} ${this.reason(r)} (${this.timing(r.ms)}, ${r.bytes} bytes)`);
    const { ctx, attempt } = this;
    const checks = { validate: this.req.validate, maxBytes: this.t.maxBytes, clean: this.t.clean };
    const d = this.req.digest;
    const digest = !d || r.overLimit || r.undecodable !== undefined ? undefined : d === true ? hash('sha256', r.body, 'base64url') : d(r.body);
    if (digest !== undefined && this.deferred(digest)) {
      const tag = this.tag();
      this.t.trace(`http ${tag}: body known to the caller (sha256 ${digest.slice(0, 12)}…): kept unparsed`);
      let parsed: { body: unknown } | undefined;
      const parse = () => {
        if (!parsed) this.t.trace(`http ${tag}: parsing the kept body (more than the caller knew was read)`);
        return (parsed ??= { body: parseSuccess(ctx, r, attempt, checks) }).body;
      };
      return { status: r.status, headers: r.headers, body: undefined, attempts: attempt, digest, parse };
    }
    const body = parseSuccess(ctx, r, attempt, checks);
    return { status: r.status, headers: r.headers, body, attempts: attempt, ...(digest ? { digest } : {}) };
  }

  /** Whether the caller knows these bytes already (a throwing callback counts as no: the body is parsed now). */
  private deferred(digest: string): boolean {
    try {
      return this.req.deferParse?.(digest) === true;
    } catch {
      return false;
    }
  }

  /** The wait before the next try after a failure with no complete response, or (thrown) the ApiError. */
  private decideTransport(attempt: TransportAttempt): number {
    const method = effectOf(this.ctx);
    // A write an earlier attempt may have applied stays of unknown outcome, whatever this one did.
    const r = this.reached ? { ...attempt, sent: true } : attempt;
    const retry = isIdempotent(method) && this.attempt < this.maxTries && isRetryableTransport(r);
    const wait = retry ? backoffMs(this.attempt, this.t.policy, this.t.random) : 0;
    this.t.trace(
      `http ${this.tag()} → ${r.code ?? r.failure} (${this.timing(r.ms)})` +
        (retry ? `; retry in ${wait} ms` : '') +
        (!retry && mayHaveApplied(method, r) ? '; outcome unknown' : ''),
    );
    if (!retry) throw transportError(this.t, this.ctx, r, this.attempt, this.req.signal);
    this.reached ||= mayHaveApplied(method, r);
    this.t.told(wait, `${r.code ?? r.failure}, retrying ${this.req.method} ${this.ctx.path}`);
    return wait;
  }

  /** The wait before the next try after an error status (or a redirect), or (thrown) the ApiError. */
  private decideStatus(r: ResponseAttempt): number {
    const method = effectOf(this.ctx);
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
      `http ${tag} → ${status} ${this.reason(r)} (${this.timing(r.ms)})` + (retry ? `; retry in ${wait} ms${hinted ? ` (${hinted.header})` : ''}` : ''),
    );
    if (this.t.tracing && r.body.length > 0) this.t.trace(`http ${tag} response body: ${traceBody(this.t.clean(traceText(r.body.toString('utf8'))))}`);
    if (!retry) throw statusError(this.t, this.ctx, r, this.attempt, hinted, tooLong && retryableStatus ? policy.maxDelayMs : undefined, this.reached);
    this.reached ||= statusMayHaveApplied(method, status);
    this.t.told(
      wait,
      status === 429
        ? 'rate limited (429)'
        : hinted
          ? `the server asked to wait (${status}, ${hinted.header})`
          : `${status} ${r.statusText}, retrying ${this.req.method} ${this.ctx.path}`,
    );
    return wait;
  }

  /** A success with `remaining: 0` and a reset: hold the next requests until the reset. */
  private observeRemaining(h: ResponseAttempt['headers']): void {
    const hinted = serverWait(200, h, this.t.now());
    if (hinted !== undefined && hinted.ms > 0 && hinted.ms <= this.t.policy.maxDelayMs) this.t.limiter.pauseUntil(this.t.now() + hinted.ms);
  }

  /** The server's reason phrase as a trace line shows it: redacted, one line, no terminal escapes (as in errors). */
  private reason(r: ResponseAttempt): string {
    return oneLine(this.t.clean(r.statusText), true);
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
}

/** A slot, or the signal's reason when it aborts first (the slot, granted later, goes straight back). */
function slotOrAbort(slots: Semaphore, signal: AbortSignal): Promise<void> {
  const granted = slots.acquire();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      void granted.then(() => slots.release());
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    void granted.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
