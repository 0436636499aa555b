/**
 * The live dashboards as the plan reads them: each one's text for the fingerprint, and the digest of its
 * normalized form for computePlan, from the live memo (src/config/live-memo.ts) or computed here. A cold
 * plan of a large project computes the digests of the project's own dashboards while the files are still
 * being parsed on worker threads (issue 15), a slice at a time so the workers' answers are not held up.
 */
import type { LiveMemo, LiveMemoEntry } from '../config/live-memo.ts';
import { dashboardText, liveFingerprint } from '../plan/fingerprint.ts';
import { normalDigest, normalizeLive } from '../plan/normalize.ts';
import type { LiveDigestMemo } from '../plan/plan.ts';
import type { LiveDashboardInput, StateFile } from '../plan/types.ts';

export interface LiveSide {
  /**
   * fingerprintLive of the list: the dashboards `prepare` went through were hashed then, from the text their
   * memo key was made of, so each dashboard is written as JSON once per plan (issue 15).
   */
  fingerprint(live: readonly LiveDashboardInput[], state: StateFile, liveAlerts?: ReadonlyArray<{ id: string }>): string;
  /** What computePlan asks: a digest remembered or prepared for this dashboard, once per dashboard. */
  liveMemo: LiveDigestMemo;
  /**
   * Normalizes the dashboards that carry the marker tag (the ones this project's files are compared with)
   * and that the memo does not answer, `pause()` between slices; stops at `stop()`, leaving the rest to
   * computePlan.
   */
  prepare(live: readonly LiveDashboardInput[], pause: () => Promise<void>): Promise<void>;
  stop(): void;
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
  // The fingerprint as far as `prepare` got, and the list it is of.
  let hashed: { live: readonly LiveDashboardInput[]; f: ReturnType<typeof liveFingerprint> } | undefined;
  return {
    liveMemo,
    fingerprint(live, state, liveAlerts) {
      const f = hashed?.live === live ? hashed.f : liveFingerprint(live);
      // Taken once: a second call hashes the list afresh.
      hashed = undefined;
      return f.finish(state, liveAlerts, textOf);
    },
    stop: () => void (stopped = true),
    async prepare(live, pause) {
      if (stopped) return;
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
  };
}
