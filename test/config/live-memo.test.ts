/**
 * The live memo (issue 15): what normalizing each live dashboard gave, keyed by its JSON text, so a warm
 * plan does not normalize an unchanged service again. Whatever the memo file holds, the plan is the one
 * computed without it; only the work done differs (hits, misses, entries stored).
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CACHE_DIR } from '../../src/config/cache.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { MEMO_FILE, openLiveMemo } from '../../src/config/live-memo.ts';
import type { AnyResource, Resource } from '../../src/model/resource.ts';
import { rememberBodyDigest } from '../../src/clients/body-digest.ts';
import { canonicalJson, dashboardText, fingerprintHolds, fingerprintLive, legacyFingerprint } from '../../src/plan/fingerprint.ts';
import { desiredDigest } from '../../src/plan/normalize.ts';
import { computePlan } from '../../src/plan/plan.ts';
import type { LiveDashboardInput, Plan } from '../../src/plan/types.ts';
import { bindLiveMemo } from '../../src/workflows/live-side.ts';
import { lazyList, lazyListParsed, type LiveSummary } from '../../src/clients/lazy-list.ts';
import { existsSync } from 'node:fs';
import { dashboard, DIR, emptyState, liveOf, MARKER, NOW } from '../plan/fixtures.ts';
import { tmpProject } from '../helpers/tmp.ts';

const KEY = randomBytes(32);
const OTHER_KEY = randomBytes(32);
const IDENTITY = 'code-now';
const RESOURCES: AnyResource[] = ['d1', 'd2', 'd3'].map((n) => dashboard(n));
const IDS = ['65f5e4a3b9e77c001a000001', '65f5e4a3b9e77c001a000002', '65f5e4a3b9e77c001a000003'];

/** The live list as the client gives it (parsed JSON), with a field normalization leaves out. */
function liveList(change?: (d: LiveDashboardInput, i: number) => void): LiveDashboardInput[] {
  const list = ['d1', 'd2', 'd3'].map((n, i) => liveOf(n, IDS[i]!, { updatedAt: '2026-11-20T10:00:00Z' } as Partial<LiveDashboardInput>));
  list.forEach((d, i) => change?.(d, i));
  return JSON.parse(JSON.stringify(list)) as LiveDashboardInput[];
}
/** d2's first tile is wider on the server than in its file. */
const drifted = () =>
  liveList((d, i) => {
    if (i === 1) d.tiles![0]!.w = 12;
  });

interface Run {
  plan: Plan;
  stats: { hits: number; misses: number; stored: number };
}

/** A plan as the workflow makes it with the memo of `dir` (opened, bound, saved). */
function planWith(
  dir: string,
  live: LiveDashboardInput[],
  o: {
    key?: Buffer;
    identity?: string;
    marker?: string;
    resources?: AnyResource[];
    body?: string;
    save?: { whole?: ReadonlySet<string>; safe?: (text: string) => boolean };
  } = {},
): Run {
  const marker = o.marker ?? MARKER;
  // As the client records it for a list it parsed (src/clients/body-digest.ts).
  if (o.body !== undefined) rememberBodyDigest(live, o.body);
  const memo = openLiveMemo(nodeFileSystem, dir, {}, { key: o.key ?? KEY, identity: o.identity ?? IDENTITY })!;
  const side = bindLiveMemo(memo, marker);
  const { liveMemo } = side;
  const plan = computePlan({
    resources: o.resources ?? RESOURCES,
    live,
    state: emptyState,
    markerTag: marker,
    now: NOW,
    projectDir: DIR,
    fingerprint: side.fingerprint(live, emptyState),
    ...(liveMemo ? { liveMemo } : {}),
  });
  side.save(o.save);
  return { plan, stats: { ...memo.stats } };
}

/** The plan without any memo. */
const reference = (live: LiveDashboardInput[], marker = MARKER, resources = RESOURCES) =>
  computePlan({ resources, live, state: emptyState, markerTag: marker, now: NOW, projectDir: DIR });

const memoPath = (dir: string) => join(dir, CACHE_DIR, MEMO_FILE);

/** A memo that says d2 (drifted) matches its file, authenticated with `key`: a lie, if anything trusted it. */
function forgeLie(dir: string, key: Buffer): void {
  const memo = openLiveMemo(nodeFileSystem, dir, {}, { key, identity: IDENTITY })!;
  const d2 = drifted()[1]!;
  const spec = (RESOURCES[1] as Resource<'Dashboard'>).doc.spec;
  memo.set(memo.keyOf(dashboardText(d2), MARKER), { digest: desiredDigest(spec, MARKER)!, ignored: ['id', 'tiles[].id', 'updatedAt'] });
  memo.save();
}

