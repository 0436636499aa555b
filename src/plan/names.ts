/**
 * Names instead of ids across environments: a tile config or a dashboard filter may say `source: Logs`,
 * and steward puts the id of the source with that name in this environment in its place. Pure: the lists
 * come in (read once per plan, only when some file uses a name), resolved copies and problems go out.
 */
import { sourceSlots as specSourceSlots } from '../model/dashboard.ts';
import type { AnyResource } from '../model/resource.ts';
import { didYouMean, hintBudget } from '../schema/did-you-mean.ts';
import { listSome } from '../shared/text.ts';

export interface Named {
  /** Optional in the services' specs (a source's id in HyperDX 2026-08). */
  id?: string;
  name?: string;
  /** A source's kind (`log`, `trace`, `metric`, `session`...), where the list gives it. */
  kind?: unknown;
}

export interface NameProblem {
  file: string;
  index: number;
  pointer: string;
  message: string;
}

type Obj = Record<string, unknown>;

/** Every place a dashboard names a source: tile configs and filters. */
function sourceSlots(r: AnyResource): Array<{ pointer: string; holder: Obj }> {
  return r.kind === 'Dashboard' ? specSourceSlots(r.doc.spec) : [];
}

export function usesSourceNames(resources: readonly AnyResource[]): boolean {
  // A dashboard the parse cache answered says so in its facts, without its document being read.
  return resources.some((r) => (r.kind === 'Dashboard' && r.facts ? r.facts.sourceNames : sourceSlots(r).length > 0));
}

/** Every place an alert names a webhook: `channel.webhook` and `channels[].webhook`. */
function webhookSlots(r: AnyResource): Array<{ pointer: string; holder: Obj }> {
  if (r.kind !== 'Alert') return [];
  const out: Array<{ pointer: string; holder: Obj }> = [];
  const c = r.doc.spec.channel as Obj | undefined;
  if (c && typeof c['webhook'] === 'string') out.push({ pointer: '/spec/channel/webhook', holder: c });
  ((r.doc.spec.channels ?? []) as Obj[]).forEach((ch, i) => {
    if (typeof ch['webhook'] === 'string') out.push({ pointer: `/spec/channels/${i}/webhook`, holder: ch });
  });
  return out;
}

export function usesWebhookNames(resources: readonly AnyResource[]): boolean {
  return resources.some((r) => webhookSlots(r).length > 0);
}

/** Copies with every `webhook: <name>` replaced by `webhookId: <id>`; unknown names are problems. */
export function resolveWebhookNames(resources: readonly AnyResource[], webhooks: readonly Named[]): { resources: AnyResource[]; problems: NameProblem[] } {
  const resolved = resolveSlots(resources, webhooks, webhookSlots, 'webhook', 'webhookId', 'webhook');
  // A name that resolves to an id the list already has: HyperDX refuses duplicate channels (AlertChannels).
  resources.forEach((r, n) => {
    const before = r.kind === 'Alert' ? (r.doc.spec.channels as Obj[] | undefined) : undefined;
    const after = (resolved.resources[n] as AnyResource & { kind: 'Alert' }).doc.spec.channels as Obj[] | undefined;
    if (!before || !after) return;
    const first = new Map<unknown, number>();
    after.forEach((c, j) => {
      const id = c['webhookId'];
      if (typeof id !== 'string') return;
      const i = first.get(id);
      if (i === undefined) return void first.set(id, j);
      const name = before[j]?.['webhook'] ?? before[i]?.['webhook'];
      if (typeof name !== 'string') return; // two ids in the file: validate's
      const at = typeof before[j]?.['webhook'] === 'string' ? j : i;
      resolved.problems.push({
        file: r.file,
        index: r.index,
        pointer: `/spec/channels/${at}/webhook`,
        message: `webhook ${JSON.stringify(name)} is ${id}, which channel ${at === j ? i : j} already lists; the service refuses an alert that lists a webhook twice`,
      });
    });
  });
  return resolved;
}

