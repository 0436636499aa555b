/**
 * Errors thrown by the HTTP clients. Every one is a CliError (exit code 1) whose message is one line a
 * person can act on: method, path (never the query), status, and the server's own words.
 *
 *   PUT /api/v2/alerts/abc → 400 Bad Request: threshold must be a number
 *   GET /api/v2/dashboards: data[3].tiles[0].x: must be number
 *   POST /api/v2/dashboards on obs.example.com: connection reset (ECONNRESET); outcome unknown: …
 */
import { CliError, type ErrorCode } from '../errors.ts';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** What every API error carries. */
export interface ApiErrorInit {
  method: HttpMethod;
  /** Path of the request, URL-encoded, without query string. */
  path: string;
  /** Host (and port) of the server, for messages about where the request went. */
  host: string;
  /** HTTP status; undefined when no response arrived (transport errors). */
  status?: number | undefined;
  /** The server's message extracted from the error body (one line, tags stripped, truncated, redacted). */
  serverMessage?: string | undefined;
  /** Request id from the body (`requestId`) or an `x-request-id` header, when the server sent one. */
  requestId?: string | undefined;
  /**
   * The request may have been applied by the server although no success was seen (a write that timed out,
   * lost its connection, got a 5xx, or got a 2xx with an unreadable body). Always false for GET. A caller
   * must check live state before re-sending a POST that failed with this set.
   */
  outcomeUnknown?: boolean;
  /** How many tries were made (1 when not retried). */
  attempts?: number;
  /** Process exit code; 1 unless the request was interrupted (130). */
  exitCode?: number;
  cause?: unknown;
}

/** Base of every error a client throws. `instanceof ApiError` catches all of them. */
export class ApiError extends CliError {
  readonly method: HttpMethod;
  readonly path: string;
  readonly host: string;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  readonly requestId: string | undefined;
  readonly outcomeUnknown: boolean;
  readonly attempts: number;
  constructor(message: string, init: ApiErrorInit, code: ErrorCode = 'api') {
    super(message, { code, cause: init.cause, exitCode: init.exitCode ?? 1 });
    this.method = init.method;
    this.path = init.path;
    this.host = init.host;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.requestId = init.requestId;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.attempts = init.attempts ?? 1;
  }
}

/** 404: the id (or path) does not exist on the server. */
export class NotFoundError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super(message, init, 'api-not-found');
  }
}

/** 401 or 403: the credential is missing, wrong, or lacks permission. `hint` names where it comes from. */
export class UnauthorizedError extends ApiError {
  readonly hint: string | undefined;
  constructor(message: string, init: ApiErrorInit & { hint?: string | undefined }) {
    super(message, init, 'api-unauthorized');
    this.hint = init.hint;
  }
}

/** 409: the server refuses because of the current state of the resource. */
export class ConflictError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super(message, init, 'api-conflict');
  }
}

/** 429 that was not (or no longer) retried. `retryAfterMs` is what the server asked for, when it said. */
export class RateLimitedError extends ApiError {
  readonly retryAfterMs: number | undefined;
  constructor(message: string, init: ApiErrorInit & { retryAfterMs?: number | undefined }) {
    super(message, init, 'api');
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** One problem in a response body: a field path like `data[3].tiles[0].x` and what is wrong with it. */
export interface ResponseProblem {
  field: string;
  message: string;
}

/**
 * A response that cannot be used: not JSON, the wrong shape for its schema, or larger than the size limit.
 * `field` is the first problem's path (`data[3].tiles[0].x`), `problems` all of them (capped).
 */
export class ApiResponseError extends ApiError {
  readonly field: string | undefined;
  readonly problems: ResponseProblem[];
  constructor(message: string, init: ApiErrorInit & { problems?: ResponseProblem[] }) {
    super(message, init, 'api-response');
    this.problems = init.problems ?? [];
    this.field = this.problems[0]?.field;
  }
}

/** Why no usable response arrived. */
export type TransportFailure =
  | 'timeout' // whole-request deadline passed
  | 'stalled' // no bytes for the idle timeout
  | 'reset' // connection reset / closed mid-request
  | 'refused' // nothing listening
  | 'dns' // host name did not resolve
  | 'tls' // certificate or handshake problem
  | 'protocol' // the answer is not valid HTTP/1.1 (HPE_* code, llhttp's reason)
  | 'aborted' // the caller's signal fired (Ctrl-C)
  | 'other';

/** No (complete) response: timeout, stall, reset, DNS, refused, TLS, not HTTP/1.1, interrupted. */
export class ApiTransportError extends ApiError {
  readonly failure: TransportFailure;
  /** The underlying error code (ECONNRESET, ETIMEDOUT, ENOTFOUND, HPE_INVALID_STATUS…), when there was one. */
  readonly transportCode: string | undefined;
  constructor(message: string, init: ApiErrorInit & { failure: TransportFailure; transportCode?: string | undefined }) {
    super(message, init, 'api');
    this.failure = init.failure;
    this.transportCode = init.transportCode;
  }
}

/**
 * A list the server may not have: HyperDX before 2026-08 has no /sources or /webhooks (404), and import only
 * reads them to write names for ids, so without them the ids stay (plan reads those lists only when a file
 * names a source or webhook).
 */
export async function emptyIfMissing<T>(list: Promise<T[]>): Promise<T[]> {
  try {
    return await list;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return [];
    throw e;
  }
}