interface Case {
  name: string;
  /** What is in the project's memo before the plan. */
  before?: (dir: string) => void;
  live: () => LiveDashboardInput[];
  marker?: string;
  stats: Run['stats'];
  actions: string[];
  /** Whether the plan leaves the memo file's bytes as they were. */
  unchangedFile?: boolean;
}

const CASES: Case[] = [
  {
    name: 'miss: no memo yet, every dashboard normalized and stored',
    live: liveList,
    stats: { hits: 0, misses: 3, stored: 3 },
    actions: ['noop', 'noop', 'noop'],
  },
  {
    name: 'hit: the same live dashboards again, nothing normalized, the file not written',
    before: (dir) => planWith(dir, liveList()),
    live: liveList,
    stats: { hits: 3, misses: 0, stored: 0 },
    actions: ['noop', 'noop', 'noop'],
    unchangedFile: true,
  },
  {
    name: 'changed live dashboard: a miss for it, its drift found',
    before: (dir) => planWith(dir, liveList()),
    live: drifted,
    stats: { hits: 2, misses: 1, stored: 1 },
    actions: ['blocked', 'noop', 'noop'],
  },
  {
    name: 'the file changed, the live dashboard not: remembered, then diffed in full',
    before: (dir) => planWith(dir, drifted()),
    live: drifted,
    stats: { hits: 3, misses: 0, stored: 0 },
    actions: ['blocked', 'noop', 'noop'],
  },
  {
    name: 'forged: a lie authenticated with another key is ignored',
    before: (dir) => forgeLie(dir, OTHER_KEY),
    live: drifted,
    stats: { hits: 0, misses: 3, stored: 3 },
    actions: ['blocked', 'noop', 'noop'],
  },
  {
    name: 'forged: an honest memo with its body edited after it was written is ignored',
    before: (dir) => {
      planWith(dir, drifted());
      const spec = (RESOURCES[1] as Resource<'Dashboard'>).doc.spec;
      const text = readFileSync(memoPath(dir), 'utf8');
      const nl = text.indexOf('\n');
      // Every digest in the body becomes d2's desired one (the lie); the header keeps its code.
      const body = text.slice(nl + 1).replace(/sha256:[0-9a-f]{64}/g, desiredDigest(spec, MARKER)!);
      writeFileSync(memoPath(dir), text.slice(0, nl + 1) + body);
    },
    live: drifted,
    stats: { hits: 0, misses: 3, stored: 3 },
    actions: ['blocked', 'noop', 'noop'],
  },
  {
    name: 'stale code: a memo written by other code is ignored',
    before: (dir) => planWith(dir, liveList(), { identity: 'code-before' }),
    live: liveList,
    stats: { hits: 0, misses: 3, stored: 3 },
    actions: ['noop', 'noop', 'noop'],
  },
  {
    name: 'different project, another marker tag: no entry answers',
    before: (dir) => {
      const other = tmpProject({});
      try {
        planWith(other.dir, liveList(), { marker: 'managed-by:team-b' });
        mkdirSync(join(dir, CACHE_DIR), { recursive: true });
        cpSync(memoPath(other.dir), memoPath(dir));
      } finally {
        other.cleanup();
      }
    },
    live: liveList,
    stats: { hits: 0, misses: 3, stored: 3 },
    actions: ['noop', 'noop', 'noop'],
  },
  {
    name: "different project, same marker tag: its entries hold (they name no project) and the plan is this one's",
    before: (dir) => {
      const other = tmpProject({});
      try {
        planWith(other.dir, drifted());
        mkdirSync(join(dir, CACHE_DIR), { recursive: true });
        cpSync(memoPath(other.dir), memoPath(dir));
      } finally {
        other.cleanup();
      }
    },
    live: liveList,
    stats: { hits: 2, misses: 1, stored: 1 },
    actions: ['noop', 'noop', 'noop'],
  },
];

for (const c of CASES) {
  test(`live memo: ${c.name}`, () => {
    const p = tmpProject({});
    try {
      c.before?.(p.dir);
      const bytesBefore = c.unchangedFile ? readFileSync(memoPath(p.dir)) : undefined;
      const live = c.live();
      const run = planWith(p.dir, live, c.marker ? { marker: c.marker } : {});
      assert.equal(run.plan, reference(live, c.marker), 'the same plan as without a memo');
      assert.equal(run.stats, c.stats);
      assert.equal(
        run.plan.items.map((i) => i.action),
        c.actions,
      );
      if (bytesBefore) assert.ok(readFileSync(memoPath(p.dir)).equals(bytesBefore), 'memo file rewritten');
      // And the next plan of the same live state needs no normalizing at all.
      const again = planWith(p.dir, live, c.marker ? { marker: c.marker } : {});
      assert.equal(again.plan, run.plan);
      assert.equal(again.stats, { hits: 3, misses: 0, stored: 0 });
    } finally {
      p.cleanup();
    }
  });
}

