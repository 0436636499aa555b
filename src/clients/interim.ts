/**
 * `100 Continue` answers nobody asked for, taken out of a connection's incoming bytes before undici reads them.
 *
 * RFC 9110 (15.2): a client must read and skip 1xx answers before the real one, even ones it did not expect,
 * and some servers and proxies send `100 Continue` to every request with a body (steward never sends `Expect:
 * 100-continue`). undici skips 102 and 103 but closes the connection on a 100 ("bad response"), which steward
 * read as a reset: every request against such a server failed after its retries, each create waited out its
 * settle window, and each update ended "outcome unknown" (the server had applied it).
 *
 * `InterimFilter` follows the framing of the answers on one connection (a head up to its blank line, then a
 * Content-Length body or chunks and trailers) so that it knows where each head starts, and drops the heads of
 * 100 answers. Every other byte is passed on as it comes: only a status line that may be a 100's (it starts as
 * `HTTP/1.1 100` does) is held until its end. What it cannot frame (a line over 16 KiB, a status line that is not HTTP/1.x, a 101, an answer read to
 * the connection's end, a chunk line it cannot read) it passes on untouched from then on, so undici reads it
 * as it would have. steward sends no HEAD request (whose answer has no body whatever its headers say).
 *
 * As it reads each head it also notes the first fault llhttp (undici's parser) refuses in it (`fault`):
 * undici reports one found after a Content-Length field as a body length mismatch, the error of a body cut
 * short, and `nameFaults` gives that error the fault's name (parse-errors.ts). The bytes are passed on as they are.
 */
import type { Readable } from 'node:stream';
import { pushAll } from '../shared/arrays.ts';
import { parseError } from './parse-errors.ts';

/** The longest status, field, chunk-size or trailer line read; past it the bytes go on untouched. */
const MAX_LINE = 16 * 1024;
const LF = 0x0a;
/** A field name (RFC 9110 5.6.2 token), and the largest Content-Length llhttp reads. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_U64 = 2n ** 64n - 1n;
const CR = 0x0d;

/**
 * Where the next bytes are: a status line (held while it may be a 100's), the rest of a 100 head (dropped), the fields of
 * any other head, a body, chunked framing (a chunk's size line, its data, the line end after it, the
 * trailers), or past what is framed here (raw).
 */
type State = 'status' | 'drop' | 'fields' | 'body' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'raw';

export class InterimFilter {
  private state: State = 'status';
  /** The status line read so far, held while it may be a 100's; undefined once it cannot be (it went on). */
  private held: Buffer[] | undefined = [];
  /** The status or field line read so far, as text. */
  private line = '';
  /** Bytes of the current framing line other than CR (a blank line has none). */
  private lineBytes = 0;
  /** The status of the head whose fields are read, and what they said of its body. */
  private status = 0;
  private length: string | undefined;
  private codings = '';
  /** Bytes left of a body or of a chunk; the size read so far, and whether an extension (after `;`) is. */
  private left = 0;
  private inExtension = false;
  /** How many fields of the current head were read. */
  private fields = 0;
  /** How many 100 answers were dropped. */
  dropped = 0;
  /**
   * The first fault seen in a head that undici refuses (llhttp's reason, `Duplicate Content-Length`): undici
   * reports one found after a Content-Length field as a body length mismatch, a dropped connection to steward.
   */
  fault: string | undefined;

