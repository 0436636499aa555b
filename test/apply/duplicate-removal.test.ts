/**
 * Removing this run's own copy of a dashboard another runner made at the same time (checkDuplicates with
 * removeOwn): a DELETE whose answer was lost and whose retry is answered 404 removed the copy all the same, as
 * a prune's does (red team, round 11); a 404 on the first try (someone else removed it) is still a failure.
 * In-process, against a fake client.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkDuplicates } from '../../src/apply/duplicates.ts';
import { memoryJournal } from '../../src/apply/journal.ts';
import type { ApplyDeps, ApplyResult } from '../../src/apply/types.ts';
import { NotFoundError } from '../../src/clients/errors.ts';
import type { ItemOf } from '../../src/plan/types.ts';

const item = { kind: 'Dashboard', action: 'create', name: 'checkout', body: { name: 'Checkout', tags: [], tiles: [] } } as unknown as ItemOf<
  'Dashboard',
  'create'
>;

function run(deleteError: Error | undefined) {
  const journal = memoryJournal();
  const deps = {
    client: {
      // The other runner's copy is listed first (older), this run's second.
      listDashboards: async () => [
        { id: 'theirs', name: 'Checkout', tags: ['managed-by:steward'], tiles: [] },
        { id: 'mine', name: 'Checkout', tags: ['managed-by:steward'], tiles: [] },
      ],
      deleteDashboard: async () => {
        if (deleteError) throw deleteError;
      },
    },
    journal,
    saveState: () => {},
    now: () => new Date('2026-11-27T00:00:00Z'),
    emit: () => {},
  } as unknown as ApplyDeps;
  const result = { created: [{ name: 'checkout', id: 'mine' }], updated: [], deleted: [], failed: [], unknown: [], duplicates: [] } as unknown as ApplyResult;
  return { deps, result, journal };
}

const notFound = (attempts: number) =>
  new NotFoundError('DELETE /dashboards/mine: 404 Not Found', { method: 'DELETE', path: '/dashboards/mine', status: 404, attempts } as never);

const CASES: Array<{ name: string; error: Error | undefined; removed: boolean }> = [
  { name: 'answered 2xx', error: undefined, removed: true },
  { name: 'a retry answered 404 (the first try deleted it; its answer was lost)', error: notFound(2), removed: true },
  { name: 'the first try answered 404 (someone else removed it)', error: notFound(1), removed: false },
];

for (const c of CASES) {
  test(`this run's copy: ${c.name}`, async () => {
    const { deps, result, journal } = run(c.error);
    await checkDuplicates(deps, [item], result, { removeOwn: true, runId: 'run-1', marker: 'managed-by:steward' }, new Map());
    assert.equal(result.duplicates[0]?.ids, ['theirs', 'mine']);
    assert.is(result.duplicates[0]?.removed, c.removed ? 'mine' : undefined);
    assert.is(result.failed.length, c.removed ? 0 : 1, JSON.stringify(result.failed));
    assert.equal(
      journal.entries.map((e) => `${e.op} ${e.id}`),
      c.removed ? ['dashboard.delete mine'] : [],
    );
  });
}

test.run();
