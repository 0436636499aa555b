/**
 * Redaction: credentials never leave steward. The report is redacted as a whole before any renderer sees it,
 * so no output format (text, Markdown, JSON, HTML) can leak what one renderer forgot.
 */

import { createRedactor, REDACTED } from '../clients/redact.ts';
import { isObject, setUnique } from '../shared/object.ts';

/** The one marker, shared with every other output (src/clients/redact.ts). */
export { REDACTED };

/** Keys whose values are credentials wherever they appear. */
const SECRET_KEY_NAMES = new Set(
  [
    'connectionString',
    'caCertificate',
    'credentials',
    'credential',
    'accessKey',
    'accessKeyId',
    'secretKey',
    'privateKey',
    'apiKey',
    'sasToken',
    'serviceAccountKey',
  ].map((k) => k.toLowerCase()),
);

/** Any key containing one of these words is a credential (`keySecret`, `password`, `sessionToken`, …). */
const SECRET_KEY_PATTERN = /secret|passw(or)?d|token|private_?key|api_?key|access_?key|credential/i;

/** Under `schemaRegistry` these are secrets too (its `url` and `authentication` are not). */
const SCHEMA_REGISTRY_SECRET_KEYS = new Set(['password', 'credentials', 'cacertificate', 'key', 'username']);

/**
 * Whether the value under `key` is a credential. `parents` are the keys above it, outermost first, so that
 * `schemaRegistry.key` is a secret while `destination.tableDefinition.sortingKey` is not.
 */
export function isSecretKey(key: string, parents: readonly string[] = []): boolean {
  const k = key.toLowerCase();
  if (SECRET_KEY_NAMES.has(k) || SECRET_KEY_PATTERN.test(key)) return true;
  return parents.some((p) => p.toLowerCase() === 'schemaregistry') && SCHEMA_REGISTRY_SECRET_KEYS.has(k);
}

/** Secrets shorter than this are only redacted where a whole value equals them, not inside longer text. */
const MIN_SUBSTRING_SECRET = 6;

/** Credentials found in the data are also hunted for elsewhere when at least this long. */
const MIN_FOUND_SECRET = 8;

export interface RedactOptions {
  /** Values that must never appear (the cloud key secret, the observability token…), whole or inside text. */
  secrets?: readonly string[];
}

/**
 * Returns a redacted deep copy of `value` (the input is not changed):
 * - the value under a credential key (see `isSecretKey`) becomes `[redacted]`, whatever its type;
 * - in a JSON Patch operation (`{ op, path, value }`), the value is redacted when the path ends in such a key;
 * - every string equal to a configured secret, or to a credential found under such a key anywhere in the
 *   input (eight characters or more), becomes `[redacted]`, and so does every occurrence of one inside a
 *   longer string (a message quoting it), for secrets of six characters or more.
 */
export function redact<T>(value: T, opts: RedactOptions = {}): T {
  const found = new Set<string>();
  collectSecrets(value, [], found);
  for (const s of opts.secrets ?? []) if (typeof s === 'string' && s !== '') found.add(s);
  // Longest first, so a secret that contains another is replaced whole.
  const secrets = [...found].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const whole = new Set(secrets);
  // Inside longer text: the one redactor (every encoding), for secrets long enough not to shred the text.
  const inText = createRedactor(secrets.filter((s) => s.length >= MIN_SUBSTRING_SECRET));
  return walk(value, [], (s) => (whole.has(s) ? REDACTED : inText(s))) as T;
}

function collectSecrets(value: unknown, parents: string[], out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectSecrets(v, parents, out);
    return;
  }
  if (!isObject(value)) return;
  for (const [k, v] of Object.entries(value)) {
    if (isSecretKey(k, parents)) collectStrings(v, out);
    else collectSecrets(v, [...parents, k], out);
  }
}

function collectStrings(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    // Short values ("none", "true") are too common to hunt for elsewhere; the key-based rule still hides them.
    if (value.length >= MIN_FOUND_SECRET && value !== REDACTED) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (isObject(value)) for (const v of Object.values(value)) collectStrings(v, out);
}

function walk(value: unknown, parents: string[], scrub: (s: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, parents, scrub));
  if (!isObject(value)) return value;
  const patchSecret = typeof value['op'] === 'string' && typeof value['path'] === 'string' && pathIsSecret(value['path']);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const x = v !== null && v !== undefined && (isSecretKey(k, parents) || (patchSecret && k === 'value')) ? REDACTED : walk(v, [...parents, k], scrub);
    // Keys are server text too (an HTML renderer escapes them past the output sink).
    setUnique(out, scrub(k), x);
  }
  return out;
}

function pathIsSecret(pointer: string): boolean {
  const segs = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return segs.some((s, i) => isSecretKey(s, segs.slice(0, i)));
}
