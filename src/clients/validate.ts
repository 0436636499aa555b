/**
 * Response validation: every success body is checked with ajv against the tolerant schemas in
 * `schemas/api/` (wrapped in the API's envelope) before a client returns it. Unknown members pass and are
 * kept (ajv never removes or coerces here); wrong types come back as problems with a readable field path.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { ResponseProblem } from './errors.ts';
import { lazyGenerated } from '../shared/generated.ts';
import { ENVELOPES, FILES, validatorName, type ResponseShape, type SchemaName } from './response-schemas.ts';

export { apiSchemasForTest, loadApiSchema, type ResponseShape, type SchemaName } from './response-schemas.ts';

/** A generated check: true when the body fits, else its errors (ajv's shape). */
type Check = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Each check is its own file (`./response-validators/<name>.gen.cjs`), loaded when first used: a plan needs one or two of 25. */
const generated: (name: string) => Check = lazyGenerated(new URL('./response-validators/', import.meta.url), [
  ...(Object.keys(FILES) as SchemaName[]).map((n) => validatorName(`file:${n}`)),
  ...(Object.keys(ENVELOPES) as ResponseShape[]).map((s) => validatorName(s)),
]);

function validatorFor(key: ResponseShape | `file:${SchemaName}`): Check {
  return generated(validatorName(key));
}

/** Most problems listed per response; the first one goes in the error message. */
const MAX_PROBLEMS = 20;

/** Checks a parsed response body; returns its problems (empty when it is fine). */
export function checkResponse(shape: ResponseShape, body: unknown): ResponseProblem[] {
  const fn = validatorFor(shape);
  if (fn(body)) return [];
  return toProblems(fn.errors ?? []).map(({ field, message }) => ({ field, message }));
}

/** A problem in one item of a list, located in the item (`field` and `pointer` are relative to it). */
export interface ItemProblem extends ResponseProblem {
  /** JSON pointer of the member at fault, or of the object that lacks a required member. */
  pointer: string;
  /** Whether the problem is a required member that is missing (there is no value at `field` to show). */
  missing: boolean;
}

/** Checks one item against one of the API schemas (a ClickPipe, a backup...); returns its problems. */
export function checkItem(name: SchemaName, item: unknown): ItemProblem[] {
  const fn = validatorFor(`file:${name}`);
  if (fn(item)) return [];
  return toProblems(fn.errors ?? []);
}

/** Checks a request body against its (closed) schema: used by tests and available to callers. */
export function checkRequest(name: 'dashboardCreate' | 'alertUpdate', body: unknown): ResponseProblem[] {
  const fn = validatorFor(`file:${name}`);
  if (fn(body)) return [];
  return toProblems(fn.errors ?? []).map(({ field, message }) => ({ field, message }));
}

/** `/data/3/tiles/0/x` → `data[3].tiles[0].x`. */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/**
 * ajv errors → one problem per field. A `oneOf` between a shape and null reports three errors for one
 * mistake (must be object, must be null, must match one of): they are folded into "must be object or null".
 */
function toProblems(errors: ErrorObject[]): ItemProblem[] {
  const typesAt = new Map<string, string[]>();
  for (const e of errors) {
    if (e.keyword !== 'type') continue;
    const t = (e.params as { type: string | string[] }).type;
    const list = typesAt.get(e.instancePath) ?? [];
    for (const x of Array.isArray(t) ? t : String(t).split(',')) if (!list.includes(x)) list.push(x);
    typesAt.set(e.instancePath, list);
  }
  // Which keywords have errors at each path, and below each path: asked per error, answered in constant
  // time (a scan of every error per error was quadratic: 46 KB of bad tags held plan 19 s, red team round 8).
  const at = new Map<string, Set<string>>();
  const below = new Map<string, Set<string>>();
  const note = (m: Map<string, Set<string>>, path: string, keyword: string) => {
    const set = m.get(path);
    if (set) set.add(keyword);
    else m.set(path, new Set([keyword]));
  };
  for (const o of errors) {
    note(at, o.instancePath, o.keyword);
    for (let i = o.instancePath.lastIndexOf('/'); i >= 0; i = o.instancePath.lastIndexOf('/', i - 1)) {
      note(below, o.instancePath.slice(0, i), o.keyword);
      if (i === 0) break;
    }
  }
  const otherThan = (set: Set<string> | undefined, keyword: string) => set !== undefined && (set.size > 1 || !set.has(keyword));
  const problems: ItemProblem[] = [];
  const seen = new Set<string>();
  const add = (field: string, message: string, pointer: string, missing = false) => {
    const k = `${field}\u0000${message}`;
    if (seen.has(k)) return;
    seen.add(k);
    problems.push({ field, message, pointer, missing });
  };
  // Errors in the order ajv found them, with type errors merged per field.
  const emittedTypes = new Set<string>();
  for (const e of errors) {
    // Only the first MAX_PROBLEMS are kept, and later errors only add after them.
    if (problems.length >= MAX_PROBLEMS) break;
    if (e.keyword === 'type') {
      if (emittedTypes.has(e.instancePath)) continue;
      emittedTypes.add(e.instancePath);
      const types = typesAt.get(e.instancePath) ?? [];
      // The null branch of `oneOf: [shape, null]` when the value is of the shape but wrong inside: the
      // deeper errors say what is wrong, "must be null" would only mislead.
      const deeper = below.has(e.instancePath);
      if (deeper && types.length === 1 && types[0] === 'null') continue;
      // A non-null type listed alongside "null" reads best with null last.
      types.sort((a, b) => (a === 'null' ? 1 : 0) - (b === 'null' ? 1 : 0));
      add(pointerToPath(e.instancePath), `must be ${types.join(' or ')}`, e.instancePath);
      continue;
    }
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf') {
      // Covered by the branch errors at this field or below, when there are any.
      const covered = otherThan(at.get(e.instancePath), e.keyword) || otherThan(below.get(e.instancePath), e.keyword);
      if (covered) continue;
    }
    if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      const at = pointerToPath(e.instancePath);
      add(at === '' ? missing : fieldJoin(at, missing), 'is required but missing', e.instancePath, true);
      continue;
    }
    add(pointerToPath(e.instancePath), e.message ?? `fails ${e.keyword}`, e.instancePath);
  }
  return problems.slice(0, MAX_PROBLEMS);
}

function fieldJoin(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}
