/**
 * HyperDX dashboard template (the JSON files HyperDX ships: JVM, Go, .NET, Node.js, Python runtimes,
 * browser RUM) to a steward Template. Pure: the file's parsed JSON in, YAML text and warnings out.
 *
 * HyperDX's templates are in its app's saved form; steward files use the external API v2 form (the
 * dashboard schema's `$defs`, taken from HyperDX's OpenAPI). What changes on the way:
 * - the tile's name moves from `config.name` to the tile; two tiles with one name get " (2)" (steward
 *   matches tiles by name);
 * - each source name becomes a string parameter (`Metrics` → `metricsSource`, default "Metrics"), used as
 *   `source: $(params.metricsSource)` in tiles and filters;
 * - a `service` parameter (required, the template's key) names each stamp, goes into the dashboard's name
 *   and a `service:` tag, and narrows every series to `ServiceName` (in the series' query language);
 * - the chart-level `where` and each series' `aggCondition` become the series' `where` (the API form has
 *   no chart-level filter);
 * - what the API form has no place for (granularity, containers and tabs, ids) is left out and listed.
 */
import { readFileSync } from 'node:fs';
import { Document, isMap, isSeq, type YAMLMap } from 'yaml';
import { METRIC_VALUE_EXPRESSION, metricLacksValue } from '../model/dashboard.ts';
import { packageFile } from '../shared/package-root.ts';
import { UNSAFE_BEYOND_C0 } from '../render/escape.ts';
import { yamlText } from '../render/yaml-text.ts';

type Json = Record<string, unknown>;
type Defs = Record<string, Json>;

let defsCache: Defs | undefined;
function defs(): Defs {
  defsCache ??= (JSON.parse(readFileSync(packageFile('schemas/dashboard.schema.json'), 'utf8')) as { $defs: Defs }).$defs;
  return defsCache;
}

const refName = (r: unknown) => (typeof r === 'string' ? r.slice(r.lastIndexOf('/') + 1) : undefined);

/** The keys the builder form of a displayType takes (its raw-SQL variant is not what templates use). */
function builderKeys(displayType: string): Set<string> | undefined {
  const d = defs();
  const branch = ((d['TileConfig']!['allOf'] ?? []) as Json[]).find(
    (b) =>
      ((b['if'] as Json)?.['properties'] as Json)?.['displayType'] &&
      (((b['if'] as Json)['properties'] as Json)['displayType'] as Json)['const'] === displayType,
  );
  let name = refName((branch?.['then'] as Json | undefined)?.['$ref']);
  if (!name) return undefined;
  const variants = (d[name]!['allOf'] ?? []) as Json[];
  const builder = variants.find((v) => (v['if'] as Json | undefined)?.['not'] !== undefined);
  if (builder) name = refName((builder['then'] as Json)['$ref']) ?? name;
  const keys = new Set<string>();
  const visit = (n: string | undefined, depth: number) => {
    const s = n ? d[n] : undefined;
    if (!s || depth > 4) return;
    for (const k of Object.keys((s['properties'] ?? {}) as Json)) keys.add(k);
    for (const p of (s['allOf'] ?? []) as Json[]) visit(refName(p['$ref']), depth + 1);
  };
  visit(name, 0);
  return keys;
}

const keysOf = (def: string) => new Set(Object.keys((defs()[def]?.['properties'] ?? {}) as Json));

/** `Metrics` → `metricsSource`; `My Logs` → `myLogsSource`. */
export function sourceParameter(source: string): string {
  const words = source
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  const camel = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return `${/^[A-Za-z_]/.test(camel) ? camel : `s${camel}`}Source`;
}

/** Text from the file is literal: `${` and `$(` are escaped so neither the environment nor a parameter reads it. */
function literal(v: unknown): unknown {
  if (typeof v === 'string') return v.replaceAll('${', () => '$${').replaceAll('$(', () => '$$(');
  if (Array.isArray(v)) return v.map(literal);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, literal(x)]));
  return v;
}

/** What a `#` comment line writes as an escape: control characters, and the bidirectional and invisible ones yamlText escapes. */
const COMMENT_UNSAFE = new RegExp(String.raw`[\u0000-\u001f]|${UNSAFE_BEYOND_C0.source}`, 'gu');

/**
 * Text for a `#` comment line: line breaks and other control characters written as escapes, and so are the
 * bidirectional overrides and invisible characters, which would reorder or hide the line in a review (red
 * team, round 17: the file is made from a template downloaded from the internet).
 */
