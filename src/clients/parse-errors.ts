/**
 * An answer that is not valid HTTP/1.1, as node:http reports it (`code` HPE_*, llhttp's `reason`), without the
 * bytes its error carries: node:http keeps the packet the fault was found in (`rawPacket`), which may quote a
 * credential a proxy echoed, and steward's --debug lines print an error's causes.
 */
import { maxHeaderSize } from 'node:http';
import { formatBytes } from './transport-errors.ts';

/** A fault of an answer: `Parse Error: <reason>`, its HPE code, its cause the original without the answer's bytes. */
function parseError(reason: string, original: Error, code: string | undefined): Error {
  return Object.assign(new Error(`Parse Error: ${reason}`), { name: 'HTTPParserError', code, reason, cause: withoutData(original) });
}

/**
 * node:http's error for an answer that is not valid HTTP/1.1, as parseError makes it (headers over the limit
 * say which limit); undefined for any other error.
 */
export function fromNodeHttp(error: Error): Error | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('HPE_')) return undefined;
  if (code === 'HPE_HEADER_OVERFLOW') return parseError(`headers over ${formatBytes(maxHeaderSize)}`, error, code);
  const reason = (error as { reason?: unknown }).reason;
  return parseError(typeof reason === 'string' && reason !== '' ? reason : error.message.replace(/^Parse Error: /, ''), error, code);
}

/** The error as a plain one: its name, message and stack (for --debug), not the answer's bytes. */
function withoutData(error: Error): Error {
  const copy = new Error(error.message);
  copy.name = error.name;
  if (error.stack !== undefined) copy.stack = error.stack;
  return copy;
}
