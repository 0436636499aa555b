/**
 * The `config` form of a dashboard tile and the dashboard `filters`, taken from HyperDX's own OpenAPI file
 * (2026-08-21, the repository's copy under test/fixtures/contracts/openapi) so that enumerations and bounds
 * are the server's, never a hand copy. `npm run generate` writes the result into
 * schemas/dashboard.schema.json under `$defs`; a test fails when it is stale.
 *
 * What changes on the way, and why:
 * - `oneOf` + `discriminator` become `if`/`then` chains on the discriminating member, so an error names the
 *   member that is wrong instead of "must match exactly one schema in oneOf";
 * - `nullable` becomes a union with null; `example`, `discriminator` and `deprecated` are dropped;
 * - every object steward owns refuses unknown members (`unevaluatedProperties: false`): a typo is an error;
 * - a builder config may name its source (`source: Logs`) instead of giving `sourceId`; steward resolves the
 *   name per environment, so `sourceId` is required only when `source` is absent.
 */
import { readFileSync } from 'node:fs';

export const TILE_CONFIG_SPEC = 'test/fixtures/contracts/openapi/hyperdx-openapi.2026-08-21.dc29d57f.json';
const ROOTS = ['TileConfig', 'FilterInput'];

type Json = Record<string, unknown>;

export function tileConfigDefs(rootUrl: URL): Record<string, unknown> {
  const spec = JSON.parse(readFileSync(new URL(TILE_CONFIG_SPEC, rootUrl), 'utf8')) as { components: { schemas: Record<string, Json> } };
  const all = spec.components.schemas;
  const names = closure(all, ROOTS);
  const inAllOf = new Set<string>();
  for (const n of names)
    for (const part of (all[n]!['allOf'] as Json[] | undefined) ?? []) if (typeof part['$ref'] === 'string') inAllOf.add(refName(part['$ref']));
  const defs: Record<string, unknown> = {};
  for (const n of [...names].sort()) {
    const s = convert(all[n]!) as Json;
    const dispatcher = all[n]!['discriminator'] !== undefined;
    const isObject = s['properties'] !== undefined || s['allOf'] !== undefined;
    if (isObject && !dispatcher && !inAllOf.has(n)) {
      s['type'] = 'object';
      s['unevaluatedProperties'] = false;
    }
    allowSourceName(s);
    defs[n] = s;
  }
  defs['SeriesNumberFormat'] = seriesNumberFormat(defs['NumberFormat'] as Json);
  return defs;
}

/**
 * A series' numberFormat: the config form's, but for mantissa, which HyperDX 2026-01-30 (the version that
 * answers series; its NumberFormat.mantissa is a `number`) stores as sent, 2.5 included. With the config form's
 * integer, import skipped such a dashboard (the file it wrote was refused). validate asks for a whole number on
 * the profiles whose servers refuse one (tile-profile.ts).
 */
function seriesNumberFormat(numberFormat: Json): Json {
  const properties = { ...(numberFormat['properties'] as Json) };
  properties['mantissa'] = {
    type: 'number',
    description: 'Number of decimal places: a whole number for HyperDX 2026-08 and ClickStack; HyperDX 2026-01-30 takes and keeps any number.',
  };
  return { ...numberFormat, properties };
}

function closure(all: Record<string, Json>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const n = queue.pop()!;
    if (seen.has(n)) continue;
    if (!all[n]) throw new Error(`${TILE_CONFIG_SPEC}: no component ${n}`);
    seen.add(n);
    JSON.stringify(all[n], (k, v) => {
      if (k === '$ref' && typeof v === 'string') queue.push(refName(v));
      return v;
    });
  }
  return seen;
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/**
 * `inline`: an object schema nested in a component (not the component itself, not a part of an `allOf`,
 * whose members the composed schema closes): closed with `additionalProperties: false`.
 */
function convert(node: unknown, inline = false): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, inline));
  if (!node || typeof node !== 'object') return node;
  const src = node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'example' || k === 'examples' || k === 'discriminator' || k === 'deprecated' || k === 'nullable') continue;
    if (k === '$ref') out[k] = `#/$defs/${refName(v as string)}`;
    else if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, convert(s, true)]));
    else if (k === 'allOf') out[k] = (v as unknown[]).map((n) => convert(n, false));
    else if (k === 'items' || k === 'oneOf' || k === 'anyOf') out[k] = convert(v, true);
    else out[k] = convert(v, inline);
  }
  if (inline && out['properties'] !== undefined && out['additionalProperties'] === undefined) out['additionalProperties'] = false;
  const disc = src['discriminator'] as { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (
    disc?.mapping &&
    Object.keys(disc.mapping).length > 0 &&
    Array.isArray(src['oneOf']) &&
    (src['oneOf'] as Json[]).every((m) => typeof m['$ref'] === 'string')
  ) {
    const mapping = disc.mapping ?? {};
    const mapped = new Set(Object.values(mapping).map(refName));
    const rest = (src['oneOf'] as Json[]).map((m) => refName(String(m['$ref']))).filter((n) => !mapped.has(n));
    delete out['oneOf'];
    const prop = disc.propertyName;
    const keys = Object.keys(mapping);
    const chain: Json[] = keys.map((key) => ({
      if: { required: [prop], properties: { [prop]: { const: key } } },
      then: { $ref: `#/$defs/${refName(mapping[key]!)}` },
    }));
    if (rest.length === 1) {
      // The variant without a discriminator value (a builder chart: no configType) is the default.
      chain.push({ if: { not: { required: [prop], properties: { [prop]: { enum: keys } } } }, then: { $ref: `#/$defs/${rest[0]}` } });
    } else {
      out['required'] = [...new Set([...((out['required'] as string[] | undefined) ?? []), prop])];
      out['properties'] = { ...((out['properties'] as Json | undefined) ?? {}), [prop]: { enum: keys } };
    }
    out['type'] = 'object';
    out['allOf'] = chain;
  }
  if (src['nullable'] === true) {
    if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
    else if (out['$ref'] !== undefined)
      return { anyOf: [{ $ref: out['$ref'] }, { type: 'null' }], ...(out['description'] ? { description: out['description'] } : {}) };
  }
  return out;
}

/** `source: <name>` beside `sourceId`: either one, resolved per environment. */
function allowSourceName(s: Json): void {
  const visit = (o: Json) => {
    const props = o['properties'] as Json | undefined;
    if (props && props['sourceId'] !== undefined) {
      props['source'] = {
        type: 'string',
        minLength: 1,
        description: 'The data source by name (as the service lists it), resolved per environment: use it instead of sourceId.',
      };
      const req = o['required'] as string[] | undefined;
      if (req?.includes('sourceId')) {
        o['required'] = req.filter((r) => r !== 'sourceId');
        if ((o['required'] as string[]).length === 0) delete o['required'];
        o['type'] = 'object';
        o['if'] = { not: { required: ['source'] } };
        o['then'] = { required: ['sourceId'] };
      }
    }
    for (const part of (o['allOf'] as Json[] | undefined) ?? []) visit(part);
  };
  visit(s);
}
