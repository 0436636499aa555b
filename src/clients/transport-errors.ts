/**
 * What one attempt produced, and the ApiError each outcome becomes: the status → error table, transport
 * failures told apart (timeout, stall, reset, refused, DNS, TLS, not HTTP/1.1, interrupted) with whether the request may
 * have reached the server, and the one-line messages of src/clients/README.md, kept byte for byte.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { CliError } from '../errors.ts';
import {
  ApiError,
  ApiTransportError,
  ConflictError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  type ApiErrorInit,
  type HttpMethod,
  type TransportFailure,
} from './errors.ts';
import { summarizeErrorBody, oneLine } from './error-body.ts';
import { RETRY_CODES, type ServerWait } from './retry.ts';

/** Where a request went, as every error names it. */
export interface RequestContext {
  method: HttpMethod;
  /** A POST that changes nothing on the server (HttpRequest.readOnly): retried and reported as a GET is. */
  readOnly?: boolean;
  /** Path without the query string. */
  path: string;
  host: string;
}

/** A response whose body was read (to its end, or to the size limit). */
export interface ResponseAttempt {
  kind: 'response';
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body was cut at the size limit (a 2xx: refused; an error status: summarized as is). */
  overLimit: boolean;
  /** Its content-encoding did not decode (the encoding and the decoder's words): `body` is what did. */
  undecodable?: string;
  bytes: number;
  ms: number;
}

/** No complete response: what failed, and whether the request may have reached the server. */
export interface TransportAttempt {
  kind: 'transport';
  error: unknown;
  code: string | undefined;
  failure: TransportFailure;
  sent: boolean;
  ms: number;
}

export type Attempt = ResponseAttempt | TransportAttempt;

/** Error bodies are only read this far: one line of them is shown. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** What the status and transport errors need from the client that made the request. */
export interface ErrorSettings {
  timeoutMs: number;
  idleTimeoutMs: number;
  /** Where the credential comes from, for 401/403 ("the token in STEWARD_OBS_TOKEN"). */
  credentialHint: string | undefined;
  /** The client's redactor. */
  clean: (text: string) => string;
}

/** The method as far as its effect goes: a read-only POST (dashboards/validate, "never persisted") is a GET. */
export function effectOf(ctx: { method: HttpMethod; readOnly?: boolean | undefined }): HttpMethod {
  return ctx.readOnly ? 'GET' : ctx.method;
}

export function outcomeNote(method: HttpMethod): string {
  return `; outcome unknown: the server may have applied this ${method}, check before sending it again`;
}

/** How a status becomes an error: the class, and what the message adds after the server's words. */
interface StatusRule {
  suffix?: (hint: string | undefined) => string;
  make: (message: string, init: ApiErrorInit, extra: { hint: string | undefined; retryAfterMs: number | undefined }) => ApiError;
}

/** The status → error table (any status not listed is a plain ApiError; 3xx are handled before it). */
const STATUS_RULES: ReadonlyMap<number, StatusRule> = new Map<number, StatusRule>([
  [
    401,
    {
      suffix: (hint) => `; the credential was refused: check ${hint ?? 'the credentials'}`,
      make: (m, init, x) => new UnauthorizedError(m, { ...init, hint: x.hint }),
    },
  ],
  [
    403,
    {
      suffix: (hint) => `; the credential is not allowed to do this: check ${hint ?? 'the credentials'} and its permissions`,
      make: (m, init, x) => new UnauthorizedError(m, { ...init, hint: x.hint }),
    },
  ],
  [404, { make: (m, init) => new NotFoundError(m, init) }],
  [409, { make: (m, init) => new ConflictError(m, init) }],
  [429, { make: (m, init, x) => new RateLimitedError(m, { ...init, retryAfterMs: x.retryAfterMs }) }],
]);

/**
 * The error body redacted. One read to its limit ends where the limit fell, maybe inside a credential the
 * server echoed: 64 KiB less a few bytes of spaces and then the token showed the token's first characters,
 * "(body cut at 64 KiB)" (red team). Its last CUT_TAIL characters are dropped (they were cut anyway, and no
 * credential is that long), so no start of one is left at the end.
 */
function cleanBody(s: ErrorSettings, r: ResponseAttempt): string {
  const text = r.body.toString('utf8');
  return s.clean(r.overLimit ? text.slice(0, Math.max(0, text.length - CUT_TAIL)) : text);
}

const CUT_TAIL = 1024;

/**
 * The error for a response that is not a success. `refusedWaitCap` is set when the server asked for a wait
 * above the retry cap (the message says so instead of "gave up").
 */