/**
 * Copies of the resources with every `source: <name>` replaced by `sourceId: <id>`; a name that no source
 * has (or that two sources share) is a problem at its file and pointer, with a did-you-mean.
 */
export function resolveSourceNames(resources: readonly AnyResource[], sources: readonly Named[]): { resources: AnyResource[]; problems: NameProblem[] } {
  const resolved = resolveSlots(resources, sources, sourceSlots, 'source', 'sourceId', 'source');
  // A heatmap reads a trace source only: the spec's HeatmapChartConfig says it "currently supports trace sources",
  // and the server refuses another kind with a 400 ("Heatmap tiles require a Trace source"). The list says
  // each source's kind, so a name of another kind is this file's problem, found before anything is sent.
  const kindOf = new Map<string, unknown>();
  const seen = new Set<string>();
  for (const s of sources) {
    if (typeof s.name !== 'string') continue;
    // A name two sources share is already a problem (give sourceId): no kind is told for it.
    if (seen.has(s.name)) kindOf.delete(s.name);
    else if (typeof s.id === 'string') kindOf.set(s.name, s.kind);
    seen.add(s.name);
  }
  resources.forEach((r) => {
    if (r.kind !== 'Dashboard') return;
    (r.doc.spec.tiles ?? []).forEach((t, i) => {
      const c = t.config as Obj | undefined;
      const name = c?.['source'];
      if (c?.['displayType'] !== 'heatmap' || typeof name !== 'string') return;
      const kind = kindOf.get(name);
      if (typeof kind !== 'string' || kind === 'trace') return;
      resolved.problems.push({
        file: r.file,
        index: r.index,
        pointer: `/spec/tiles/${i}/config/source`,
        message: `source "${name}" is a ${kind} source; a heatmap tile reads a trace source only (the service refuses it: "Heatmap tiles require a Trace source")`,
      });
    });
  });
  return resolved;
}

function resolveSlots(
  resources: readonly AnyResource[],
  named: readonly Named[],
  slots: (r: AnyResource) => Array<{ pointer: string; holder: Obj }>,
  nameKey: string,
  idKey: string,
  what: string,
): { resources: AnyResource[]; problems: NameProblem[] } {
  const byName = new Map<string, Named[]>();
  // The service's spec may leave a source's id (or name) out: such an entry resolves nothing.
  for (const s of named) {
    if (typeof s.name !== 'string') continue;
    // Pushed in place: a copy per entry was quadratic in a server's many entries of one name.
    const same = byName.get(s.name);
    if (same) same.push(s);
    else byName.set(s.name, [s]);
  }
  const problems: NameProblem[] = [];
  const hints = hintBudget();
  const names = [...byName.keys()];
  const sortedNames = names.slice().sort();
  const out = resources.map((r) => {
    if (slots(r).length === 0) return r;
    const copy = { ...r, doc: structuredClone(r.doc) } as AnyResource;
    for (const slot of slots(copy)) {
      const name = slot.holder[nameKey] as string;
      const found = byName.get(name) ?? [];
      if (found.length === 1 && typeof found[0]!.id !== 'string') {
        problems.push({
          file: r.file,
          index: r.index,
          pointer: slot.pointer,
          message: `the service lists the ${what} "${name}" without an id: give ${idKey} instead`,
        });
        continue;
      }
      if (found.length === 1) {
        delete slot.holder[nameKey];
        slot.holder[idKey] = found[0]!.id;
        continue;
      }
      const hint = didYouMean(name, names, hints);
      problems.push({
        file: r.file,
        index: r.index,
        pointer: slot.pointer,
        message:
          found.length > 1
            ? `${found.length} ${what}s are named "${name}" (${listSome(found.map((s) => String(s.id)))}): give ${idKey} instead`
            : `no ${what} named "${name}" on this service${hint ? `; did you mean "${hint}"?` : named.length ? ` (its ${what}s: ${listSome(sortedNames)})` : ` (it has no ${what}s)`}`,
      });
    }
    return copy;
  });
  return { resources: out, problems };
}