  /**
   * The bytes of `chunk` to pass on, in order; a status line not yet whole that may be a 100's is held. Bytes passed on
   * are views of `chunk` (the chunk itself unless a head is held or dropped): nothing is copied per line.
   */
  push(chunk: Buffer): Buffer {
    // The common case, a piece of a body (or past what is framed): the chunk itself.
    if (this.state === 'raw') return chunk;
    if ((this.state === 'body' || this.state === 'chunk-data') && chunk.length < this.left) {
      this.left -= chunk.length;
      return chunk;
    }
    const out: Buffer[] = [];
    /** The start of the bytes to pass on not yet in `out`. */
    let from = 0;
    let i = 0;
    while (i < chunk.length && this.state !== 'raw') {
      const state: State = this.state;
      if (state === 'body' || state === 'chunk-data') {
        const n = Math.min(this.left, chunk.length - i);
        i += n;
        this.left -= n;
        if (this.left === 0) this.state = state === 'body' ? 'status' : 'chunk-end';
      } else if (state === 'chunk-size' || state === 'chunk-end' || state === 'trailers') {
        i = this.framing(chunk, i);
      } else {
        // A line of a head: up to its LF, or all that is left while it goes on.
        const lf = chunk.indexOf(LF, i);
        const end = lf < 0 ? chunk.length : lf + 1;
        const holding = state === 'status' && this.held !== undefined;
        if (holding || state === 'drop') {
          if (i > from) out.push(chunk.subarray(from, i));
          if (holding) this.held!.push(chunk.subarray(i, end));
          from = end;
        }
        if (this.line.length < MAX_LINE) this.line += chunk.toString('latin1', i, end);
        i = end;
        // Held only while it may still be a 100's: the start of another answer goes on as it comes, so undici
        // sees it when it comes (an answer nobody asked for, read as the next request's if it were held).
        if (holding && !mayBeContinue(this.line)) pushAll(out, this.releaseHeld());
        if (lf >= 0) {
          // How the line ended: CRLF, a bare LF, or unknown (cut at MAX_LINE, its end not kept).
          const end = this.line.endsWith('\r\n') ? 'crlf' : this.line.endsWith('\n') ? 'lf' : 'cut';
          const line = this.line.replace(/\r?\n$/, '');
          this.line = '';
          this.held ??= [];
          this.head(line, end);
          // A held status line that is not a 100's goes on here, before the rest of `chunk`.
          if (this.held.length > 0 && this.state !== 'drop') pushAll(out, this.held.splice(0));
        } else if (this.line.length >= MAX_LINE && state !== 'drop') {
          pushAll(out, this.releaseHeld());
          this.state = 'raw';
        }
      }
    }
    if (from < chunk.length) out.push(from === 0 ? chunk : chunk.subarray(from));
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  /** The status line held so far, to pass on: the rest of the line goes on as it comes. */
  private releaseHeld(): Buffer[] {
    const held = this.held ?? [];
    this.held = undefined;
    return held;
  }

  /** One whole line of a head read: its status line, a field, or the blank line that ends it. */
  private head(line: string, end: 'crlf' | 'lf' | 'cut'): void {
    switch (this.state) {
      case 'status': {
        const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(line);
        const code = status ? Number(status[1]) : 0;
        if (code === 100) {
          this.dropped++;
          this.held = [];
          this.state = 'drop';
        } else if (code === 0 || code === 101) this.state = 'raw';
        else {
          this.status = code;
          this.length = undefined;
          this.codings = '';
          this.fields = 0;
          this.state = 'fields';
        }
        return;
      }
      case 'drop':
        if (line === '') this.state = 'status';
        return;
      default:
        if (end === 'lf') this.note(line === '' ? 'Invalid header field char' : 'Missing expected CR after header value');
        if (line === '') this.headEnd();
        else this.field(line, end !== 'cut');
    }
  }

  /** Keeps the first fault of the connection's answers (undici reads no further than it). */
  private note(reason: string): void {
    this.fault ??= reason;
  }

  /**
   * Reads chunked framing from `chunk[i]` on, byte by byte (the lines are short; a body sent in 1-byte chunks
   * makes three of them per byte): a chunk's size, the line end after its data, the trailers. Returns where it
   * stopped: at the end of a line, or of `chunk`.
   */
  private framing(chunk: Buffer, i: number): number {
    for (; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === LF) {
        this.lineEnd();
        return i + 1;
      }
      if (b === CR) continue;
      if (++this.lineBytes > MAX_LINE) {
        this.state = 'raw';
        return i + 1;
      }
      if (this.state !== 'chunk-size' || this.inExtension) continue;
      const digit = hexDigit(b);
      if (digit >= 0 && this.lineBytes <= 12) this.left = this.left * 16 + digit;
      else if ((b === 0x3b || b === 0x20 || b === 0x09) && this.lineBytes > 1) this.inExtension = true;
      else {
        this.state = 'raw';
        return i + 1;
      }
    }
    return i;
  }

  /** The end of a line of chunked framing. */
  private lineEnd(): void {
    const blank = this.lineBytes === 0;
    this.lineBytes = 0;
    this.inExtension = false;
    if (this.state === 'chunk-end') this.state = blank ? 'chunk-size' : 'raw';
    else if (this.state === 'trailers') {
      if (blank) this.state = 'status';
    } else if (blank) this.state = 'raw';
    else this.state = this.left === 0 ? 'trailers' : 'chunk-data';
  }