test('live memo: the forged lie would change the plan if it were trusted (the cases above test something)', () => {
  const p = tmpProject({});
  try {
    forgeLie(p.dir, OTHER_KEY);
    const trusted = planWith(p.dir, drifted(), { key: OTHER_KEY });
    assert.equal(
      trusted.plan.items.map((i) => i.action),
      ['noop', 'noop', 'noop'],
    );
    assert.equal(
      reference(drifted()).items.map((i) => i.action),
      ['blocked', 'noop', 'noop'],
    );
  } finally {
    p.cleanup();
  }
});

test('live memo: a live value JSON.stringify writes as null (1e999, parsed as Infinity) never gets the answer for null', () => {
  // GIVEN a dashboard with a filter, whose live copy carries a member the file leaves out, which the server
  // first sends as null (one steward's schema knows: an unknown one is not compared at all)
  const filter = { type: 'QUERY_EXPRESSION', name: 'Environment', expression: 'environment' };
  const resources = [dashboard('d1')];
  Object.assign((resources[0] as Resource<'Dashboard'>).doc.spec, { filters: [filter] });
  const liveWith = (extra: string): LiveDashboardInput[] =>
    JSON.parse(
      `[${JSON.stringify(liveOf('d1', IDS[0]!, { filters: [{ ...filter, id: 'f1' }] } as never)).replace('"expression":"environment"', `"expression":"environment","appliesToSourceIds":${extra}`)}]`,
    );
  const p = tmpProject({});
  try {
    const first = planWith(p.dir, liveWith('null'), { resources });
    assert.equal(
      first.plan.items.map((i) => i.action),
      ['noop'],
    );
    assert.equal(first.stats, { hits: 0, misses: 1, stored: 1 });
    // WHEN the server then sends 1e999 in its place
    const live = liveWith('1e999');
    const second = planWith(p.dir, live, { resources });
    // THEN the memo does not answer, the plan is the one computed without it (drift found), and a plan
    // saved against the null answer is stale
    assert.equal(second.stats.hits, 0);
    assert.equal(second.plan, reference(live, MARKER, resources));
    assert.equal(
      second.plan.items.map((i) => i.action),
      ['blocked'],
    );
    assert.is.not(second.plan.fingerprint, first.plan.fingerprint);
  } finally {
    p.cleanup();
  }
});

test('live memo: entries are pruned to the dashboards of the last plan', () => {
  const p = tmpProject({});
  try {
    planWith(p.dir, liveList());
    planWith(p.dir, drifted());
    const text = readFileSync(memoPath(p.dir), 'utf8');
    const count = Number(text.slice(0, text.indexOf('\n')).split(' ')[3]);
    assert.is(count, 3);
  } finally {
    p.cleanup();
  }
});

test('fingerprint: format 3 is the live digest (slices of the list) and then the alert records; format 2 still holds for saved plans', () => {
  const live = Array.from({ length: 2345 }, (_, i) => liveOf(`d${i}`, i.toString(16).padStart(24, '0')));
  const slices = (tag: string) => {
    const h = createHash('sha256').update(tag);
    for (let i = 0; i < live.length; i += 1000) h.update(JSON.stringify(live.slice(i, i + 1000))).update('\u0000');
    return h;
  };
  // Format 2 (plans saved before it): JSON.stringify of each slice of 1,000 dashboards in id order, then the alert records.
  const v2 = `sha256:${slices('live/2[').update(']\u0000').update(canonicalJson(emptyState.alerts)).digest('hex')}`;
  // Format 3: the same slices hashed alone (the live digest the memo keeps per body), then the alert records.
  const liveDigest = slices('live/3[').update(']').digest('hex');
  const v3 = `sha256:${createHash('sha256').update(`fingerprint/3\u0000${liveDigest}\u0000`).update(canonicalJson(emptyState.alerts)).digest('hex')}`;
  const texts: string[] = [];
  const withTexts = fingerprintLive([...live].reverse(), emptyState, undefined, (d) => {
    const t = dashboardText(d);
    texts.push(t);
    return t;
  });
  assert.is(withTexts, v3);
  assert.is(fingerprintLive(live, emptyState), v3);
  assert.is(texts.length, live.length);
  assert.is(legacyFingerprint([...live].reverse(), emptyState), v2);
  // A plan saved with either format holds for this list, and for no other.
  const changed = live.map((d, i) => (i === 7 ? { ...d, name: 'renamed' } : d));
  for (const saved of [v2, v3]) {
    assert.ok(fingerprintHolds(saved, fingerprintLive(live, emptyState), live, emptyState));
    assert.not.ok(fingerprintHolds(saved, fingerprintLive(changed, emptyState), changed, emptyState));
  }
});

