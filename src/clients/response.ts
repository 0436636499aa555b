/**
 * Turning a success body into the value the caller asked for (JSON, depth, room in the heap, `validate`),
 * and the bodies of --debug lines. The body itself is read within its limits by attempt.ts: a success up
 * to `maxResponseBytes` (a declared content-length above it refused before anything is read), an error
 * body only to MAX_ERROR_BODY_BYTES, since one line of it is shown.
 */
import { ApiResponseError, type ApiErrorInit, type ResponseProblem } from './errors.ts';
import { summarizeErrorBody, oneLine } from './error-body.ts';
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from './depth.ts';
import { effectOf, formatBytes, headerValue, outcomeNote, type RequestContext, type ResponseAttempt } from './transport-errors.ts';
import { mib, parseRoom } from '../shared/json.ts';
import { utf8Text } from '../shared/text.ts';

/** The count lives in src/shared/json.ts (a saved plan is counted the same way); re-exported for its test. */
export { parseRoom };

/** The response of one attempt, read (attempt.ts); `ms` is filled in by the caller, which knows when it started. */
export type ReadResponse = Omit<ResponseAttempt, 'ms'>;

/** Checks and narrows a parsed success body; the problems found become an ApiResponseError. */
export type Validate = (body: unknown) => ResponseProblem[] | undefined;

/**
 * The parsed JSON of a 2xx (undefined when empty), or an ApiResponseError: too large, not JSON, nested too
 * deep, or refused by `validate`. A write answered 2xx was applied, so for one the error says the outcome
 * is unknown to the caller.
 */
export function parseSuccess(
  ctx: RequestContext,
  r: ResponseAttempt,
  attempt: number,
  o: { validate: Validate | undefined; maxBytes: number; clean: (text: string) => string },
): unknown {
  const init: ApiErrorInit = { ...ctx, status: r.status, attempts: attempt, outcomeUnknown: effectOf(ctx) !== 'GET' };
  const head = `${ctx.method} ${ctx.path}`;
  const unknownNote = init.outcomeUnknown ? outcomeNote(ctx.method) : '';
  if (r.overLimit) {
    throw new ApiResponseError(
      `${head}: response larger than ${formatBytes(o.maxBytes)} (maxResponseBytes; STEWARD_MAX_RESPONSE_MIB raises it); refused${unknownNote}`,
      { ...init, problems: [{ field: '', message: 'response too large' }] },
    );
  }
  if (r.undecodable !== undefined) {
    throw new ApiResponseError(`${head}: response body could not be decoded (${o.clean(oneLine(r.undecodable, false))})${unknownNote}`, {
      ...init,
      problems: [{ field: '', message: 'body not decodable' }],
    });
  }
  const room = parseRoom(r.body);
  if (room) {
    throw new ApiResponseError(
      `${head}: response of ${mib(r.body.length)} holds ${room.values.toLocaleString('en-US')} JSON values or more; reading them would take about ${mib(room.need)}, more than the ${mib(room.free)} this process has left (Node's heap limit; NODE_OPTIONS=--max-old-space-size raises it); refused${unknownNote}`,
      { ...init, problems: [{ field: '', message: 'response too large for memory' }] },
    );
  }
  const text = utf8Text(r.body);
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
      const excerpt = o.clean(summarizeErrorBody(o.clean(r.body.toString('utf8')), ct, o.clean).message);
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
  const problems = o.validate?.(body);
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
    throw new ApiResponseError(`${head}: ${o.clean(oneLine(where + first.message, false))}${more}${unknownNote}`, {
      ...init,
      problems,
    });
  }
  return body;
}

/** The most of a body a --debug trace shows. */
const TRACE_BODY_LIMIT = 4096;

/**
 * A body for a one-line trace, already redacted (cutting first could split a credential the redactor then
 * misses): control characters (line breaks, ESC: a server's text must not drive the terminal) shown as
 * escapes, cut at TRACE_BODY_LIMIT characters.
 */
/**
 * A response body as the trace shows it, before cleaning: JSON with `\u` escapes is written again without
 * them (JSON.stringify keeps only what JSON must escape), so a secret spelled in escapes meets the redactor.
 */
export function traceText(raw: string): string {
  // HTML's numeric character references (an error page) are read as the characters they stand for, too.
  if (raw.includes('&#'))
    raw = raw.replace(
      /&#(x[0-9a-f]{1,6}|[0-9]{1,7});/gi,
      (m, n: string) => printable(n[0] === 'x' || n[0] === 'X' ? parseInt(n.slice(1), 16) : parseInt(n, 10)) ?? m,
    );
  if (!raw.includes('\\u')) return raw;
  try {
    return JSON.stringify(JSON.parse(raw)) ?? raw;
  } catch {
    // Broken JSON (cut, or hostile): each escape of a printable character other than `"` and `\` read as it.
    return raw.replace(/\\u([0-9a-fA-F]{4})/g, (m, hex: string) => {
      const c = parseInt(hex, 16);
      return c !== 0x22 && c !== 0x5c ? (printable(c) ?? m) : m;
    });
  }
}

/** The character of a code point that prints as itself (no control character, no lone surrogate), or undefined. */
function printable(c: number): string | undefined {
  return c >= 0x20 && (c < 0x7f || c > 0x9f) && (c < 0xd800 || c > 0xdfff) && c <= 0x10ffff ? String.fromCodePoint(c) : undefined;
}

export function traceBody(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return flat.length > TRACE_BODY_LIMIT ? `${flat.slice(0, TRACE_BODY_LIMIT)}… (${flat.length - TRACE_BODY_LIMIT} more characters)` : flat;
}
