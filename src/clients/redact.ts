/**
 * Redaction of credentials from anything steward prints or writes: traces, error messages, reports.
 */

export const REDACTED = '[redacted]';

/** Secrets shorter than this are not replaced: a 1–3 character "secret" would shred the text around it. */
const MIN_SECRET_LENGTH = 4;

const SENSITIVE_QUERY =
  /([?&;](?:[^=&#\s]*?(?:token|secret|password|passwd|pwd|api[_-]?key|apikey|key[_-]?id|signature|sig|auth|credential|accountkey|sharedaccesskey)[^=&#\s]*)=)[^&#;\s"']*/gi;
const AUTH_HEADER = /(\b(?:proxy-)?authorization\b["']?\s*[:=]\s*["']?)(?:(Bearer|Basic|Token|Digest)\s+)?(?!\[redacted\])(?!(?:Bearer|Basic|Token|Digest)\s)[^\s"',}\]]+/gi;
const BEARER = /\b(Bearer)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]{16,}/g;
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@:]+(?::[^/\s@]*)?@/gi;

/**
 * Replaces every occurrence of the given secret values (and their URL-encoded, JSON-escaped and base64
 * forms) with `[redacted]`, and masks credential-shaped text whatever its value: `Authorization: …`
 * header values, long `Bearer` tokens, credential query parameters (`?token=…`, `api_key=…`) and
 * `user:password@` in URLs. Pure; safe to call on any text, any number of times.
 */
export function redact(text: string, secrets: readonly (string | undefined | null)[] = []): string {
  let out = text;
  for (const variant of secretVariants(secrets)) {
    if (out.includes(variant)) out = out.split(variant).join(REDACTED);
  }
  out = out.replace(AUTH_HEADER, (_m, prefix: string, scheme: string | undefined) =>
    `${prefix}${scheme ? `${scheme} ` : ''}${REDACTED}`,
  );
  out = out.replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  out = out.replace(SENSITIVE_QUERY, (_m, prefix: string) => `${prefix}${REDACTED}`);
  out = out.replace(URL_USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`);
  return out;
}

/** A redactor bound to a list of secrets, for passing around as a plain function. */
export function createRedactor(secrets: readonly (string | undefined | null)[]): (text: string) => string {
  const list = [...secrets];
  return (text) => redact(text, list);
}

function secretVariants(secrets: readonly (string | undefined | null)[]): string[] {
  const set = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length < MIN_SECRET_LENGTH) continue;
    set.add(s);
    set.add(encodeURIComponent(s));
    set.add(JSON.stringify(s).slice(1, -1));
    set.add(Buffer.from(s, 'utf8').toString('base64'));
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...set].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}
