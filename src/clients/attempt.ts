/**
 * One attempt on the wire: the request sent on the client's connections (connections.ts), its response read within
 * the size limits as it arrives (decompressed first: the limits count what steward would hold), the
 * whole-request deadline and the caller's signal. It settles once: with the response read (to its end, or
 * cut at its limit) or with what failed and whether the request reached a connection.
 *
 * Why a sink told of each step rather than a response stream: it sees every chunk as it arrives, so reading
 * stops the moment a limit passes (and the socket is let go) instead of after a stream has buffered ahead;
 * it gets the server's reason phrase; and it knows when the request was put on a connection
 * (`onRequestStart`), which is what tells a write that may have been applied from one that never left.
 * Both timeouts are this module's one timer: the deadline of the whole attempt, and the idle (stall)
 * timeout, counted from the last sign of life (sending, the connection, the headers, each chunk).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import type { Connections, RequestControl, ResponseSink, SendOptions } from './connections.ts';
import { MAX_ERROR_BODY_BYTES } from './transport-errors.ts';
import type { ReadResponse } from './response.ts';

/** How one attempt ended: its response read, or what failed (and whether it had a connection then). */
export type AttemptOutcome = ReadResponse | { kind: 'failed'; error: unknown; connected: boolean };

export interface AttemptLimits {
  /** Largest success body accepted, decompressed. */
  maxBytes: number;
  /** Deadline of the whole attempt, from sending to the last body byte. */
  timeoutMs: number;
  /** Longest silence: while connecting, before the headers, between chunks. */
  idleTimeoutMs: number;
  signal: AbortSignal | undefined;
}

/** The encodings offered (what a response may be decompressed from); zstd where this Node has it. */
const ZSTD = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function';
export const ACCEPT_ENCODING = ZSTD ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br';

/** Sends one request on `connections` and reads its answer within `limits`. Never rejects. */
export function sendAttempt(connections: Connections, options: SendOptions, limits: AttemptLimits): Promise<AttemptOutcome> {
  return new Promise((resolve) => new AttemptHandler(resolve, limits).start(connections, options));
}

/** A TimeoutError as got made them (code ETIMEDOUT, the phase in `event`), so transport-errors tells them apart. */
export function timeoutError(event: 'request' | 'socket', ms: number, cause?: unknown): Error {
  return Object.assign(new Error(`Timeout awaiting '${event}' for ${ms}ms`), { name: 'TimeoutError', code: 'ETIMEDOUT', event, cause });
}

/** The failure of an attempt the signal (Ctrl-C) ended. */
export function abortError(reason: unknown): Error {
  return Object.assign(new Error('This operation was aborted'), { name: 'AbortError', code: 'ERR_ABORTED', cause: reason });
}

/** The decompressor for a response's content-encoding (those got decoded), or undefined to read it as is. */
function decoderFor(encoding: string, first: Buffer): Transform | undefined {
  switch (encoding) {
    case 'gzip':
      return zlib.createUnzip();
    case 'deflate':
      // Servers send raw deflate under this name as well as zlib-wrapped deflate (RFC 9110's meaning).
      return zlibHeader(first) ? zlib.createInflate() : zlib.createInflateRaw();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      return ZSTD ? (zlib as unknown as { createZstdDecompress(): Transform }).createZstdDecompress() : undefined;
    default:
      return undefined;
  }
}

/** Chunks below this size are copied together into blocks of BLOCK_BYTES (AttemptHandler.keep). */
const SMALL_CHUNK = 4096;
const BLOCK_BYTES = 16 * 1024;

/** Whether a deflate body starts with a zlib header (RFC 1950: method 8, and the two bytes a multiple of 31). */
function zlibHeader(b: Buffer): boolean {
  if (b.length === 0 || (b[0]! & 0x0f) !== 8) return false;
  return b.length === 1 || ((b[0]! << 8) | b[1]!) % 31 === 0;
}

