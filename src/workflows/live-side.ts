/**
 * The live dashboards as the plan reads them: the digest of the list for the fingerprint, and the digest of
 * each one's normalized form for computePlan, from the live memo (src/config/live-memo.ts) or computed here.
 *
 * - A list whose body is the one the memo remembers (the same bytes from the same API) is answered whole:
 *   its live digest and its dashboards' entries, with no dashboard written as JSON (issue 15).
 * - Any other list is hashed dashboard by dashboard, each one's text keying its memo entry. A cold plan of a
 *   large project does that while the files are still being parsed on worker threads, a slice at a time so
 *   the workers' answers are not held up.
 */
import { bodyDigestOf } from '../clients/body-digest.ts';
import { lazyListParsed, summaryOf, type LiveSummary } from '../clients/lazy-list.ts';
import type { LiveMemo, LiveMemoEntry, MemoSaved } from '../config/live-memo.ts';
import { dashboardText, fingerprintOf, liveFingerprint } from '../plan/fingerprint.ts';
import { normalDigest, normalizeLive } from '../plan/normalize.ts';
import type { LiveDigestMemo } from '../plan/plan.ts';
import type { LiveDashboardInput, StateFile } from '../plan/types.ts';

export interface LiveSide {
  /** fingerprintLive of the list, from the memo's body entry or from what `prepare` hashed already. */
  fingerprint(live: readonly LiveDashboardInput[], state: StateFile, liveAlerts?: ReadonlyArray<{ id: string }>): string;
  /** The live digest `fingerprint` used (src/plan/fingerprint.ts), once it was called. */
  readonly liveDigest: string | undefined;
  /** What computePlan asks: a digest remembered or prepared for this dashboard, once per dashboard. */
  liveMemo: LiveDigestMemo;
  /**
   * Normalizes the dashboards that carry the marker tag (the ones this project's files are compared with)
   * and that the memo does not answer, `pause()` between slices; stops at `stop()`, leaving the rest to
   * computePlan.
   */
  prepare(live: readonly LiveDashboardInput[], pause: () => Promise<void>): Promise<void>;
  stop(): void;
  /**
   * Records what this plan learned of the list in the memo and writes it. Never throws. `whole`: ids of the
   * live dashboards whose tiles the plan reads anyway (the alerts' dashboards), kept whole in the memo so that
   * the next plan of the same list need not parse it (lazy-list.ts). `safe`: see LiveMemo.save.
   */
  save(opts?: { whole?: ReadonlySet<string>; safe?: (text: string) => boolean }): MemoSaved | 'off';
  /**
   * What the memo knows of a list body by its digest: its dashboards' summaries, for the client to build
   * the list without parsing it (`ListDashboardsOptions.known`). Undefined when the memo does not know it.
   */
  known(bodyDigest: string): readonly LiveSummary[] | undefined;
}

/** Dashboards prepared between two pauses: ~10 ms of work, short next to a worker's batch. */
const SLICE = 100;

export function bindLiveMemo(memo: LiveMemo | undefined, markerTag: string): LiveSide {
  const keys = new Map<LiveDashboardInput, string>();
  // Asked of the memo or computed here: so each dashboard is looked up in the memo at most once.
  const known = new Map<LiveDashboardInput, LiveMemoEntry | undefined>();
  let stopped = false;
  const textOf = (d: LiveDashboardInput) => {
    const text = dashboardText(d);
    if (memo && !keys.has(d)) keys.set(d, memo.keyOf(text, markerTag));
    return text;
  };
  const liveMemo: LiveDigestMemo = {
    get: (d) => {
      if (known.has(d)) return known.get(d);
      const k = keys.get(d);
      const e = k === undefined ? undefined : memo?.get(k);
      known.set(d, e);
      return e;
    },
    set: (d, entry) => {
      known.set(d, entry);
      const k = keys.get(d);
      if (memo && k !== undefined) memo.set(k, entry);
    },
  };
  /** The list this side works on, its body's memo key and what the memo holds for it. */
  let list: { live: readonly LiveDashboardInput[]; key: string | undefined; hit: boolean } | undefined;
  const bind = (live: readonly LiveDashboardInput[]) => {
    if (list?.live === live) return list;
    const digest = bodyDigestOf(live);
    const key = memo && digest !== undefined ? memo.bodyKeyOf(digest, markerTag) : undefined;
    const remembered = key === undefined ? undefined : memo!.getBody(key);
    if (remembered) {
      // The same bytes parse to the same list: each place holds the dashboard it held then.
      for (const [i, e] of remembered.entries) if (i < live.length) known.set(live[i]!, e);
      liveDigest = remembered.liveDigest;
    }
    list = { live, key, hit: remembered !== undefined };
    return list;
  };
  // The live digest as far as `prepare` got, and the list it is of.
  let hashed: { live: readonly LiveDashboardInput[]; f: ReturnType<typeof liveFingerprint> } | undefined;
  let liveDigest: string | undefined;
  return {
    liveMemo,
    get liveDigest() {
      return liveDigest;
    },
    fingerprint(live, state, liveAlerts) {
      const b = bind(live);
      if (!b.hit) liveDigest = (hashed?.live === live ? hashed.f : liveFingerprint(live)).digest(textOf);
      return fingerprintOf(liveDigest!, state, liveAlerts);
    },
    stop: () => void (stopped = true),
    async prepare(live, pause) {
      if (stopped || bind(live).hit) return;
      const f = liveFingerprint(live);
      hashed = { live, f };
      // In the fingerprint's order, so that each dashboard's text is made once: hashed, and keyed in the memo.
      const order = f.order;
      for (let i = 0; i < order.length && !stopped; i++) {
        const d = order[i]!;
        f.hashUpTo(i + 1, textOf);
        if (Array.isArray(d.tags) && d.tags.includes(markerTag) && liveMemo.get(d) === undefined) {
          const { normal, ignored } = normalizeLive(d, markerTag);
          const digest = normalDigest(normal);
          if (digest !== undefined) liveMemo.set(d, { digest, ignored });
        }
        if (i % SLICE === SLICE - 1) await pause();
      }
    },
    known(bodyDigest) {
      if (!memo) return undefined;
      return memo.getBody(memo.bodyKeyOf(bodyDigest, markerTag))?.summaries;
    },
    save({ whole = new Set(), safe } = {}) {
      if (!memo) return 'off';
      // A list remembered, but read beyond what the memo kept of it (the alerts are on other dashboards now):
      // remembered again, with what this plan read.
      const reread = list?.hit === true && lazyListParsed(list.live) === true;
      if (list && (!list.hit || reread) && list.key !== undefined && liveDigest !== undefined) {
        const entries = new Map<number, LiveMemoEntry>();
        const summaries: LiveSummary[] = [];
        let all = true;
        list.live.forEach((d, i) => {
          const e = known.get(d);
          if (e) entries.set(i, e);
          const s = all ? summaryOf(d, whole.has(d.id)) : undefined;
          if (s) summaries.push(s);
          else all = false;
        });
        memo.setBody(list.key, { liveDigest, entries, ...(all ? { summaries } : {}) });
      }
      return memo.save(safe);
    },
  };
}