  private field(line: string, whole: boolean): void {
    if (whole) this.checkField(line, this.fields === 0);
    this.fields++;
    const colon = line.indexOf(':');
    if (colon < 0) return;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'transfer-encoding') this.codings += `,${value}`;
    // Two different lengths: not framed here (undici refuses it).
    else if (name === 'content-length') this.length = this.length === undefined || this.length === value ? value : 'conflict';
  }

  /**
   * Notes what llhttp (undici's parser, strict) refuses in a field line, in llhttp's words; only faults it
   * always refuses, so that a fault noted is where undici stops reading the connection. `length` and
   * `codings` are what the fields before this one said.
   */
  private checkField(line: string, first: boolean): void {
    if (line === '\r') return this.note('Expected LF after headers');
    if (line[0] === ' ' || line[0] === '\t') return this.note(first ? 'Unexpected space after start line' : 'Unexpected whitespace after header value');
    const colon = line.indexOf(':');
    if (colon < 1 || !TOKEN.test(line.slice(0, colon))) return this.note('Invalid header token');
    const value = line.slice(colon + 1);
    const bad = /[\x00-\x08\x0a-\x1f\x7f]/.exec(value);
    if (bad) return this.note(bad[0] === '\r' ? 'Missing expected LF after header value' : 'Invalid header value char');
    const name = line.slice(0, colon).toLowerCase();
    if (name === 'transfer-encoding' && this.length !== undefined) return this.note("Transfer-Encoding can't be present with Content-Length");
    if (name !== 'content-length') return;
    if (this.length !== undefined) return this.note('Duplicate Content-Length');
    if (this.codings !== '') return this.note("Content-Length can't be present with Transfer-Encoding");
    const digits = /^[ \t]*(\d*) *$/.exec(value);
    if (!digits) this.note('Invalid character in Content-Length');
    else if (digits[1] === '') this.note('Empty Content-Length');
    else if (BigInt(digits[1]!) > MAX_U64) this.note('Content-Length overflow');
  }

  /** A head other than a 100's is over: what its fields say of its body. */
  private headEnd(): void {
    const code = this.status;
    this.left = 0;
    // undici refuses a 204 whose Content-Length says a body (RFC 9110 8.6: a 204 has none, nor a length).
    if (code === 204 && /^\d+$/.test(this.length ?? '') && Number(this.length) > 0) this.note('Content-Length on a 204 answer');
    if (code < 200 || code === 204 || code === 304) this.state = 'status';
    else if (this.codings !== '') this.state = /(?:^|,)\s*chunked\s*$/i.test(this.codings) ? 'chunk-size' : 'raw';
    else if (this.length === undefined || !/^\d{1,15}$/.test(this.length)) this.state = 'raw';
    else {
      this.left = Number(this.length);
      this.state = this.left > 0 ? 'body' : 'status';
    }
  }
}

/** Whether a status line read so far (maybe not whole) may be a 100's: it starts as `HTTP/1.1 100 ` does. */
function mayBeContinue(line: string): boolean {
  const start = line.slice(0, 12);
  return ('HTTP/1.1 100'.startsWith(start) || 'HTTP/1.0 100'.startsWith(start)) && (line.length === start.length || ' \r\n'.includes(line[12]!));
}

function hexDigit(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  return -1;
}

/**
 * Puts a connection's incoming bytes through an InterimFilter, as undici reads them (`read()`). Bytes undici
 * gives back with `unshift` (a paused response) were filtered already: they are passed on untouched when read
 * again.
 */
export function skipInterimContinue(socket: Readable): InterimFilter {
  const filter = new InterimFilter();
  const read = socket.read.bind(socket);
  const unshift = socket.unshift.bind(socket);
  let again = 0;
  socket.unshift = (chunk: Buffer | string | Uint8Array, encoding?: BufferEncoding) => {
    again += typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding) : chunk.length;
    unshift(chunk, encoding);
  };
  socket.read = (size?: number): Buffer | null => {
    for (;;) {
      const chunk = read(size) as Buffer | null;
      if (chunk === null) return null;
      if (again > 0) {
        const n = Math.min(again, chunk.length);
        again -= n;
        if (n === chunk.length) return chunk;
        const out = Buffer.concat([chunk.subarray(0, n), filter.push(chunk.subarray(n))]);
        return out;
      }
      const out = filter.push(chunk);
      if (out.length > 0) return out;
    }
  };
  return filter;
}

/**
 * Names the fault `filter` saw when undici ends the connection with a body length mismatch: the one it reports
 * for a fault llhttp found after a Content-Length field (a second one, Transfer-Encoding with it, a bad
 * character in a later field), which read as a dropped connection. A mismatch with no fault seen (the server
 * closed the connection before the body was whole) is left as it is.
 */
export function nameFaults(socket: Readable, filter: InterimFilter): void {
  const destroy = socket.destroy.bind(socket);
  socket.destroy = (error?: Error) => {
    const mismatch = (error as { code?: unknown } | undefined)?.code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH';
    return destroy(mismatch && filter.fault !== undefined ? parseError(filter.fault, error!) : error);
  };
}