class AttemptHandler implements ResponseSink {
  private controller: RequestControl | undefined;
  /** The request was put on a connection (from then on a write may reach the server). */
  private connected = false;
  private done = false;
  private failure: Error | undefined;
  private status = 0;
  private statusText = '';
  private headers: IncomingHttpHeaders = {};
  private limit = 0;
  private readonly chunks: Buffer[] = [];
  /** Where small chunks are copied together (see `keep`), and how much of it is used. */
  private block: Buffer | undefined;
  private blockUsed = 0;
  private size = 0;
  /** The response's content-encoding when it is one to decode; its decoder once the first bytes arrive. */
  private encoding = '';
  private decoder: Transform | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** performance.now() of the deadline, and of the last sign of life. */
  private deadline = 0;
  private lastSeen = 0;
  private readonly onAbort = () => this.fail(abortError(this.limits.signal?.reason));

  constructor(
    private readonly resolve: (o: AttemptOutcome) => void,
    private readonly limits: AttemptLimits,
  ) {}

  start(connections: Connections, options: SendOptions): void {
    const { signal } = this.limits;
    if (signal?.aborted) return this.fail(abortError(signal.reason));
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.lastSeen = performance.now();
    this.deadline = this.lastSeen + this.limits.timeoutMs;
    this.arm(Math.min(this.limits.timeoutMs, this.limits.idleTimeoutMs));
    try {
      this.controller = connections.send(options, this);
    } catch (error) {
      this.fail(error as Error);
    }
  }

  onRequestStart(controller: RequestControl): void {
    // Ended (deadline, Ctrl-C) while it waited for a connection (and the abort did not reach it): it goes no further.
    if (this.done) return controller.abort(this.failure ?? abortError(undefined));
    this.connected = true;
    this.lastSeen = performance.now();
  }

