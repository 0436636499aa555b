/**
 * renameHint / alikeHints: a create whose name is alike (trimmed, case folded) a listed dashboard of the
 * project that no file declares is named, with both names and the way out; a plain rename keeps the general
 * hint alone. Pure: plans made by hand.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { alikeHints, renameHint } from '../../src/render/plan-text.ts';
import type { Plan } from '../../src/plan/types.ts';

function plan(creates: string[], orphans: Array<[string, string]>, deletes: Array<[string, string]> = []): Plan {
  return {
    formatVersion: 1,
    createdAt: '2026-11-28T00:00:00.000Z',
    fingerprint: 'sha256:' + '0'.repeat(64),
    markerTag: 'managed-by:steward/t',
    summary: { create: creates.length, update: 0, noop: 0, blocked: 0, blockedByReason: {} },
    live: { dashboards: orphans.length, managed: orphans.length, unmanaged: 0 },
    targeted: false,
    items: [
      ...creates.map((name, k) => ({ kind: 'Dashboard', name: `d${k}`, action: 'create', message: '', patch: [], body: { name, tiles: [] } })),
      ...deletes.map(([name, id]) => ({ kind: 'Dashboard', name, action: 'delete', id, message: '', patch: [] })),
    ],
    ignoredFields: [],
    ...(orphans.length ? { orphans: orphans.map(([name, id]) => ({ kind: 'Dashboard', name, id })) } : {}),
  } as unknown as Plan;
}

const cases: Array<{ what: string; plan: Plan; alike: string[] }> = [
  { what: 'a trailing space', plan: plan(['CPU '], [['CPU', 'a1']]), alike: ['d0 "CPU " "CPU" a1'] },
  { what: 'case folded', plan: plan(['cpu load'], [['CPU  Load', 'a1']]), alike: ['d0 "cpu load" "CPU  Load" a1'] },
  { what: 'a delete with --prune', plan: plan(['CPU '], [], [['CPU', 'a1']]), alike: ['d0 "CPU " "CPU" a1'] },
  { what: 'another name (a rename in the file)', plan: plan(['CPU v2'], [['CPU', 'a1']]), alike: [] },
  { what: 'no orphan', plan: plan(['CPU '], []), alike: [] },
];

for (const c of cases) {
  test(`alikeHints: ${c.what}`, () => {
    const got = alikeHints(c.plan).map((h) => {
      const m =
        /^Dashboard (\S+) is sent as ("[^"]*") and this project's ("[^"]*") \((\S+)\) is listed: .* Set its spec\.name to \3, or pin metadata\.id: \4\.$/.exec(
          h,
        );
      assert.ok(m, h);
      return `${m![1]} ${m![2]} ${m![3]} ${m![4]}`;
    });
    assert.equal(got, c.alike);
    const hint = renameHint(c.plan);
    if (c.alike.length > 0) assert.ok(hint?.startsWith('Dashboard d0 is sent as'), hint);
    else if (hint) assert.ok(hint.startsWith('A dashboard renamed in its file'), hint);
  });
}

test.run();