function oneCommentLine(text: string): string {
  return text.replace(COMMENT_UNSAFE, (c) => {
    const cp = c.codePointAt(0)!;
    return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}

function serviceClause(language: string): string {
  return language === 'sql' ? `ServiceName = '$(params.service)'` : `ServiceName:"$(params.service)"`;
}

export interface ImportedTemplate {
  name: string;
  text: string;
  warnings: string[];
}

/**
 * Converts one HyperDX template file's JSON. `name` is the template's metadata.name; `schemaPath` goes in
 * the editor line; `sourceFile` is named in the header comment.
 */
const isJsonObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where a template's members are not of the shapes read below, or undefined. A template is a file from
 * anywhere: `tiles: [null]`, `filters: 5` or a tile without its place failed with a JavaScript message
 * (`Cannot read properties of null`, `….map is not a function`) or was called a bug in the import (red team,
 * round 18).
 */
function shapeProblem(src: Json): string | undefined {
  for (const [key, items] of [
    ['tiles', src['tiles']],
    ['filters', src['filters'] ?? []],
  ] as const) {
    if (!Array.isArray(items)) return `${key} is ${jsonKind(items)}, expected a list`;
    const bad = items.findIndex((t) => !isJsonObject(t));
    if (bad !== -1) return `${key}[${bad}] is ${jsonKind(items[bad])}, expected an object`;
  }
  if (src['tags'] !== undefined && !Array.isArray(src['tags'])) return `tags is ${jsonKind(src['tags'])}, expected a list`;
  for (const [i, tile] of (src['tiles'] as Json[]).entries()) {
    const cfg = tile['config'];
    if (cfg === undefined) continue;
    if (!isJsonObject(cfg)) return `tiles[${i}].config is ${jsonKind(cfg)}, expected an object`;
    if (!builderKeys(String(cfg['displayType'] ?? ''))) continue; // left out with a note
    for (const k of ['x', 'y', 'w', 'h']) if (!Number.isInteger(tile[k])) return `tiles[${i}].${k} is ${jsonKind(tile[k])}, expected a whole number`;
    const select = cfg['select'];
    if (select === undefined) continue;
    if (!Array.isArray(select)) return `tiles[${i}].config.select is ${jsonKind(select)}, expected a list`;
    const bad = select.findIndex((t) => !isJsonObject(t));
    if (bad !== -1) return `tiles[${i}].config.select[${bad}] is ${jsonKind(select[bad])}, expected an object`;
  }
  return undefined;
}

const jsonKind = (v: unknown): string =>
  v === undefined ? 'missing' : v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

export function importHyperdxTemplate(input: unknown, opts: { name: string; schemaPath: string; sourceFile: string }): ImportedTemplate {
  if (!input || typeof input !== 'object' || !Array.isArray((input as Json)['tiles'])) {
    throw new Error('not a HyperDX dashboard template: expected a JSON object with tiles');
  }
  const src = input as Json;
  const problem = shapeProblem(src);
  if (problem) throw new Error(`not a HyperDX dashboard template: ${problem}`);
  const warnings: string[] = [];
  const dropped = new Set<string>();
  const sources = new Map<string, string>();
  const taken = new Set<string>();
  const param = (source: unknown): string | undefined => {
    if (typeof source !== 'string' || source === '') return undefined;
    if (!sources.has(source)) {
      // `My Logs` and `My-Logs` would be one parameter: the second gets a number.
      let p = sourceParameter(source);
      for (let i = 2; taken.has(p); i++) p = `${sourceParameter(source)}${i}`;
      taken.add(p);
      sources.set(source, p);
    }
    return `$(params.${sources.get(source)})`;
  };
  const selectKeys = keysOf('SelectItem');
  const seen = new Map<string, number>();
  const tiles: Json[] = [];
  let containers = false;
  let metricValues = false;
  for (const raw of src['tiles'] as Json[]) {
    const cfg = (raw['config'] ?? {}) as Json;
    const displayType = String(cfg['displayType'] ?? '');
    const allowed = builderKeys(displayType);
    if (!allowed) {
      warnings.push(`tile "${String(cfg['name'])}": display type "${displayType}" has no API form; left out`);
      continue;
    }
    let name = typeof cfg['name'] === 'string' && cfg['name'] !== '' ? cfg['name'] : 'Untitled tile';
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n > 1) {
      warnings.push(`two tiles are named "${name}": the second is "${name} (${n})" (steward matches tiles by name)`);
      name = `${name} (${n})`;
    }
    if (raw['containerId'] !== undefined || raw['tabId'] !== undefined) containers = true;
    const config: Json = { displayType };
    const sourceRef = param(cfg['source']);
    if (sourceRef && allowed.has('source')) config['source'] = sourceRef;
    if (Array.isArray(cfg['select']) && allowed.has('select')) {
      config['select'] = (cfg['select'] as Json[]).map((item) => {
        const out: Json = {};
        for (const [k, v] of Object.entries(item)) {
          if (selectKeys.has(k)) out[k] = literal(v);
          else if (k !== 'aggCondition' && k !== 'aggConditionLanguage') dropped.add(`select[].${k}`);
        }
        if (out['aggFn'] === 'count' && out['valueExpression'] === '') delete out['valueExpression'];
        // HyperDX's API refuses an empty value expression for every aggFn but count; its own templates leave
        // it empty on metric series, whose value column is `Value`.
        if (metricLacksValue(out)) {
          out['valueExpression'] = METRIC_VALUE_EXPRESSION;
          metricValues = true;
        }
        const language = String(item['aggConditionLanguage'] ?? cfg['whereLanguage'] ?? 'lucene');
        const parts: string[] = [];
        for (const [text, lang] of [
          [cfg['where'], cfg['whereLanguage'] ?? language],
          [item['aggCondition'], item['aggConditionLanguage'] ?? language],
        ] as const) {
          if (typeof text !== 'string' || text.trim() === '') continue;
          if (lang !== language) {
            warnings.push(`tile "${name}": the ${String(lang)} condition ${JSON.stringify(text)} cannot join a ${language} one in one series; left out`);
            continue;
          }
          parts.push(literal(text) as string);
        }
        parts.push(serviceClause(language));
        out['where'] = parts.length === 1 ? parts[0] : parts.map((p, i) => (i < parts.length - 1 ? `(${p})` : p)).join(' AND ');
        out['whereLanguage'] = language;
        return out;
      });
    }
    for (const [k, v] of Object.entries(cfg)) {
      if (['name', 'displayType', 'source', 'select', 'where', 'whereLanguage'].includes(k)) continue;
      if (allowed.has(k)) config[k] = literal(v);
      else dropped.add(k);
    }
    tiles.push({ name: literal(name), x: raw['x'], y: raw['y'], w: raw['w'], h: raw['h'], config });
  }
  if (metricValues) warnings.push('metric series without a value expression read `Value` (the metric value column), which the API requires');
  if (containers) warnings.push('containers and tabs (collapsible groups) have no API form: tiles are laid out as they are, ungrouped');
  if (dropped.size) warnings.push(`left out (no API form): ${[...dropped].sort().join(', ')}`);

  const filterKeys = keysOf('FilterInput');
  const filters = ((src['filters'] ?? []) as Json[]).map((f) => {
    const out: Json = {};
    for (const [k, v] of Object.entries(f)) {
      if (k === 'source') out['source'] = param(v);
      else if (k !== 'id' && filterKeys.has(k)) out[k] = literal(v);
    }
    return out;
  });

  const parameters: Json = {
    service: { type: 'string', description: 'The service this stamp is for: names the stamp, and narrows every series to ServiceName.' },
  };
  for (const [source, p] of sources)
    parameters[p] = { type: 'string', default: literal(source), description: literal(`Name of the ${source} source in HyperDX (Team Settings › Sources).`) };
  const title = typeof src['name'] === 'string' ? src['name'] : opts.name;
  const tags = [...((src['tags'] ?? []) as unknown[]).filter((t): t is string => typeof t === 'string').map((t) => literal(t)), 'service:$(params.service)'];
  const spec: Json = { name: `${literal(title) as string} ($(params.service))`, tags, ...(filters.length ? { filters } : {}), tiles };
  const doc = new Document({
    apiVersion: 'steward/v1',
    kind: 'Template',
    metadata: { name: opts.name, ...(typeof src['description'] === 'string' ? { description: literal(src['description']) } : {}) },
    spec: { key: 'service', parameters, dashboards: [{ spec }] },
  });
  // Readable like the examples: tags on one line, each parameter on one line.
  const specNode = ((doc.get('spec') as YAMLMap).get('dashboards') as { items: YAMLMap[] }).items[0]!.get('spec') as YAMLMap;
  const tagsNode = specNode.get('tags');
  if (isSeq(tagsNode)) tagsNode.flow = true;
  const params = (doc.get('spec') as YAMLMap).get('parameters');
  if (isMap(params)) for (const p of params.items) if (isMap(p.value)) p.value.flow = true;
  const header = [
    `# yaml-language-server: $schema=${opts.schemaPath}`,
    `# Imported from HyperDX's dashboard template ${oneCommentLine(opts.sourceFile)} by \`steward import --template\`.`,
    // One comment line each: a line break in a tile's name or type would end the comment and start YAML.
    ...warnings.map((w) => `# note: ${oneCommentLine(w)}`),
  ].join('\n');
  // Through yamlText as every YAML steward writes: no bidirectional override or invisible character raw.
  return { name: opts.name, text: `${header}\n${yamlText(doc)}`, warnings };
}
