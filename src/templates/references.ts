/**
 * Parameter references inside a Template: `$(params.NAME)`, `$(self.key)`, `$(self.name)`; `$$(` is a
 * literal `$(`.
 *
 * Why `$(...)` and not `{{ ... }}` or `${...}`:
 * - `${VAR}` is the environment (src/config/interpolate.ts), expanded while a file is read. A template
 *   reference must survive that untouched and never be mistaken for it: `$(` is not `${`.
 * - `{{ ... }}` is HyperDX's own template syntax (tile `onClick.whereTemplate: "...{{URL}}..."` in its
 *   dashboard templates): it must pass through a steward template unchanged. And an unquoted `{{` starts a
 *   YAML flow mapping, so `name: {{ params.service }}` would not even be a string (Helm's classic trap).
 * - `$(params.NAME)` is Tekton's syntax, reads as "substitute", and is a plain YAML scalar: no quotes needed.
 */

/** One `$(...)` (or `$$(`) found in a string, by character offsets. */
export type Token =
  | { type: 'escape'; start: number; end: number }
  | { type: 'ref'; start: number; end: number; ns: 'params' | 'self'; name: string }
  | { type: 'bad'; start: number; end: number; message: string };

const BODY = /^(params|self)\.([A-Za-z_][A-Za-z0-9_]*)$/;

/** The references of a string, in order. Strings without `$(` (nearly all) cost one indexOf. */
export function scanReferences(s: string): Token[] {
  const out: Token[] = [];
  if (!s.includes('$(')) return out;
  let i = 0;
  while (i < s.length) {
    if (s.startsWith('$$(', i)) {
      out.push({ type: 'escape', start: i, end: i + 3 });
      i += 3;
      continue;
    }
    if (!s.startsWith('$(', i)) {
      i++;
      continue;
    }
    const close = s.indexOf(')', i + 2);
    if (close === -1) {
      out.push({ type: 'bad', start: i, end: s.length, message: `unterminated "$(" in ${quote(s)}: write $(params.NAME), or $$( for a literal "$("` });
      break;
    }
    const body = s.slice(i + 2, close);
    const m = BODY.exec(body.trim());
    if (m) out.push({ type: 'ref', start: i, end: close + 1, ns: m[1] as 'params' | 'self', name: m[2]! });
    else
      out.push({
        type: 'bad',
        start: i,
        end: close + 1,
        message: `"$(${body})" is not a reference: write $(params.NAME), $(self.key) or $(self.name); $$( is a literal "$("`,
      });
    i = close + 1;
  }
  return out;
}

/**
 * A value quoted in a message: whole up to 120 characters, else only its length. Never cut: a cut quote
 * kept the start of a secret a ${VAR} put in the value, where the output's redaction no longer found it.
 */
export function quote(s: string): string {
  return s.length > 120 ? `(a value of ${s.length} characters)` : JSON.stringify(s);
}

/**
 * The string with its references replaced. A string that is one reference and nothing else takes the
 * value's own type (a number stays a number, a list a list); elsewhere values are written into the text.
 */
export function substituteString(s: string, tokens: readonly Token[], value: (ns: 'params' | 'self', name: string) => unknown): unknown {
  if (tokens.length === 0) return s;
  const only = tokens[0]!;
  if (tokens.length === 1 && only.type === 'ref' && only.start === 0 && only.end === s.length) return value(only.ns, only.name);
  let out = '';
  let at = 0;
  for (const t of tokens) {
    out += s.slice(at, t.start);
    if (t.type === 'escape') out += '$(';
    else if (t.type === 'ref') out += String(value(t.ns, t.name));
    at = t.end;
  }
  return out + s.slice(at);
}
