/**
 * Redaction of credentials from anything steward prints or writes: traces, error messages, reports.
 */

export const REDACTED = '[redacted]';

/** Secrets shorter than this are not replaced: a 1–3 character "secret" would shred the text around it. */
const MIN_SECRET_LENGTH = 4;

/**
 * A query parameter (`?name=value`, `&`, `;`); the name's class excludes the characters that start one, so
 * each character is scanned from one start only: linear in the text. A pattern with the keywords inside the
 * name (a lazy prefix, a keyword, a greedy suffix, `;` both a start and a name character) was cubic: 12 KB of
 * `;token` from a server took 29 s (red team, round 7). The keywords are tested on the name alone.
 */
const QUERY_PARAM = /([?&;][^=&#;?\s]*=)[^&#;\s"']*/g;
const SENSITIVE_NAME = /token|secret|password|passwd|pwd|api[_-]?key|apikey|key[_-]?id|signature|sig|auth|credential|accountkey|sharedaccesskey/i;
/** The marker as a regular expression, so text already redacted is left as it is. */
const MARKER = REDACTED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const AUTH_HEADER = new RegExp(
  `(\\b(?:proxy-)?authorization\\b["']?\\s*[:=]\\s*["']?)(?:(Bearer|Basic|Token|Digest)\\s+)?(?!${MARKER})(?!(?:Bearer|Basic|Token|Digest)\\s)[^\\s"',}\\]]+`,
  'gi',
);
const BEARER = new RegExp(`\\b(Bearer)\\s+(?!${MARKER})[A-Za-z0-9._~+/=-]{16,}`, 'g');
// The scheme starts where a run of scheme characters starts (not at every `\b` inside `a.b.c`, which made
// the pattern quadratic in such runs).
const URL_USERINFO = /((?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/)[^/\s@:]+(?::[^/\s@]*)?@/gi;

/**
 * Replaces every occurrence of the given secret values, in every encoding steward or a server could put
 * them in (see `secretVariants`), with `[redacted]`, and masks credential-shaped text whatever its value:
 * `Authorization: …` header values, long `Bearer` tokens, credential query parameters (`?token=…`,
 * `api_key=…`) and `user:password@` in URLs. Pure; safe to call on any text, any number of times. This is
 * steward's one redactor: clients, the CLI's output sink, files written and the report all use it.
 */
export function redact(text: string, secrets: readonly (string | undefined | null)[] = []): string {
  return createRedactor(secrets)(text);
}

/**
 * A redactor bound to a list of secrets (their variants computed once), for passing around as a function.
 * `patterns: false` replaces only the secrets' values, not credential-shaped text (the CLI's output sink:
 * `steward emulator` prints its own development token on purpose, and a dashboard may be named anything).
 */
export function createRedactor(given: readonly (string | undefined | null)[], opts: { patterns?: boolean } = {}): (text: string) => string {
  const secrets = withSpellings(given);
  const variants = secretVariants(secrets);
  const cutForms = cutEdgeForms(secrets);
  const urlForms = urlEncodedForms(secrets);
  const plusForSpace = secrets.some((s) => typeof s === 'string' && s.includes(' '));
  const patterns = opts.patterns ?? true;
  return (text) => {
    let out = text;
    for (const variant of variants) {
      if (out.includes(variant)) out = out.split(variant).join(REDACTED);
    }
    // Every form other than the raw text holds a `%` (or a `+` for a space): most texts skip the regular expression.
    if (urlForms && (out.includes('%') || (plusForSpace && out.includes('+')))) out = out.replace(urlForms, REDACTED);
    if (cutForms.length > 0 && (out.includes('…') || out.includes('...'))) out = redactCutEdges(out, cutForms);
    if (!patterns) return out;
    out = out.replace(AUTH_HEADER, (_m, prefix: string, scheme: string | undefined) => `${prefix}${scheme ? `${scheme} ` : ''}${REDACTED}`);
    out = out.replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
    out = out.replace(QUERY_PARAM, (m, prefix: string) => (SENSITIVE_NAME.test(prefix) ? `${prefix}${REDACTED}` : m));
    out = out.replace(URL_USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`);
    return out;
  };
}

/**
 * The shortest part of a secret taken for one at a cut: half of it (and at least 4 characters). A shorter
 * part would make the rule an oracle: text anyone can put before an ellipsis (a dashboard's name in a plan,
 * a live name from the service, in a public CI log) would show `[redacted]…` exactly when it is a start of a
 * secret, which reads one out a character at a time. Guessing half a random token at once is out of reach;
 * steward's own cuts of values are redacted before they cut (validate's quotes, apply's progress line), so
 * this is the net under those.
 */
function minCutPart(f: string): number {
  return Math.max(4, Math.ceil(f.length / 2));
}

/** The forms a cut can leave part of: raw and JSON-escaped once and twice (a quoted value in JSON output). */
function cutEdgeForms(secrets: readonly (string | undefined | null)[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length < MIN_SECRET_LENGTH) continue;
    const json = JSON.stringify(s).slice(1, -1);
    for (const f of [s, json, JSON.stringify(json).slice(1, -1)]) forms.add(f);
  }
  return [...forms];
}

/**
 * A secret cut short by an ellipsis (`"xxghp_ABC…"`: a value quoted in a message, a line cut to the
 * terminal's width): the part of it right before an ellipsis, or right after one, is replaced too, when it
 * is at least half the secret (minCutPart). Text is
 * cut in many places, most of them before any redaction sees the value, and a part no longer matches the
 * whole secret (red team: 38 of GITHUB_TOKEN's 40 characters in a validate error; a live name cut in apply's
 * progress line).
 */
function redactCutEdges(text: string, forms: readonly string[]): string {
  // Found from the half a cut part must hold (indexOf, native), not from each ellipsis: trying every length
  // at every ellipsis took seconds for a plan of 10,000 cut names with a private key in the environment.
  const ranges: Array<[number, number]> = [];
  for (const f of forms) {
    const half = minCutPart(f);
    if (half >= f.length) continue; // the whole value: the variants replace it
    const head = f.slice(0, half);
    for (let p = text.indexOf(head); p !== -1; p = text.indexOf(head, p + 1)) {
      let m = half;
      while (m < f.length && text.charCodeAt(p + m) === f.charCodeAt(m)) m++;
      for (let e = p + m; e >= p + half; e--) {
        if (text.startsWith('…', e) || text.startsWith('...', e)) {
          ranges.push([p, e]);
          break;
        }
      }
    }
    const tail = f.slice(f.length - half);
    for (let q = text.indexOf(tail); q !== -1; q = text.indexOf(tail, q + 1)) {
      const end = q + half;
      let m = half;
      while (m < f.length && end - m - 1 >= 0 && text.charCodeAt(end - m - 1) === f.charCodeAt(f.length - m - 1)) m++;
      for (let b = end - m; b <= q; b++) {
        if ((b >= 1 && text[b - 1] === '…') || (b >= 3 && text.startsWith('...', b - 3))) {
          ranges.push([b, end]);
          break;
        }
      }
    }
  }
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let pos = 0;
  for (const [start, end] of ranges) {
    if (end <= pos) continue;
    out += text.slice(pos, Math.max(pos, start)) + (start >= pos ? REDACTED : '');
    pos = end;
  }
  return out + text.slice(pos);
}

/**
 * The secrets and the other spellings a value takes on its way to an output:
 * - without white space at either end: what a server reads from the header (HTTP drops the spaces around a
 *   field's value) and echoes; a secret pasted with a trailing space or tab was sent, and its echo shown whole;
 * - as the number it reads as: `x: ${VAR}` (a plain scalar) takes the type its value reads as, and a
 *   number-like secret past a double's precision printed rounded (`1.2345678901234567890123` as
 *   `1.2345678901234567`: 17 of its 24 characters; red team).
 */
function withSpellings(secrets: readonly (string | undefined | null)[]): Array<string | undefined | null> {
  const more: string[] = [];
  for (const s of secrets) {
    if (typeof s !== 'string') continue;
    const t = s.trim();
    if (t !== s) more.push(t);
    if (NUMBER_LIKE.test(t)) {
      const n = String(Number(t));
      if (n !== t && n.length >= MIN_NUMBER_SPELLING && Number.isFinite(Number(t))) more.push(n);
    }
  }
  return more.length > 0 ? [...secrets, ...more] : [...secrets];
}

/** What src/config/interpolate.ts reads as a number. */
const NUMBER_LIKE = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/** A number printed shorter than this is not hunted for (`007` as `7` would shred every count). */
const MIN_NUMBER_SPELLING = 8;

/**
 * The secrets as URL encoders may write them, as one regular expression: each character raw or as its
 * `%XX` bytes, hex in either case (RFC 3986 calls them equivalent), a space also as `+` (forms). Encoders
 * differ in what they encode (`encodeURIComponent` every reserved character, many URL builders only some),
 * so listing encodings cannot be complete; this matches any mix (red team, round 3).
 */
function urlEncodedForms(secrets: readonly (string | undefined | null)[]): RegExp | undefined {
  const forms = [...new Set(secrets)]
    .filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length)
    .map((s) => {
      let re = '';
      for (const ch of s) {
        const bytes = [...Buffer.from(ch, 'utf8')].map((b) => `%${hexEitherCase(b)}`).join('');
        re += `(?:${ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}|${bytes}${ch === ' ' ? '|\\+' : ''})`;
      }
      return re;
    });
  return forms.length > 0 ? new RegExp(forms.join('|'), 'g') : undefined;
}

/** Two hex digits of a byte, each letter matching either case. */
function hexEitherCase(b: number): string {
  return [...b.toString(16).padStart(2, '0')].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
}

/**
 * The secret as HTML escapers write it, when it holds a character they escape: `&`, `<`, `>` always, quotes
 * as `&quot;`/`&#34;` and `&#39;`/`&#x27;`/`&apos;` or raw (an error page echoing the header: the --debug
 * trace decodes numeric references only, so `tok&amp;en` showed as sent; red team).
 */
function htmlEscapedForms(s: string): string[] {
  if (!/[&<>"']/.test(s)) return [];
  const base = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const out: string[] = [];
  for (const dq of ['"', '&quot;', '&#34;']) for (const sq of ["'", '&#39;', '&#x27;', '&apos;']) out.push(base.replace(/"/g, dq).replace(/'/g, sq));
  return out;
}

/** Encoded forms shorter than this are not hunted for (a 4-character base64 run is found in ordinary text). */
const MIN_ENCODED_LENGTH = 8;

/**
 * Every form a secret can take in text, longest first:
 * - raw, URL-encoded, JSON-escaped (with and without `\/`), and JSON-escaped twice: a server's text may hold
 *   the escaped form (an echoed JSON body), and a report message quotes server text with JSON.stringify
 *   (`has status "…"`), so a secret with a `"` or `\` reached every output so (red team);
 * - base64 of the secret inside any longer text (`Bearer <token>`, `user:secret` of Basic auth, a JSON
 *   document): base64 encodes 3 bytes as 4 characters, so wherever the secret starts, the characters that
 *   encode only its bytes are the base64 of the secret without its first 0, 1 or 2 bytes (and without the
 *   bytes left over at its end). Those three cores, standard and URL-safe alphabets, are what is searched
 *   for, plus the whole padded and unpadded encodings and those of `Bearer <secret>`. What is left around a
 *   replaced core is at most two bytes' worth of characters at each end;
 * - hex of the secret's UTF-8 bytes, lower and upper case.
 */
export function secretVariants(given: readonly (string | undefined | null)[]): string[] {
  const set = new Set<string>();
  for (const s of withSpellings(given)) {
    if (typeof s !== 'string' || s.length < MIN_SECRET_LENGTH) continue;
    set.add(s);
    set.add(encodeURIComponent(s));
    const json = JSON.stringify(s).slice(1, -1);
    set.add(json);
    set.add(json.replace(/\//g, '\\/'));
    set.add(JSON.stringify(json).slice(1, -1));
    for (const h of htmlEscapedForms(s)) set.add(h);
    const encoded = new Set<string>();
    const bytes = Buffer.from(s, 'utf8');
    for (const whole of [bytes, Buffer.from(`Bearer ${s}`, 'utf8')]) {
      const b64 = whole.toString('base64');
      encoded.add(b64);
      encoded.add(b64.replace(/=+$/, ''));
    }
    for (let off = 0; off < 3; off++) {
      const n = Math.floor((bytes.length - off) / 3) * 3;
      if (n > 0) encoded.add(bytes.subarray(off, off + n).toString('base64'));
    }
    for (const e of [...encoded]) encoded.add(e.replace(/\+/g, '-').replace(/\//g, '_'));
    const hex = bytes.toString('hex');
    encoded.add(hex);
    encoded.add(hex.toUpperCase());
    for (const e of encoded) if (e.length >= MIN_ENCODED_LENGTH) set.add(e);
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...set].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}
