/**
 * Turns whatever an error response carries into one readable line: JSON `{message}`, the cloud's
 * `{status, error, requestId}`, other common JSON error shapes, plain text, an HTML error page from a
 * proxy, a truncated JSON body, or nothing at all.
 */
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from './depth.ts';

/** Longest server message kept in an error line. */
export const MAX_SERVER_MESSAGE = 200;

export interface ErrorBodySummary {
  /** One line, no control characters, at most MAX_SERVER_MESSAGE characters ('' when the body says nothing). */
  message: string;
  requestId?: string;
}

export function summarizeErrorBody(body: Buffer | string, contentType: string | undefined, clean: (text: string) => string = (t) => t): ErrorBodySummary {
  // Each piece is cleaned after it is decoded (JSON's \u escapes, HTML's character references) and before it
  // is cut: a secret spelled in escapes would pass a cleaner of the raw body, and a cut one any cleaner.
  // Character references anywhere (a JSON message or a plain text an escaping layer wrote `abc&#43;def` in)
  // are read as what they stand for first, as the --debug trace reads them (traceText).
  const line = (t: string) => oneLine(clean(t.includes('&') ? decodeEntities(t) : t), true);
  const text = (typeof body === 'string' ? body : body.toString('utf8')).trim();
  if (text === '') return { message: '' };
  const ct = (contentType ?? '').toLowerCase();

  const looksJson = /^[[{"]/.test(text) || ct.includes('json');
  if (looksJson) {
    let parsed: unknown;
    let ok = true;
    try {
      parsed = JSON.parse(text);
    } catch {
      ok = false;
    }
    // Too deep to summarize safely (the summary recurses): read like broken JSON instead.
    if (ok && !nestsDeeperThan(parsed, MAX_RESPONSE_DEPTH)) return fromJson(parsed, line);
    // Truncated or broken JSON: salvage a message field if one is readable, else show the start of it.
    const salvaged = /"(?:message|error|detail|title)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
    const rid = /"(?:requestId|request_id)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
    const message = salvaged?.[1] !== undefined ? unescapeJsonString(salvaged[1]) : text;
    return withRequestId({ message: line(`${message} (unparseable JSON body)`) }, rid?.[1] === undefined ? undefined : unescapeJsonString(rid[1]), line);
  }

  // XML too (an S3-style `<Error><Message>` from a gateway): its character references are decoded before the
  // cleaner reads it, as an HTML page's are; shown raw, a token echoed as `abc&#43;def` passed it (red team).
  if (ct.includes('html') || /[/+]xml\b/.test(ct) || /^<(?:!doctype|html|head|body|\?xml)/i.test(text)) {
    return { message: line(htmlToText(text)) };
  }
  return { message: line(text) };
}

function fromJson(parsed: unknown, line: (t: string) => string): ErrorBodySummary {
  if (typeof parsed === 'string') return { message: line(parsed) };
  if (!isObject(parsed)) return { message: line(JSON.stringify(parsed)) };
  const requestId = pickString(parsed, ['requestId', 'request_id', 'requestID', 'traceId']);
  const message = messageOf(parsed);
  if (message !== undefined) return withRequestId({ message: line(message) }, requestId, line);
  // No known field: show the body itself, minus envelope members that the line already carries.
  const rest: Record<string, unknown> = { ...parsed };
  delete rest['status'];
  delete rest['requestId'];
  delete rest['statusCode'];
  const shown = Object.keys(rest).length > 0 ? JSON.stringify(rest) : '';
  return withRequestId({ message: line(shown) }, requestId, line);
}

/** The message of the common JSON error shapes; undefined when none applies. */
function messageOf(o: Record<string, unknown>): string | undefined {
  const listed = listedProblems(o);
  if (listed !== undefined) return listed;
  for (const key of ['message', 'error', 'detail', 'title', 'error_description', 'msg']) {
    const v = o[key];
    if (typeof v === 'string' && v.trim() !== '') {
      // `{error: "Bad Request", message: "..."}` (Express/Fastify): the message is the useful part.
      return v;
    }
    if (isObject(v)) {
      const inner = messageOf(v);
      if (inner !== undefined) return inner;
    }
  }
  const errors = o['errors'];
  if (Array.isArray(errors) && errors.length > 0) {
    const parts = errors.slice(0, 3).map((e) => (typeof e === 'string' ? e : isObject(e) ? (messageOf(e) ?? JSON.stringify(e)) : String(e)));
    return parts.join('; ') + (errors.length > 3 ? ` (and ${errors.length - 3} more)` : '');
  }
  return undefined;
}

/**
 * A problem+json answer that lists what was wrong: Prism's `validation` (`{location, message}`), RFC 7807's
 * `invalid-params` (`{name, reason}`). The list says what was expected; its `detail` ("Your request is not
 * valid and no HTTP validation response was found in the spec...") does not, and was all a refused create
 * said (red team, seed sweep). The title, then the first item and how many more (the line is cut at 200).
 */
function listedProblems(o: Record<string, unknown>): string | undefined {
  for (const key of ['validation', 'invalid-params']) {
    const list = o[key];
    if (!Array.isArray(list)) continue;
    const items = list.flatMap((e) => {
      if (!isObject(e)) return [];
      const text = pickString(e, ['message', 'reason']);
      const name = pickString(e, ['name']);
      return text === undefined || text.trim() === '' ? [] : [name !== undefined && !text.includes(name) ? `${name}: ${text}` : text];
    });
    if (items.length === 0) continue;
    const title = pickString(o, ['title']);
    return `${title ? `${title.replace(/[.:]\s*$/, '')}: ` : ''}${items[0]}${items.length > 1 ? ` (and ${items.length - 1} more)` : ''}`;
  }
  return undefined;
}

/**
 * Text of an HTML page: the title, then the body's text, with head, script, style and comments dropped
 * and entities decoded. Written with indexOf scans and `<[^<>]*>` rather than lazy `[\s\S]*?` patterns,
 * so a hostile page (thousands of unclosed `<script` or `<!--`) costs linear time, not quadratic.
 */
export function htmlToText(html: string): string {
  const src = html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html;
  const title = titleOf(src);
  let body = cutBlocks(src, '<!--', '-->');
  for (const tag of ['head', 'script', 'style', 'noscript', 'template']) body = cutBlocks(body, `<${tag}`, `</${tag}>`);
  body = collapse(decodeEntities(body.replace(/<[^<>]*>/g, ' ')));
  const t = title === undefined ? '' : collapse(decodeEntities(title.replace(/<[^<>]*>/g, ' ')));
  if (t === '') return body;
  // nginx-style pages repeat the title as the heading: keep it once.
  const rest = body === t || body.startsWith(`${t} `) ? body.slice(t.length).trim() : body;
  return rest === '' ? t : `${t}: ${rest}`;
}

/** Only the start of an HTML page is read: one line of it is shown. */
const MAX_HTML_CHARS = 32 * 1024;

function titleOf(src: string): string | undefined {
  const lower = src.toLowerCase();
  const open = lower.indexOf('<title');
  if (open < 0) return undefined;
  const gt = lower.indexOf('>', open);
  if (gt < 0) return undefined;
  const close = lower.indexOf('</title', gt);
  return src.slice(gt + 1, close < 0 ? undefined : close);
}

/** Removes every `open … close` block (case-insensitive); an unclosed block runs to the end. */
function cutBlocks(s: string, open: string, close: string): string {
  const lower = s.toLowerCase();
  let out = '';
  let i = 0;
  for (;;) {
    const a = lower.indexOf(open, i);
    if (a < 0) return out + s.slice(i);
    // `<head` must not swallow `<header>`: the tag name has to end here.
    const next = lower.charCodeAt(a + open.length);
    if (open !== '<!--' && ((next >= 97 && next <= 122) || (next >= 48 && next <= 57) || next === 45)) {
      out += s.slice(i, a + 1);
      i = a + 1;
      continue;
    }
    out += `${s.slice(i, a)} `;
    const b = lower.indexOf(close, a + open.length);
    if (b < 0) return out;
    i = b + close.length;
  }
}

/**
 * One line: control characters (including ANSI escapes from a hostile server) removed, whitespace
 * collapsed, cut to MAX_SERVER_MESSAGE characters with an ellipsis.
 */
export function oneLine(text: string, truncate: boolean): string {
  const clean = collapse(text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' '));
  if (!truncate || clean.length <= MAX_SERVER_MESSAGE) return clean;
  return `${clean.slice(0, MAX_SERVER_MESSAGE - 1).trimEnd()}…`;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function unescapeJsonString(s: string): string {
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return s;
  }
}

function withRequestId(summary: ErrorBodySummary, requestId: string | undefined, line: (t: string) => string): ErrorBodySummary {
  if (requestId !== undefined && requestId !== '') summary.requestId = line(requestId);
  return summary;
}

function pickString(o: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
