import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { CLICKSTACK_SCHEMAS, HYPERDX_SCHEMAS } from './spec-schemas.ts';

/**
 * Request-body validation against the vendored specs (src/emulator/spec-schemas.ts, generated from
 * ../shared/contracts): ajv, compiled once per schema on first use.
 *
 * OpenAPI 3.0's `nullable: true` next to a `$ref` or an `allOf` (which swagger-jsdoc writes, and ajv refuses
 * without a `type`) is read as "this, or null", which is what the authors meant. The OpenAPI `discriminator`
 * is left to `oneOf`, as a validator that knows no discriminator (ajv, prism) reads it.
 */

type Json = unknown;

function nullableAsAnyOf(v: Json, inProperties = false): Json {
  if (Array.isArray(v)) return v.map((x) => nullableAsAnyOf(x));
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, Json> = {};
  for (const [k, x] of Object.entries(v)) out[k] = nullableAsAnyOf(x, !inProperties && k === 'properties');
  if (!inProperties && out['nullable'] === true && out['type'] === undefined) {
    delete out['nullable'];
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

export type SpecName = 'hyperdx' | 'clickstack';

let hyperdxAjv: Ajv | undefined;
let clickstackAjv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function ajvFor(spec: SpecName): Ajv | Ajv2020 {
  if (spec === 'hyperdx') {
    if (!hyperdxAjv) {
      hyperdxAjv = new Ajv({ strict: false, allErrors: true });
      addFormats.default(hyperdxAjv);
      hyperdxAjv.addSchema({ $id: 'hyperdx', components: { schemas: nullableAsAnyOf(HYPERDX_SCHEMAS) } });
    }
    return hyperdxAjv;
  }
  if (!clickstackAjv) {
    clickstackAjv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(clickstackAjv);
    clickstackAjv.addSchema({ $id: 'clickstack', components: { schemas: CLICKSTACK_SCHEMAS } });
  }
  return clickstackAjv;
}

/** The validator of `#/components/schemas/<name>` in the spec. */
export function schemaValidator(spec: SpecName, name: string): ValidateFunction {
  const key = `${spec}#${name}`;
  let v = compiled.get(key);
  if (!v) {
    v = ajvFor(spec).compile({ $ref: `${spec}#/components/schemas/${name}` });
    compiled.set(key, v);
  }
  return v;
}

/** One problem of a body: a dot path (`tiles.0.x`, empty for the body) and a message, as HyperDX reports them. */
export interface BodyProblem {
  path: string;
  message: string;
  /** Set for a rule the spec states in prose (a missing source...), not a schema violation. */
  rule?: true;
}

function dotPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `Required (${String(p['missingProperty'])})`;
    case 'enum':
      return `must be one of ${(p['allowedValues'] as unknown[]).map((x) => JSON.stringify(x)).join(', ')}`;
    case 'type':
      return `must be ${String(p['type'])}`;
    default:
      return e.message ?? e.keyword;
  }
}

/**
 * The problems ajv finds, most specific first: errors of the deepest path, `oneOf`/`anyOf` summaries (which
 * only say "matched none") last. Empty when the body is valid.
 */
export function bodyProblems(spec: SpecName, schema: string, body: unknown): BodyProblem[] {
  const v = schemaValidator(spec, schema);
  if (v(body)) return [];
  const errors = (v.errors ?? []).slice();
  const weight = (e: ErrorObject) => (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if' ? -1000 : 0) + e.instancePath.split('/').length;
  errors.sort((a, b) => weight(b) - weight(a));
  const seen = new Set<string>();
  const out: BodyProblem[] = [];
  for (const e of errors) {
    const path =
      e.keyword === 'required' ? dotPath(`${e.instancePath}/${String((e.params as Record<string, unknown>)['missingProperty'])}`) : dotPath(e.instancePath);
    const message = e.keyword === 'required' ? 'Required' : describe(e);
    const key = `${path} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  return out;
}

/** `Body validation failed: <path>: <message>` for the first problem (the form HyperDX's validator answers). */
export function problemMessage(problems: BodyProblem[]): string {
  const first = problems[0];
  if (!first) return 'Body validation failed';
  if (first.rule) return `${first.path === '' ? '' : `${first.path}: `}${first.message}`;
  return `Body validation failed: ${first.path === '' ? '' : `${first.path}: `}${first.message}`;
}