export function statusError(
  s: ErrorSettings,
  ctx: RequestContext,
  r: ResponseAttempt,
  attempts: number,
  hinted: ServerWait | undefined,
  refusedWaitCap: number | undefined,
  earlierMayHaveApplied = false,
): ApiError {
  // Redacted before it is summarized and each piece again once decoded, before it is cut: a summary cut at 200
  // characters would keep half a secret.
  const summary = summarizeErrorBody(cleanBody(s, r), headerValue(r.headers, 'content-type'), s.clean);
  let serverMessage = s.clean(summary.message);
  if (r.overLimit) serverMessage = `${serverMessage}${serverMessage ? ' ' : ''}(body cut at ${formatBytes(MAX_ERROR_BODY_BYTES)})`;
  const headerId = headerValue(r.headers, 'x-request-id') ?? headerValue(r.headers, 'request-id');
  const requestId = summary.requestId ?? (headerId === undefined ? undefined : oneLine(s.clean(headerId), true));
  const status = r.status;
  const outcomeUnknown = earlierMayHaveApplied || statusMayHaveApplied(effectOf(ctx), status);
  const init: ApiErrorInit = {
    ...ctx,
    status,
    serverMessage: serverMessage || undefined,
    requestId: requestId === undefined ? undefined : s.clean(requestId),
    attempts,
    outcomeUnknown,
  };
  let msg = `${ctx.method} ${ctx.path} → ${status}${r.statusText ? ` ${oneLine(s.clean(r.statusText), true)}` : ''}`;
  if (serverMessage) msg += `: ${serverMessage}`;
  if (init.requestId) msg += ` (request id ${init.requestId})`;
  if (status >= 300 && status < 400) {
    const location = headerValue(r.headers, 'location');
    // Redacted before it is cut, as the server's other words: a cut first can keep half a credential.
    msg += `; unexpected redirect${location ? ` to ${oneLine(s.clean(location), true)}` : ''}: check the API URL`;
    return new ApiError(msg, init);
  }
  if (refusedWaitCap !== undefined && hinted) {
    msg += ` (the server asks to wait ${Math.ceil(hinted.ms / 1000)} s, more than the ${Math.round(refusedWaitCap / 1000)} s retry cap)`;
  } else if (attempts > 1) {
    msg += ` (gave up after ${attempts} attempts)`;
  }
  if (outcomeUnknown) msg += outcomeNote(ctx.method);
  const rule = STATUS_RULES.get(status);
  if (!rule) return new ApiError(msg, init);
  return rule.make(msg + (rule.suffix?.(s.credentialHint) ?? ''), init, { hint: s.credentialHint, retryAfterMs: hinted?.ms });
}

