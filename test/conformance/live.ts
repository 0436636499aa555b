/**
 * Shared by the conformance runs of the live profiles (hyperdx, clickstack-cloud): what the mock's service
 * "has" (sources, webhooks, dashboards, read straight from prism), and the example project bound to it.
 *
 * The examples name their sources and webhooks (`source: Logs`, `webhook: ops-pager`), as a project does for
 * one environment; a mock is another environment, whose names are the spec's examples (static) or generated
 * strings. `bindProject` rewrites each name in a copy to one the mock lists (the same name always to the same
 * one), or, when the mock lists none with an id (sparse answers), to an id (`sourceId:`/`webhookId:`): that
 * is what a user does for a new environment, and it keeps name resolution itself under test.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, stringify } from 'yaml';
import type { PrismServer } from '../helpers/prism.ts';

export const ORG = '6f1c4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c';
export const SVC = '9a2b4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c';
/** Used where no listed source or webhook has an id. */
export const FALLBACK_ID = '65f5e4a3b9e77c001a111111';

export interface LiveProfile {
  api: 'hyperdx' | 'clickstack-cloud';
  /** The path every resource is under. */
  base: string;
  envelope: 'data' | 'result';
  /** Authorization header for direct reads. */
  auth: string;
  /** Extra environment for steward (clickstack ids). */
  env: Record<string, string>;
}

export const HYPERDX: LiveProfile = { api: 'hyperdx', base: '/api/v2', envelope: 'data', auth: 'Bearer conformance-token', env: {} };
export const CLICKSTACK: LiveProfile = {
  api: 'clickstack-cloud',
  base: `/v1/organizations/${ORG}/services/${SVC}/clickstack`,
  envelope: 'result',
  auth: `Basic ${Buffer.from('conformance-key-id:conformance-key-secret').toString('base64')}`,
  env: { STEWARD_CLICKSTACK_ORGANIZATION_ID: ORG, STEWARD_CLICKSTACK_SERVICE_ID: SVC },
};

export interface Named {
  id?: unknown;
  name?: unknown;
  tags?: unknown;
}

/** One GET against the mock, outside steward (the server's request log is cleared by the runner). */
export async function readList(server: PrismServer, p: LiveProfile, path: string): Promise<Named[]> {
  const res = await fetch(server.url + p.base + path, { headers: { authorization: p.auth, accept: 'application/json' } });
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const list = body?.[p.envelope];
  return Array.isArray(list) ? (list.filter((x) => x && typeof x === 'object') as Named[]) : [];
}

/** Names that exactly one listed entry with an id carries. */
function usable(list: Named[]): string[] {
  const names = list.filter((x) => typeof x.id === 'string' && typeof x.name === 'string').map((x) => x.name as string);
  const all = list.map((x) => x.name);
  return names.filter((n) => all.indexOf(n) === all.lastIndexOf(n));
}

export function readProject(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const f = join(d, e);
      if (statSync(f).isDirectory()) walk(f);
      else out[relative(dir, f)] = readFileSync(f, 'utf8');
    }
  };
  walk(dir);
  return out;
}

export interface Bound {
  files: Record<string, string>;
  /** Example name → what it became (a listed name, or `id:<id>`). */
  sources: Record<string, string>;
  webhooks: Record<string, string>;
}

/** The example project with its source and webhook names bound to what the mock lists. */
export async function bindProject(server: PrismServer, p: LiveProfile, dir: string): Promise<Bound> {
  const [sources, webhooks] = await Promise.all([readList(server, p, '/sources'), readList(server, p, '/webhooks')]);
  const s = usable(sources);
  const w = usable(webhooks);
  const sm: Record<string, string> = {};
  const wm: Record<string, string> = {};
  const pick = (m: Record<string, string>, list: string[], n: string): string => (m[n] ??= list.length ? list[Object.keys(m).length % list.length]! : `id:${FALLBACK_ID}`);
  const put = (key: string, idKey: string, v: string): string => (v.startsWith('id:') ? `${idKey}: ${JSON.stringify(v.slice(3))}` : `${key}: ${JSON.stringify(v)}`);
  const files = Object.fromEntries(
    Object.entries(readProject(dir)).map(([f, t]) => [
      f,
      f.endsWith('.yaml') && !f.startsWith('cloud/')
        ? t
            .replace(/\bsource: (Logs|Traces|Metrics)\b/g, (_, n: string) => put('source', 'sourceId', pick(sm, s, n)))
            .replace(/\bwebhook: ([\w-]+)/g, (_, n: string) => put('webhook', 'webhookId', pick(wm, w, n)))
        : t,
    ]),
  );
  return { files, sources: sm, webhooks: wm };
}

/** Rewrites one YAML file's (first) document. */
export function editYaml(text: string, edit: (doc: any) => void): string {
  const doc = parse(text);
  edit(doc);
  return stringify(doc, { lineWidth: 0 });
}

/** Sets `markerTag:` in a steward.yaml text. */
export function withMarkerTag(projectYaml: string, tag: string): string {
  return projectYaml.replace(/markerTag: .*/, `markerTag: ${JSON.stringify(tag)}`);
}
