import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { didYouMean } from './did-you-mean.ts';
import { ALL_KINDS, type Kind } from './kinds.ts';
import { escapeSegment as esc, valueAt } from '../shared/pointer.ts';
import { packageFile } from '../shared/package-root.ts';
import { lazyGenerated } from '../shared/generated.ts';

/** A schema problem in document terms: the pointer it concerns, whether the key itself is meant, what. */
export interface SchemaProblem {
  pointer: string;
  /** Point at the key of the last segment (unknown keys) rather than its value. */
  atKey: boolean;
  message: string;
}

/** A validator compiled ahead of time by scripts/generate.ts (ajv standalone, verbose errors). */
type CompiledValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The kind's validator (`./validators/<Kind>.gen.cjs`), loaded when a document of that kind is first checked. */
const validatorOf: (kind: Kind) => CompiledValidator = lazyGenerated(new URL('./validators/', import.meta.url), ALL_KINDS);

/**
 * Validates one document of a known kind; returns every problem, in document order. `halves: false` when the
 * document's text cannot hold half a character (mayHoldHalfCharacter): the walk for them costs twice the
 * schema check (~25 µs a 12-tile dashboard, a quarter of a second of a cold plan of 10,000; issue 15).
 */
export function validateKind(kind: Kind, value: unknown, opts: { halves?: boolean } = {}): SchemaProblem[] {
  const validate = validatorOf(kind);
  const halves = opts.halves === false ? [] : halfCharacters(value);
  if (validate(value)) return halves;
  return [...toProblems(validate.errors ?? [], value), ...halves];
}

/**
 * Half of a UTF-16 surrogate pair with no other half: what YAML's "\ud800" escape writes. No UTF-8 text can
 * hold one, so a server that stores UTF-8 (HyperDX's and ClickStack's MongoDB) keeps U+FFFD in its place and
 * answers a name that never equals the file's: every apply created the dashboard again, one more each run, and
 * a tile so named changed on every apply (red team, round 16). With the u flag a whole pair is one code point,
 * so only a lone half matches.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Every string (value or key) of a document that holds a lone surrogate, as a problem at it. The walk keeps its
 * own stack: a document may nest deeper than the call stack under a key the schema leaves open.
 */
function halfCharacters(root: unknown): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const say = (s: string) => {
    const at = s.search(LONE_SURROGATE);
    const unit = s.charCodeAt(at).toString(16);
    return `holds half a character at character ${at + 1} (a lone surrogate, as the escape \\u${unit} writes), which no UTF-8 text can hold: the server would store U+FFFD in its place, so its answer never equals the file and every apply would make or change it again; write the whole character (both halves of the pair, or the character itself)`;
  };
  const stack: Array<{ value: unknown; pointer: string }> = [{ value: root, pointer: '' }];
  // An alias makes one object appear in several places, or inside itself (`&x [*x]`, which made this walk run
  // until the heap was gone): each is walked once, at its first place.
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (value !== null && typeof value === 'object') {
      if (seen.has(value)) continue;
      seen.add(value);
    }
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) out.push({ pointer, atKey: false, message: `the string ${say(value)}` });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], pointer: `${pointer}/${i}` });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i]!;
        const at = `${pointer}/${esc(k)}`;
        if (LONE_SURROGATE.test(k)) out.push({ pointer: at, atKey: true, message: `the key ${say(k)}` });
        stack.push({ value: v, pointer: at });
      }
    }
  }
  return out;
}

function toProblems(errors: ErrorObject[], root: unknown): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    // if/then failures repeat the underlying "required" error in vaguer words.
    if (e.keyword === 'if') continue;
    const p = toProblem(e, root);
    const k = `${p.pointer}\u0000${p.message}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(p);
    }
  }
  return out;
}

/** The longest string an error quotes. */
const QUOTE_LIMIT = 120;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  // Quoted whole or not at all: a cut quote kept the start of a secret a ${VAR} put in the string, which the
  // output's redaction no longer found (38 of GITHUB_TOKEN's 40 characters; red team). No secret is longer.
  if (typeof v === 'string') return v.length > QUOTE_LIMIT ? `a string of ${v.length} characters` : `the string ${JSON.stringify(v)}`;
  // YAML's .nan and .inf, or a literal past a double's range (1e400): JSON has no such number to send.
  if (typeof v === 'number' && Number.isNaN(v)) return '.nan (not a number)';
  if (typeof v === 'number' && !Number.isFinite(v)) return `a number too large to hold (${String(v)})`;
  return `${typeof v} ${String(v)}`;
}

/** Patterns said in words. */
const PATTERN_HINTS: Record<string, string> = {
  '^[0-9a-f]{24}$': '24 lowercase hex characters (an id the service assigned)',
  '^[1-9][0-9]*[mhd]$': 'a number followed by m, h or d, like 5m or 1h',
  '^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$': "lowercase letters, digits, '.', '_' and '-', starting and ending with a letter or digit",
  '^[A-Za-z_][A-Za-z0-9_]*$': 'an environment variable name (letters, digits and _)',
};

const article = (t: string) => (t === 'integer' || t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`);
const typeWord: Record<string, string> = { object: 'mapping', array: 'list' };