/** The error for an attempt that got no complete response. */
export function transportError(s: ErrorSettings, ctx: RequestContext, r: TransportAttempt, attempts: number, signal: AbortSignal | undefined): ApiError {
  if (r.failure === 'aborted') return abortedError(ctx, attempts, r.sent, r.error, signal);
  const outcomeUnknown = mayHaveApplied(effectOf(ctx), r);
  const code = r.code ? ` (${r.code})` : '';
  // Redacted before it is cut to one line: cut first, a secret at the cut kept its first half (a TLS altname
  // or a proxy's reason can carry server text). Bounded first: what is past 64 KiB is never shown.
  const detail = oneLine(s.clean(errorMessage(r.error).slice(0, MAX_ERROR_BODY_BYTES)), true);
  let what: string;
  switch (r.failure) {
    case 'timeout':
      what = `no complete response within ${s.timeoutMs} ms (timeout)`;
      break;
    case 'stalled':
      what = `the connection stalled: nothing received for ${s.idleTimeoutMs} ms`;
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
    case 'protocol':
      what = `the server's answer is not valid HTTP/1.1 (${protocolDetail(s, r)})`;
      break;
    default:
      what = `${detail}${code && !detail.includes(r.code ?? '') ? code : ''}`;
  }
  let msg = `${ctx.method} ${ctx.path} on ${ctx.host}: ${what}`;
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

/**
 * What was wrong with an answer that is not valid HTTP/1.1: node:http's code and llhttp's reason
 * (`HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length`), redacted and cut as any words from outside.
 */
function protocolDetail(s: ErrorSettings, r: TransportAttempt): string {
  const reason = (r.error as { reason?: unknown }).reason;
  const text = oneLine(s.clean(String(reason).slice(0, MAX_REASON)), true);
  return r.code && /^HPE_[A-Z_]+$/.test(r.code) ? `${r.code}: ${text}` : text;
}

/** llhttp's reasons are a few words; past this a reason is not one. */
const MAX_REASON = 120;

/** Interrupted by the signal (Ctrl-C): exit code 130, or the one the abort reason carries. */
export function abortedError(ctx: RequestContext, attempts: number, sent: boolean, cause: unknown, signal: AbortSignal | undefined): ApiError {
  const reason: unknown = signal?.reason ?? cause;
  const exitCode = reason instanceof CliError ? reason.exitCode : 130;
  const outcomeUnknown = effectOf(ctx) !== 'GET' && sent;
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

/** A write answered with this status may have been applied: the caller must find out before sending it again. */
export function statusMayHaveApplied(method: HttpMethod, status: number): boolean {
  // A 5xx but 501 (not implemented: nothing was done); a 303, the server's way to point at what it made (post,
  // redirect, get); a 304 to a write, which no server should send but one that stored the body then sent it
  // has applied it. Other redirects (301, 302, 307, 308) say where to send the request, not that it was done.
  return method !== 'GET' && ((status >= 500 && status !== 501) || status === 303 || status === 304);
}

/** A write whose request may have reached the server: anything but a failure before connecting. */
export function mayHaveApplied(method: HttpMethod, r: { sent: boolean }): boolean {
  return method !== 'GET' && r.sent;
}

/** Transport failures worth another try (a wrong host name or a bad certificate does not heal). */
export function isRetryableTransport(r: { code: string | undefined; failure: TransportFailure }): boolean {
  // An answer that is not valid HTTP/1.1 is the server's (or a proxy's) way of answering: it comes again.
  if (r.failure === 'aborted' || r.failure === 'tls' || r.failure === 'protocol' || (r.failure === 'dns' && r.code !== 'EAI_AGAIN')) return false;
  if (r.failure === 'timeout' || r.failure === 'stalled' || r.failure === 'reset' || r.failure === 'refused') return true;
  return r.code !== undefined && RETRY_CODES.has(r.code);
}

const PRE_SEND_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN']);

/**
 * What kind of failure, and whether the request may have reached the server: only once it was put on a
 * connection (`connected`), and never when the failure itself says nothing left (refused, DNS, a connect
 * that timed out).
 */
export function classify(error: unknown, connected: boolean): { failure: TransportFailure; sent: boolean } {
  const { failure, reached } = kind(error);
  return { failure, sent: reached && connected };
}

function kind(error: unknown): { failure: TransportFailure; reached: boolean } {
  const code = codeOf(error);
  const name = error instanceof Error ? error.name : '';
  const event = (error as { event?: unknown } | null)?.event;
  if (name === 'AbortError' || code === 'ERR_ABORTED' || code === 'ABORT_ERR') return { failure: 'aborted', reached: true };
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') {
    if (event === 'lookup') return { failure: 'dns', reached: false };
    if (event === 'connect' || event === 'secureConnect') return { failure: 'timeout', reached: false };
    return { failure: event === 'socket' ? 'stalled' : 'timeout', reached: true };
  }
  if (name === 'HTTPParserError' || code?.startsWith('HPE_')) return { failure: 'protocol', reached: true };
  if (code === 'ECONNREFUSED') return { failure: 'refused', reached: false };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { failure: 'dns', reached: false };
  if (code !== undefined && PRE_SEND_CODES.has(code)) return { failure: 'other', reached: false };
  if (
    code !== undefined &&
    (code.startsWith('ERR_TLS') ||
      code.startsWith('ERR_SSL') ||
      code.includes('CERT') ||
      code === 'EPROTO' ||
      code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
      code === 'SELF_SIGNED_CERT_IN_CHAIN')
  ) {
    return { failure: 'tls', reached: true };
  }
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ECONNABORTED' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    /socket hang up|premature close|aborted/i.test(errorMessage(error))
  ) {
    return { failure: 'reset', reached: true };
  }
  return { failure: 'other', reached: true };
}

/** A failed attempt as a value, from the error attempt.ts reports and whether the request had a connection. */
export function transportAttempt(error: unknown, connected: boolean, ms: number): TransportAttempt {
  return { kind: 'transport', error, code: codeOf(error), ...classify(error, connected), ms };
}

export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const causeCode = ((error as { cause?: unknown } | null)?.cause as { code?: unknown } | undefined)?.code;
  return typeof causeCode === 'string' ? causeCode : undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function headerValue(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
