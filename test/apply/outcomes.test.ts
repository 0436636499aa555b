import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyExitCode, applyPlan } from '../../src/apply/apply.ts';
import { memoryJournal } from '../../src/apply/journal.ts';
import { createObservabilityClient } from '../../src/clients/observability.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { computePlan } from '../../src/plan/plan.ts';
import { renderApplySummary } from '../../src/render/apply.ts';
import { EXAMPLES } from '../helpers/project.ts';

test('a state file that cannot be written: the alerts are "applied, not recorded", never "failed", and the run exits 1', async () => {
  const emu = await startEmulator({ seed: 3 });
  try {
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: emu.env, cwd: EXAMPLES }, {});
    const client = createObservabilityClient({ url: emu.url, token: emu.env.STEWARD_OBS_TOKEN, requestsPerMinute: 6000 });
    const live = await client.listDashboards();
    const plan = computePlan({
      resources: loaded.resources,
      live,
      state: { formatVersion: 1, alerts: {} },
      markerTag: 'managed-by:steward',
      now: new Date(),
      projectDir: EXAMPLES,
    });
    const journal = memoryJournal();
    const r = await applyPlan(
      {
        client,
        journal,
        saveState: () => {
          throw new Error('cannot write .steward/state.json: ENOSPC');
        },
        now: () => new Date(),
        emit: () => {},
      },
      plan,
      { formatVersion: 1, alerts: {} },
      { concurrency: 2, runId: 'r', freshLive: live },
    );
    assert.is(r.created.length, 3);
    assert.equal(r.failed, []);
    assert.is(r.notRecorded.length, 4);
    assert.is(r.updated.length, 0, 'not counted as updated and not recorded at once');
    assert.match(r.notRecorded[0]!.error, 'ENOSPC');
    assert.is(journal.entries.filter((e) => e.op === 'alert.update').length, 4, 'the journal still has every confirmed write');
    assert.is(applyExitCode(r), 1);
    assert.match(renderApplySummary(r, { color: false }), '4 applied, not recorded');
  } finally {
    await emu.close();
  }
});

test('a journal that cannot be written does not cut the run short: every write is done, each unjournalled one is named', async () => {
  const emu = await startEmulator({ seed: 4 });
  try {
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: emu.env, cwd: EXAMPLES }, {});
    const client = createObservabilityClient({ url: emu.url, token: emu.env.STEWARD_OBS_TOKEN, requestsPerMinute: 6000 });
    const live = await client.listDashboards();
    const plan = computePlan({
      resources: loaded.resources,
      live,
      state: { formatVersion: 1, alerts: {} },
      markerTag: 'managed-by:steward',
      now: new Date(),
      projectDir: EXAMPLES,
    });
    const full = {
      append: () => {
        throw new Error('ENOSPC: no space left on device, write');
      },
      close: () => {},
    };
    const r = await applyPlan(
      { client, journal: full, saveState: () => {}, now: () => new Date(), emit: () => {} },
      plan,
      { formatVersion: 1, alerts: {} },
      { concurrency: 2, runId: 'r', freshLive: live },
    );
    assert.is(r.created.length, 3);
    assert.is(r.updated.length, 4);
    assert.is(r.notRecorded.length, 7);
    assert.match(r.notRecorded[0]!.error, 'not in the journal: ENOSPC');
    assert.is(applyExitCode(r), 1);
  } finally {
    await emu.close();
  }
});

/** An apply result with nothing done (each test sets what it is about). */
const NOTHING_DONE = {
  created: [],
  updated: [],
  deleted: [],
  failed: [],
  skipped: [],
  unknown: [],
  duplicates: [],
  notRecorded: [],
  renamed: [],
  notDone: [],
  interrupted: false,
  unchanged: 0,
  state: { formatVersion: 1 as const, alerts: {} },
};

test('exit codes: 0 all done, 3 blocked items left, 1 anything failed or unknown, 130 interrupted', () => {
  const base = { ...NOTHING_DONE, unchanged: 1, blocked: 0 };
  assert.is(applyExitCode(base), 0);
  assert.is(applyExitCode({ ...base, blocked: 2 }), 3);
  assert.is(applyExitCode({ ...base, blocked: 2, unknown: [{ kind: 'Dashboard', name: 'x', error: 'e' }] }), 1);
  assert.is(applyExitCode({ ...base, duplicates: [{ name: 'x', ids: ['a', 'b'] }] }), 1);
  assert.is(applyExitCode({ ...base, renamed: [{ kind: 'Dashboard', action: 'create', name: 'x', id: 'a', sent: 'X ', stored: 'X' }] }), 1);
  assert.is(applyExitCode({ ...base, interrupted: true }), 130);
});

test('the blocked line agrees in number with its count, as the plan says it', () => {
  const base = NOTHING_DONE;
  for (const [blocked, line] of [
    [1, '1 blocked item needs a person'],
    [2, '2 blocked items need a person'],
  ] as const) {
    assert.match(renderApplySummary({ ...base, blocked }, { color: false }), line);
  }
});

test.run();