let defsCache: Record<string, unknown> | undefined;
/** The dashboard schema's `$defs`, read only when an error needs them (the compiled validators carry no copy). */
function dashboardDefs(): Record<string, unknown> {
  defsCache ??= (JSON.parse(readFileSync(packageFile('schemas/dashboard.schema.json'), 'utf8')) as { $defs?: Record<string, unknown> }).$defs ?? {};
  return defsCache;
}

/** The keys a mapping may have: its own `properties` and those of the parts of an `allOf` (tile configs). */
function knownKeys(schema: unknown): string[] {
  const out = new Set<string>();
  const defs = dashboardDefs();
  const visit = (s: unknown, depth: number) => {
    if (!s || typeof s !== 'object' || depth > 8) return;
    const o = s as { properties?: object; allOf?: unknown[]; $ref?: string };
    for (const k of Object.keys(o.properties ?? {})) out.add(k);
    for (const part of o.allOf ?? []) visit(part, depth + 1);
    if (typeof o.$ref === 'string') visit(defs[o.$ref.slice(o.$ref.lastIndexOf('/') + 1)], depth + 1);
  };
  visit(schema, 0);
  return [...out];
}

function toProblem(e: ErrorObject, root: unknown): SchemaProblem {
  const ptr = e.instancePath;
  const actual = valueAt(root, ptr);
  switch (e.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(
        (e.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty ??
          (e.params as { unevaluatedProperty?: string }).unevaluatedProperty,
      );
      const known = knownKeys(e.parentSchema);
      const hint = didYouMean(key, known);
      return {
        pointer: `${ptr}/${esc(key)}`,
        atKey: true,
        message: `unknown key "${key}"${hint ? `; did you mean "${hint}"?` : known.length ? ` (known keys: ${known.join(', ')})` : ''}`,
      };
    }
    case 'required': {
      const key = (e.params as { missingProperty: string }).missingProperty;
      // A builder tile config may name its source instead (schemas/dashboard.schema.json, $defs).
      const alt = key === 'sourceId' && /\/(config|filters)(\/|$)/.test(ptr) ? ' (or name the source: source: <name>)' : '';
      return { pointer: ptr, atKey: false, message: `missing required key "${key}"${alt}` };
    }
    case 'type': {
      if (((e.parentSchema as { required?: string[] })?.required ?? []).join() === 'env') {
        return {
          pointer: ptr,
          atKey: false,
          // Never the value: a secret written into the file by mistake must not reach the CI log too.
          message: `secrets are never written in files: write { env: NAME } and set that environment variable (found ${typeof actual === 'string' ? `a string of ${actual.length} characters` : describe(actual)})`,
        };
      }
      const t = String((e.params as { type: string }).type)
        .split(',')
        .map((x) => article(typeWord[x] ?? x))
        .join(' or ');
      // ajv's number and integer types refuse NaN and the infinities: say "finite", or the message reads
      // "must be a number, found number NaN".
      const finite = typeof actual === 'number' && !Number.isFinite(actual) ? t.replace(/\b(an?) (number|integer)\b/g, 'a finite $2') : t;
      return { pointer: ptr, atKey: false, message: `must be ${finite}, found ${describe(actual)}` };
    }
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const hint = typeof actual === 'string' ? didYouMean(actual, allowed) : undefined;
      return {
        pointer: ptr,
        atKey: false,
        message: `must be one of ${allowed.join(', ')}; found ${describe(actual)}${hint ? `; did you mean "${hint}"?` : ''}`,
      };
    }
    case 'const':
      return {
        pointer: ptr,
        atKey: false,
        message: `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}, found ${describe(actual)}`,
      };
    case 'pattern': {
      const pattern = (e.params as { pattern: string }).pattern;
      return { pointer: ptr, atKey: false, message: `${describe(actual)} is not valid: must be ${PATTERN_HINTS[pattern] ?? `matching ${pattern}`}` };
    }
    case 'format':
      return {
        pointer: ptr,
        atKey: false,
        message: `must be a ${(e.params as { format: string }).format === 'uuid' ? 'UUID' : (e.params as { format: string }).format}, found ${describe(actual)}`,
      };
    case 'uniqueItems': {
      const { i, j } = e.params as { i: number; j: number };
      return { pointer: ptr, atKey: false, message: `must not repeat items: items ${j} and ${i} are the same` };
    }
    case 'minItems':
      return { pointer: ptr, atKey: false, message: `must have at least ${(e.params as { limit: number }).limit} item(s)` };
    case 'minLength':
      return { pointer: ptr, atKey: false, message: (e.params as { limit: number }).limit === 1 ? 'must not be empty' : `${e.message}` };
    default:
      return { pointer: ptr, atKey: false, message: e.message ?? `fails ${e.keyword}` };
  }
}

/** For kinds typed by the user: the closest known kind, for "did you mean". */
export function suggestKind(kind: string): string | undefined {
  return didYouMean(kind, ALL_KINDS);
}