test('body memo: a list whose body the memo knows is answered whole: no dashboard looked up, the same plan and fingerprint', () => {
  const p = tmpProject({});
  try {
    // GIVEN a plan of a list the client parsed from body A (a cold memo: every dashboard normalized)
    const cold = planWith(p.dir, liveList(), { body: 'seed:A' });
    assert.is(cold.stats.misses, 3);
    assert.match(readFileSync(memoPath(p.dir), 'utf8'), /"bodies":\{"[\w-]+":/);
    // WHEN the next plan's list comes from the same bytes (parsed again: other objects)
    const live = liveList();
    const warm = planWith(p.dir, live, { body: 'seed:A' });
    // THEN nothing was asked of the entries, and the plan is the one computed without any memo
    assert.equal(warm.stats, { hits: 0, misses: 0, stored: 0 });
    assert.equal(warm.plan, reference(live));
    assert.is(warm.plan.fingerprint, fingerprintLive(live, emptyState));

    // WHEN the service changed (other bytes): the entries kept through the body hit answer the unchanged dashboards
    const d = drifted();
    const changed = planWith(p.dir, d, { body: 'seed:B' });
    assert.equal(changed.stats, { hits: 2, misses: 1, stored: 1 });
    assert.equal(changed.plan, reference(d));
    assert.is(changed.plan.fingerprint, fingerprintLive(d, emptyState));

    // WHEN the same body comes under another marker tag, or from a list the client did not parse (no digest)
    const other = planWith(p.dir, drifted(), { body: 'seed:B', marker: 'other-marker' });
    assert.equal(other.plan, reference(drifted(), 'other-marker'));
    assert.ok(other.stats.misses > 0, 'a body entry answered for another marker tag');
    const bare = planWith(p.dir, drifted());
    assert.equal(bare.plan, reference(drifted()));
    assert.ok(bare.stats.hits + bare.stats.misses > 0, 'a list without a body digest was answered as a body');
  } finally {
    p.cleanup();
  }
});

/** What the memo of `dir` knows of body `digest` (a fresh open, as the next plan's client asks it). */
const knownOf = (dir: string, digest: string, marker = MARKER) =>
  bindLiveMemo(openLiveMemo(nodeFileSystem, dir, {}, { key: KEY, identity: IDENTITY }), marker).known(digest);
/** Which dashboards of body A the memo of `dir` keeps whole, by place. */
const keptWhole = (dir: string) => knownOf(dir, 'seed:A')!.map((x) => x.whole !== undefined);

test('body memo: the list is kept as summaries (whole where asked), and a plan of them parses nothing unless it must', () => {
  const p = tmpProject({});
  try {
    // GIVEN a plan of body A that names d2 as read whole (an alert is on it)
    planWith(p.dir, liveList(), { body: 'seed:A', save: { whole: new Set([IDS[1]!]) } });
    const summaries = knownOf(p.dir, 'seed:A')!;
    assert.equal(
      summaries.map((x) => [x.id, x.name, x.tags, x.whole !== undefined]),
      liveList().map((d, i) => [d.id, d.name, d.tags, i === 1]),
    );
    assert.equal(summaries[1]!.whole, liveList()[1]);
    assert.is(knownOf(p.dir, 'seed:B'), undefined);
    assert.is(knownOf(p.dir, 'seed:A', 'other-marker'), undefined);
    // WHEN the next plan's list is made of them (as the client does for body A)
    const lazyOf = (s: readonly LiveSummary[], list: LiveDashboardInput[]) => {
      const l = lazyList(s, () => list);
      rememberBodyDigest(l, 'seed:A');
      return l;
    };
    const lazy = lazyOf(summaries, liveList());
    const warm = planWith(p.dir, lazy, { body: 'seed:A' });
    // THEN the same plan as without any memo, with the body never parsed
    assert.equal(warm.plan, reference(liveList()));
    assert.is(lazyListParsed(lazy), false);
    // WHEN d1's file differs from the (same) live list: d1 is read, so the body is parsed; the plan is the reference
    const changed = RESOURCES.map((r, i) => (i === 0 ? dashboard('d1', { tags: ['team:b'] }) : r));
    const lazy2 = lazyOf(summaries, liveList());
    const run = planWith(p.dir, lazy2, { body: 'seed:A', resources: changed, save: { whole: new Set([IDS[0]!]) } });
    assert.equal(run.plan, reference(liveList(), MARKER, changed));
    assert.is(lazyListParsed(lazy2), true);
    // ... and the memo now keeps d1 whole (what that plan read), so the next one need not parse
    assert.equal(keptWhole(p.dir), [true, false, false]);
  } finally {
    p.cleanup();
  }
});

test('body memo: a dashboard JSON cannot say exactly (1e999 read as Infinity) is never kept whole', () => {
  const p = tmpProject({});
  try {
    const live = liveList();
    (live[1] as unknown as Record<string, unknown>)['threshold'] = Infinity;
    planWith(p.dir, live, { body: 'seed:A', save: { whole: new Set(IDS) } });
    // Written whole it would come back with null: it stays a stand-in, read from the body when needed
    assert.equal(keptWhole(p.dir), [true, false, true]);
  } finally {
    p.cleanup();
  }
});

test('body memo: what the service sent is never written when it holds a secret (summaries left out, or no memo)', () => {
  const p = tmpProject({});
  try {
    const secret = 'Dash d2';
    const safe = (text: string) => !text.includes(`"${secret}"`);
    // GIVEN a service whose dashboard names hold a secret: the body's summaries are left out, the rest is written
    planWith(p.dir, liveList(), { body: 'seed:A', save: { safe } });
    const text = readFileSync(memoPath(p.dir), 'utf8');
    assert.not.match(text, `"${secret}"`);
    // the body entry: its live digest and its dashboards' digests by place, and no third member (summaries)
    assert.match(text, /"bodies":\{"[\w-]+":\["[0-9a-f]{64}",\[(\[\d+,"sha256:[0-9a-f]{64}",\d+\],?)+\]\]\}\}/);
    assert.is(knownOf(p.dir, 'seed:A'), undefined);
    // The body's live digest is still remembered: no dashboard is looked up
    const warm = planWith(p.dir, liveList(), { body: 'seed:A' });
    assert.equal(warm.stats, { hits: 0, misses: 0, stored: 0 });
    // WHEN not even the rest may be written: no memo at all
    const q = tmpProject({});
    try {
      planWith(q.dir, liveList(), { body: 'seed:A', save: { safe: () => false } });
      assert.not.ok(existsSync(memoPath(q.dir)));
    } finally {
      q.cleanup();
    }
  } finally {
    p.cleanup();
  }
});