  /**
   * One timer for both timeouts: it fires at the earlier of the deadline and the idle limit as it stood
   * when armed; signs of life since only move `lastSeen`, and the timer is armed again for what is left.
   */
  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      if (this.done) return;
      const now = performance.now();
      if (now >= this.deadline) return this.fail(timeoutError('request', this.limits.timeoutMs));
      const idleEnd = this.lastSeen + this.limits.idleTimeoutMs;
      if (now >= idleEnd) return this.fail(timeoutError('socket', this.limits.idleTimeoutMs));
      this.arm(Math.min(this.deadline, idleEnd) - now);
    }, ms);
  }

  onResponseStart(_controller: RequestControl, statusCode: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    if (this.done) return;
    this.lastSeen = performance.now();
    if (statusCode < 200) return;
    this.status = statusCode;
    this.statusText = statusMessage || STATUS_CODES[statusCode] || '';
    // Anything but a success (a redirect too) is an error, and its body is only read for one line of message.
    this.limit = statusCode >= 300 ? MAX_ERROR_BODY_BYTES : this.limits.maxBytes;
    const encoding = String(headers['content-encoding'] ?? '')
      .trim()
      .toLowerCase();
    if (statusCode !== 204 && statusCode !== 304 && (encoding === 'gzip' || encoding === 'deflate' || encoding === 'br' || (ZSTD && encoding === 'zstd'))) {
      // The headers the caller sees describe the body it gets: decoded, of a length not known yet.
      const { 'content-encoding': _e, 'content-length': _l, ...rest } = headers;
      this.encoding = encoding;
      this.headers = rest;
      return;
    }
    this.headers = headers;
    // A success declared larger than the limit is refused before a byte of it is read.
    const declared = Number(headers['content-length']);
    if (statusCode < 300 && Number.isFinite(declared) && declared > this.limit) {
      this.size = declared;
      this.finish(true);
    }
  }

  onResponseData(controller: RequestControl, chunk: Buffer): void {
    if (this.done) return;
    this.lastSeen = performance.now();
    if (this.encoding === '') return this.take(chunk);
    const decoder = (this.decoder ??= this.decode(chunk));
    if (!decoder.write(chunk)) {
      // The decoder is behind: the socket waits for it (a slow consumer never buffers a whole body).
      controller.pause();
      decoder.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    if (this.done) return;
    // An encoded response with no bytes at all is an empty body, as got read it.
    if (this.decoder) this.decoder.end();
    else this.finish(false);
  }

  onResponseError(_controller: RequestControl, error: Error): void {
    this.fail(error);
  }

  private decode(first: Buffer): Transform {
    const decoder = decoderFor(this.encoding, first)!;
    decoder.on('data', (chunk: Buffer) => this.take(chunk));
    decoder.on('end', () => this.finish(false));
    decoder.on('error', (error: Error) => {
      // An error body is only read for its message: one that does not decode (corrupt, cut, mislabelled)
      // still leaves its status, which says what happened (a 409 was not applied, a 429 asks to wait). What
      // decoded is kept; the rest is not read (the connection is closed).
      // A success that does not decode is an unreadable answer (ApiResponseError, with its status), as
      // one that is not JSON: for a write, applied though its answer is lost.
      this.finish(false, `${this.encoding}: ${error.message}`);
    });
    return decoder;
  }

  /** Keeps a chunk of the (decoded) body, or ends the read as the limit passes. */
  private take(chunk: Buffer): void {
    if (this.done) return;
    this.size += chunk.length;
    if (this.size > this.limit) {
      const room = this.limit - (this.size - chunk.length);
      if (room > 0) this.keep(chunk.subarray(0, room));
      this.finish(true);
      return;
    }
    this.keep(chunk);
  }

  /**
   * Holds a chunk. A small one after the first is copied into a block shared with its neighbours: a body
   * sent in 1-byte chunks (chunked encoding, or a trickle) would otherwise hold one Buffer view per byte,
   * each pinning the socket read it came in, ~120 bytes of memory per byte of body (16 MiB took 2 GB), so
   * the size limit did not bound memory. Large chunks are kept as they are (no copy).
   */
  private keep(chunk: Buffer): void {
    if (chunk.length >= SMALL_CHUNK || (this.chunks.length === 0 && !this.block)) {
      this.flushBlock();
      this.chunks.push(chunk);
      return;
    }
    if (this.block && this.blockUsed + chunk.length > this.block.length) this.flushBlock();
    this.block ??= Buffer.allocUnsafe(BLOCK_BYTES);
    this.blockUsed += chunk.copy(this.block, this.blockUsed);
  }

  private flushBlock(): void {
    if (this.block && this.blockUsed > 0) this.chunks.push(this.block.subarray(0, this.blockUsed));
    this.block = undefined;
    this.blockUsed = 0;
  }

  private finish(overLimit: boolean, undecodable?: string): void {
    if (this.done) return;
    this.settle();
    // Cut at the limit (or undecodable): the rest is not read (the connection is closed, the decoder stopped).
    if (overLimit || undecodable !== undefined) this.stop(new Error(overLimit ? 'response body over the size limit' : 'response body not decodable'));
    const status = this.status;
    this.flushBlock();
    const chunks = this.chunks.splice(0);
    this.resolve({
      kind: 'response',
      status,
      statusText: this.statusText,
      headers: this.headers,
      // A success over the limit is refused unread: copying what arrived would double the memory held, and
      // what arrived is let go at once (splice emptied the list).
      body: overLimit && status < 300 ? Buffer.alloc(0) : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
      overLimit,
      ...(undecodable === undefined ? {} : { undecodable }),
      bytes: this.size,
    });
  }

  private fail(error: Error): void {
    if (this.done) return;
    this.failure = error;
    this.settle();
    this.stop(error);
    this.chunks.length = 0;
    this.block = undefined;
    this.resolve({ kind: 'failed', error, connected: this.connected });
  }

  private settle(): void {
    this.done = true;
    clearTimeout(this.timer);
    this.limits.signal?.removeEventListener('abort', this.onAbort);
  }

  private stop(reason: Error): void {
    this.decoder?.destroy();
    // A request still waiting for a socket or connecting is ended too: nothing of it is sent, no connect lingers.
    if (this.controller && !this.controller.aborted) this.controller.abort(reason);
  }
}
