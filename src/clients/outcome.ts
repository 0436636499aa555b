/**
 * What a finished request becomes: the parsed, checked body of a success, or one ApiError whose message is
 * one line saying what happened (the status and the server's words, a transport failure, an interruption),
 * whether a write may have been applied anyway, and what to check. Everything shown is redacted.
 */
import type { IncomingHttpHeaders } from 'node:http';
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
} from './errors.ts';
import { summarizeErrorBody, oneLine } from './error-body.ts';
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from './depth.ts';
import { codeOf, errorMessage, mayHaveApplied, MAX_ERROR_BODY_BYTES, type ResponseAttempt, type TransportAttempt } from './attempt.ts';
import type { ServerWait } from './retry.ts';

/** A client's settings the messages need, resolved once by createHttp. */
export interface OutcomeSettings {
  /** Redacts the client's credentials and configured secrets. */
  clean: (text: string) => string;
  maxBytes: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  /** Where the credential comes from, for 401/403 messages: "the token in STEWARD_OBS_TOKEN". */
  credentialHint: string | undefined;
}

/** Checks and narrows a parsed success body; the problems found become an ApiResponseError. */
export type Validate = (body: unknown) => ResponseProblem[] | undefined;

export type Ctx = { method: HttpMethod; path: string; host: string };

export function outcomeNote(method: HttpMethod): string {
  return `; outcome unknown: the server may have applied this ${method}, check before sending it again`;
}

export function abortedError(ctx: Ctx, attempts: number, sent: boolean, cause: unknown, signal: AbortSignal | undefined): ApiError {
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

/** A 2xx body: parsed (empty is undefined), bounded in depth, checked by `validate`. */
export function parseSuccess(s: OutcomeSettings, ctx: Ctx, r: ResponseAttempt, attempt: number, validate: Validate | undefined): unknown {
  const { clean, maxBytes } = s;
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

/** What a status says beyond its number: the error class, and what to check (from the credential's hint). */
interface StatusRule {
  advice?: (hint: string) => string;
  error: (message: string, init: ApiErrorInit, extra: { hint: string | undefined; retryAfterMs: number | undefined }) => ApiError;
}

/** One row per status steward tells apart; any other status is a plain ApiError. */
const STATUS_RULES: Readonly<Record<number, StatusRule>> = {
  401: { advice: (hint) => `; the credential was refused: check ${hint}`, error: (m, init, x) => new UnauthorizedError(m, { ...init, hint: x.hint }) },
  403: {
    advice: (hint) => `; the credential is not allowed to do this: check ${hint} and its permissions`,
    error: (m, init, x) => new UnauthorizedError(m, { ...init, hint: x.hint }),
  },
  404: { error: (m, init) => new NotFoundError(m, init) },
  409: { error: (m, init) => new ConflictError(m, init) },
  429: { error: (m, init, x) => new RateLimitedError(m, { ...init, retryAfterMs: x.retryAfterMs }) },
};

/**
 * An error status (or an unexpected redirect) as one line: `GET /path → 503 Service Unavailable: <the
 * server's words> (request id …)`, then why steward stopped (gave up after N tries, a wait over the cap),
 * whether a write may have been applied, and what to check.
 */
export function statusError(
  s: OutcomeSettings,
  ctx: Ctx,
  r: ResponseAttempt,
  attempts: number,
  headerRequestId: string | undefined,
  hinted: ServerWait | undefined,
  refusedWaitCap: number | undefined,
): ApiError {
  const { clean } = s;
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
  const rule = STATUS_RULES[status];
  if (!rule) return new ApiError(msg, init);
  if (rule.advice) msg += rule.advice(s.credentialHint ?? 'the credentials');
  return rule.error(msg, init, { hint: s.credentialHint, retryAfterMs: hinted?.ms });
}

/** No complete response: what failed on the wire, in words, and whether a write may have been applied. */
export function transportError(s: OutcomeSettings, ctx: Ctx, r: TransportAttempt, attempts: number, signal: AbortSignal | undefined): ApiError {
  const { clean, timeoutMs, idleTimeoutMs } = s;
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

export function headerValue(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
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
export function traceBody(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return flat.length > TRACE_BODY_LIMIT ? `${flat.slice(0, TRACE_BODY_LIMIT)}… (${flat.length - TRACE_BODY_LIMIT} more characters)` : flat;
}