test('body memo: a forged body entry (the memo rewritten without the key) is ignored', () => {
  const p = tmpProject({});
  try {
    planWith(p.dir, liveList(), { body: 'seed:A' });
    // GIVEN the memo rewritten by someone without the key: the body entry says the drifted list is the old one
    const path = memoPath(p.dir);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/sha256:[0-9a-f]{64}/g, 'sha256:' + '0'.repeat(64)));
    // THEN a plan of body A is computed afresh, and is the reference
    const live = liveList();
    const run = planWith(p.dir, live, { body: 'seed:A' });
    assert.equal(run.plan, reference(live));
    assert.is(run.stats.misses, 3);
  } finally {
    p.cleanup();
  }
});

test('live side: the fingerprint, hashed as prepare goes (none, part, all of the list), is fingerprintLive', async () => {
  const live = Array.from({ length: 2345 }, (_, i) => ({ ...liveOf(`d${i}`, (i * 7919).toString(16).padStart(24, '0')), ...(i % 3 ? {} : { tags: [] }) }));
  const want = fingerprintLive(live, emptyState, [{ id: 'a1' }]);
  for (const pauses of [0, 1, 7, Infinity]) {
    const p = tmpProject({});
    try {
      const memo = openLiveMemo(nodeFileSystem, p.dir, {}, { key: KEY, identity: IDENTITY })!;
      const side = bindLiveMemo(memo, MARKER);
      let n = 0;
      // The workers finish after `pauses` slices: the plan stops the preparing there.
      if (pauses > 0) await side.prepare(live, async () => void (++n >= pauses && side.stop()));
      else side.stop();
      assert.is(side.fingerprint(live, emptyState, [{ id: 'a1' }]), want, `after ${pauses} pauses`);
      // Asked again, or for another list than the one prepared: hashed whole.
      assert.is(side.fingerprint(live, emptyState, [{ id: 'a1' }]), want, `again after ${pauses} pauses`);
      const other = live.slice(1);
      assert.is(side.fingerprint(other, emptyState), fingerprintLive(other, emptyState));
    } finally {
      p.cleanup();
    }
  }
});

test.run();
