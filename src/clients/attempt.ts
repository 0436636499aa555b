/**
 * One try of a request on the wire: got sends it (its own retry off), the body is read up to its limit, and
 * whatever happens comes back as a value, never thrown: a response (status, headers, the body or as much of
 * it as the limit allows) or a transport failure, classified by whether the request may have reached the
 * server. http.ts decides what to do with it; retry.ts says what is retried.
 */
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { Got, Request as GotRequest, Response as GotResponse } from 'got';
import type { HttpMethod, TransportFailure } from './errors.ts';
import { RETRY_CODES } from './retry.ts';

/** Error bodies are only read this far: one line of them is shown. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** What one attempt produced when a response arrived. */
export interface ResponseAttempt {
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

/** What one attempt produced when no complete response arrived. */
export interface TransportAttempt {
  kind: 'transport';
  error: unknown;
  code: string | undefined;
  failure: TransportFailure;
  sent: boolean;
  ms: number;
}

export type Attempt = ResponseAttempt | TransportAttempt;

/** One try: send, read the body up to `maxBytes` (an error status's to MAX_ERROR_BODY_BYTES), never throw. */
export function sendOnce(client: Got, maxBytes: number, method: HttpMethod, url: string, json: unknown, signal: AbortSignal | undefined): Promise<Attempt> {
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

/** A write whose request may have reached the server: anything but a failure before connecting. */
export function mayHaveApplied(method: HttpMethod, r: { sent: boolean }): boolean {
  return method !== 'GET' && r.sent;
}

export function isRetryableTransport(r: { code: string | undefined; failure: TransportFailure }): boolean {
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

export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const causeCode = ((error as { cause?: unknown } | null)?.cause as { code?: unknown } | undefined)?.code;
  return typeof causeCode === 'string' ? causeCode : undefined;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
