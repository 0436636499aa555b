/**
 * The CLI's output sink: every credential value in play, and every value of a variable whose name says it is
 * a secret, redacted from everything steward prints or writes. One list per run: it starts with the default
 * credential variables' values and grows when a command loads a project that names others (`add`).
 */
import { createRedactor, REDACTED } from '../clients/redact.ts';
import { credentialValues, credentialVariables, DEFAULT_CREDENTIAL_VARIABLES, secretLookingValues } from '../config/credentials.ts';
import type { Env } from '../config/interpolate.ts';
import { jsonText } from '../render/escape.ts';
import { setUnique } from '../shared/object.ts';

export interface SecretSink {
  /** Adds values that must not appear in any output from now on. */
  add(values: readonly string[]): void;
  /** Adds the values of every credential variable a project spec names. */
  addProject(spec: unknown): void;
  /** The text with every known credential, in every encoding, replaced by the one marker. */
  redact(text: string): string;
  /** Whether `redact` leaves every one of these strings as it is. */
  keepsAll(strings: readonly string[]): boolean;
}

/** Strings joined per check in `keepsAll`: well below V8's maximum string length. */
const JOIN_CHARS = 1 << 24;

export function createSecretSink(env: Env): SecretSink {
  // And the values of the environment's variables whose names say they hold secrets (GITHUB_TOKEN): steward
  // is not told of them, but none may reach an output whatever path it takes (a Project document's ${VAR}).
  const values = new Set<string>([...credentialValues(DEFAULT_CREDENTIAL_VARIABLES, env), ...secretLookingValues(env)]);
  // Values only: credential-shaped text is masked where it is made (the clients' traces and errors).
  let redactor = createRedactor([...values], { patterns: false });
  const add = (more: readonly string[]) => {
    let changed = false;
    for (const v of more) {
      if (v && !values.has(v)) {
        values.add(v);
        changed = true;
      }
    }
    if (changed) redactor = createRedactor([...values], { patterns: false });
  };
  return {
    add,
    addProject: (spec) => add(credentialValues(credentialVariables(spec), env)),
    redact: (text) => {
      const out = redactor(text);
      return out === text ? out : jsonKept(text, out, redactor);
    },
    keepsAll: (strings) => {
      // Joined by NUL, checked in a few long texts instead of one call per string (a plan of 10,000 items
      // holds ~100,000 strings). Exact when no value holds a NUL: then no form of one does (raw, URL, JSON,
      // base64, hex), so no match can span two strings, and the joined text changes iff one string would.
      if ([...values].some((v) => v.includes('\u0000'))) return strings.every((x) => redactor(x) === x);
      let start = 0;
      while (start < strings.length) {
        let end = start;
        let chars = 0;
        while (end < strings.length && (end === start || chars + strings[end]!.length <= JOIN_CHARS)) chars += strings[end++]!.length + 1;
        const text = strings.slice(start, end).join('\u0000');
        if (redactor(text) !== text) return false;
        start = end;
      }
      return true;
    },
  };
}

/**
 * A JSON text (a `--format json` output, a plan or report file) that redaction made invalid: a credential that
 * reads as a JSON number or as `true`, `false` or `null` was replaced where it stood as a value
 * (`"asRatio": [redacted]`), and whatever read the output failed on it. Redacted by value instead: strings and
 * keys through `redactor`, a number or literal whose text is a credential's as the string "[redacted]", and
 * written again as steward writes JSON (its indentation kept). The text redaction stays the answer when the
 * text is no JSON, is still JSON after it, or still shows a credential when redacted by value (one spanning two
 * values): no credential shown comes before valid JSON.
 */
function jsonKept(text: string, redacted: string, redactor: (s: string) => string): string {
  const body = text.trim();
  if (!(body.startsWith('{') || body.startsWith('[')) || isJson(redacted)) return redacted;
  try {
    const value = JSON.parse(text) as unknown;
    const indent = /^[{[]\n( +)/.exec(body)?.[1]?.length ?? 0;
    const out = text.slice(0, text.indexOf(body)) + jsonText(byValue(value, redactor), indent) + text.slice(text.indexOf(body) + body.length);
    return redactor(out) === out ? out : redacted;
  } catch {
    // Not JSON after all, or nested past the stack: the text redaction, which shows no credential.
    return redacted;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A parsed JSON value with every string and key redacted, and every number or literal whose text is a credential's replaced. */
function byValue(v: unknown, redactor: (s: string) => string): unknown {
  if (typeof v === 'string') return redactor(v);
  if (v === null || typeof v !== 'object') {
    const t = JSON.stringify(v);
    return redactor(t) === t ? v : REDACTED;
  }
  if (Array.isArray(v)) return v.map((x) => byValue(x, redactor));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) setUnique(out, redactor(k), byValue(x, redactor));
  return out;
}
