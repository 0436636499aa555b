/**
 * An answer that is not valid HTTP/1.1, in Node's terms: the error node:http throws for it (`code` HPE_*, the
 * parser's `reason`), made from what undici reports, so that transport-errors.ts says what was wrong instead
 * of "the connection was closed".
 *
 * undici 7 parses with llhttp too but names the fault badly: its HTTPParserError has no code (it looks the
 * code up by number in a map keyed by name), only a message with llhttp's reason; headers over the limit are
 * UND_ERR_HEADERS_OVERFLOW; and a fault found after a Content-Length field (a second one, Transfer-Encoding
 * with it, a bad character in a later field) is reported as a body length mismatch, which steward read as a
 * dropped connection. interim.ts names those from the bytes it reads. `data` (the answer's bytes from the
 * fault on, which may quote a credential) is never kept.
 */
import { maxHeaderSize } from 'node:http';
import { formatBytes } from './transport-errors.ts';

/**
 * llhttp's reasons for a response it refuses and the code node:http gives each (Node 20, llhttp 9.3, the
 * llhttp of undici 7.30), so a fault undici reports reads as it would from node:http. A reason not listed
 * keeps no code.
 */
const CODES: ReadonlyMap<string, string> = new Map([
  ['Invalid status code', 'HPE_INVALID_STATUS'],
  ['Invalid response status', 'HPE_INVALID_STATUS'],
  ['Expected HTTP/, RTSP/ or ICE/', 'HPE_INVALID_CONSTANT'],
  ['Expected dot', 'HPE_INVALID_VERSION'],
  ['Invalid major version', 'HPE_INVALID_VERSION'],
  ['Invalid minor version', 'HPE_INVALID_VERSION'],
  ['Expected space after version', 'HPE_INVALID_VERSION'],
  ['Invalid HTTP version', 'HPE_INVALID_VERSION'],
  ['Missing expected CR after response line', 'HPE_CR_EXPECTED'],
  ['Expected LF after CR', 'HPE_STRICT'],
  ['Unexpected space after start line', 'HPE_UNEXPECTED_SPACE'],
  ['Invalid header token', 'HPE_INVALID_HEADER_TOKEN'],
  ['Invalid header field char', 'HPE_INVALID_HEADER_TOKEN'],
  ['Invalid header value char', 'HPE_INVALID_HEADER_TOKEN'],
  ['Unexpected whitespace after header value', 'HPE_INVALID_HEADER_TOKEN'],
  ['Missing expected CR after header value', 'HPE_CR_EXPECTED'],
  ['Missing expected LF after header value', 'HPE_LF_EXPECTED'],
  ['Expected LF after headers', 'HPE_STRICT'],
  ['Empty Content-Length', 'HPE_INVALID_CONTENT_LENGTH'],
  ['Invalid character in Content-Length', 'HPE_INVALID_CONTENT_LENGTH'],
  ['Content-Length overflow', 'HPE_INVALID_CONTENT_LENGTH'],
  ['Duplicate Content-Length', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
  ["Content-Length can't be present with Transfer-Encoding", 'HPE_INVALID_CONTENT_LENGTH'],
  ["Transfer-Encoding can't be present with Content-Length", 'HPE_INVALID_TRANSFER_ENCODING'],
  ['Invalid character in chunk size', 'HPE_INVALID_CHUNK_SIZE'],
  ['Chunk size overflow', 'HPE_INVALID_CHUNK_SIZE'],
  ['Missing expected CR after chunk size', 'HPE_CR_EXPECTED'],
  ['Expected LF after chunk size', 'HPE_STRICT'],
  ['Expected LF after chunk data', 'HPE_STRICT'],
  ['Data after `Connection: close`', 'HPE_CLOSED_CONNECTION'],
]);

/** How undici's HTTPParserError message starts; llhttp's reason follows, then `)`. */
const UNDICI_PREFIX = 'Response does not match the HTTP/1.1 protocol (';

/**
 * A fault of an answer as node:http reports it (`name` marks it where llhttp's reason has no known code); its
 * cause is undici's error without the answer's bytes.
 */
export function parseError(reason: string, undiciError: Error, code = CODES.get(reason)): Error {
  return Object.assign(new Error(`Parse Error: ${reason}`), { name: 'HTTPParserError', code, reason, cause: withoutData(undiciError) });
}

/** undici's report of an answer that is not valid HTTP/1.1, as parseError makes it; undefined for any other error. */
export function fromUndici(error: Error): Error | undefined {
  // interim.ts's (nameFaults) is one already.
  if (error.name === 'HTTPParserError' && typeof (error as { reason?: unknown }).reason === 'string') return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return parseError(`headers over ${formatBytes(maxHeaderSize)}`, error, 'HPE_HEADER_OVERFLOW');
  if (error.name !== 'HTTPParserError') return undefined;
  const m = error.message;
  const reason = m.startsWith(UNDICI_PREFIX) && m.endsWith(')') ? m.slice(UNDICI_PREFIX.length, -1) : m;
  // undici 7.30 looks the code up by number in a map keyed by name: it has none; llhttp's reason says it.
  return parseError(reason, error, typeof code === 'string' ? code : CODES.get(reason));
}

/** undici's error as a plain one: its name, message and stack (for --debug), not the answer's bytes. */
function withoutData(error: Error): Error {
  const copy = new Error(error.message);
  copy.name = error.name;
  if (error.stack !== undefined) copy.stack = error.stack;
  return copy;
}
