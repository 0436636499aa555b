/** leftoverCopies: which of a killed run's creates the next apply removes (table-driven, pure). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { JournalEntry, JournalLine, SendEntry } from '../../src/apply/journal.ts';
import { linkSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alertsOurs, dashboardsOurs, leftoverCopies, readJournalText } from '../../src/apply/leftover.ts';

const M = 'managed-by:steward';
const OLD = '6ae6810749ef752e67aaf97f';
const MINE = '6ae6812249ef752e67aaf997';
const THIRD = '6ae6813049ef752e67aaf9a0';
const SINCE = '2026-11-27T10:00:00.000Z';
const create = (id: string, at = '2026-11-27T10:00:01.000Z'): JournalEntry => ({
  at,
  run: 'r',
  op: 'dashboard.create',
  name: 'jvm',
  id,
  confirmedBy: 'response',
});
const dash = (id: string, tags = [M]) => ({ id, name: 'JVM', tags, tiles: [] });

const CASES: Array<{ name: string; entries: JournalLine[]; live: ReturnType<typeof dash>[]; pinned?: string[]; want: string[] }> = [
  { name: 'its later copy', entries: [create(MINE)], live: [dash(OLD), dash(MINE)], want: [MINE] },
  { name: 'listed newest first: the same', entries: [create(MINE)], live: [dash(MINE), dash(OLD)], want: [MINE] },
  { name: 'its copy is the oldest: nothing (the other runner removes its own)', entries: [create(OLD)], live: [dash(OLD), dash(MINE)], want: [] },
  { name: 'only one of the name', entries: [create(MINE)], live: [dash(MINE)], want: [] },
  {
    name: 'made before the killed run took the lock (an earlier run)',
    entries: [create(MINE, '2026-11-27T09:59:59.000Z')],
    live: [dash(OLD), dash(MINE)],
    want: [],
  },
  { name: 'removed by the killed run already', entries: [create(MINE), { ...create(MINE), op: 'dashboard.delete' }], live: [dash(OLD), dash(MINE)], want: [] },
  {
    name: 'entries of two runs since its lock (a journal two state files share): none',
    entries: [create(MINE), { ...create(THIRD), run: 'other' }],
    live: [dash(OLD), dash(MINE)],
    want: [],
  },
  { name: 'pinned by a file', entries: [create(MINE)], live: [dash(OLD), dash(MINE)], pinned: [MINE], want: [] },
  {
    name: "the oldest lacks the marker (someone else's): it is not a copy, so one of ours is left",
    entries: [create(MINE)],
    live: [dash(OLD, []), dash(MINE)],
    want: [],
  },
  { name: 'a third runner made one later still: only its own', entries: [create(MINE)], live: [dash(OLD), dash(MINE), dash(THIRD)], want: [MINE] },
];

// A create sent whose outcome the killed run never learned (its answer lost; killed in the settle window): only
// its send entry is there. It would have kept the oldest marked copy of the title and removed the later ones.
const send = (at = '2026-11-27T10:00:00.500Z', run = 'r'): SendEntry => ({ at, run, op: 'dashboard.send', name: 'jvm', title: 'JVM' });
const UNSETTLED: Array<{ name: string; entries: JournalLine[]; live: ReturnType<typeof dash>[]; pinned?: string[]; want: string[] }> = [
  { name: 'sent, outcome never learned: the later copy goes', entries: [send()], live: [dash(MINE), dash(OLD)], want: [MINE] },
  { name: 'sent, outcome never learned, three copies: both later ones', entries: [send()], live: [dash(THIRD), dash(OLD), dash(MINE)], want: [THIRD, MINE] },
  { name: 'sent, one copy: nothing', entries: [send()], live: [dash(MINE)], want: [] },
  { name: 'sent, the later copy pinned by a file: nothing', entries: [send()], live: [dash(OLD), dash(MINE)], pinned: [MINE], want: [] },
  { name: "sent, the later copy lacks the marker (someone else's): nothing", entries: [send()], live: [dash(OLD), dash(MINE, [])], want: [] },
  { name: 'sent before the lock (an earlier run): nothing', entries: [send('2026-11-27T09:00:00.000Z')], live: [dash(OLD), dash(MINE)], want: [] },
  { name: 'sent and then confirmed as the oldest: nothing (its own copy is known)', entries: [send(), create(OLD)], live: [dash(OLD), dash(MINE)], want: [] },
  { name: 'sent by another run too since the lock: nothing', entries: [send(), send(undefined, 'other')], live: [dash(OLD), dash(MINE)], want: [] },
];
for (const c of [...CASES, ...UNSETTLED])
  test(c.name, () => {
    const ours = dashboardsOurs(c.live, M);
    const got = leftoverCopies('dashboard', c.entries, SINCE, c.live, (d) => ours(d), new Set(c.pinned ?? []));
    assert.equal(
      got.map((x) => x.id),
      c.want,
    );
    for (const x of got) assert.equal([x.kept, x.name], [OLD, 'jvm']);
  });

const alert = (id: string, note: string) => ({ id, name: 'Slow', note }) as never;
const alertCreate = (id: string): JournalEntry => ({ ...create(id), op: 'alert.create', name: 'slow' });
for (const [name, live, want] of [
  ['alerts: its later copy, same note', [alert(OLD, M), alert(MINE, M)], [MINE]],
  ["alerts: the older one has another note (someone else's): not a copy of its", [alert(OLD, 'made in the UI'), alert(MINE, M)], []],
  ['alerts: a dashboard.create entry is not an alert of its', [alert(OLD, M), alert(THIRD, M)], []],
] as const)
  test(name, () => {
    const got = leftoverCopies('alert', [alertCreate(MINE), create(THIRD)], SINCE, live as never, alertsOurs, new Set());
    assert.equal(
      got.map((x) => `${x.kind} ${x.id} ${x.kept}`),
      want.map((id) => `alert ${id} ${OLD}`),
    );
  });

test('readJournalText: the journal itself; none, a symbolic link, or a hard link: no entries, the file behind never read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steward-leftover-'));
  try {
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, '{"op":"dashboard.create","id":"secret-line"}\n');
    const journal = join(dir, 'journal.jsonl');
    assert.is(readJournalText(journal), '', 'none yet');
    writeFileSync(journal, 'a line\n');
    assert.is(readJournalText(journal), 'a line\n');
    rmSync(journal);
    symlinkSync(outside, journal);
    assert.is(readJournalText(journal), '', 'a symbolic link is not followed');
    rmSync(journal);
    linkSync(outside, journal);
    assert.is(readJournalText(journal), '', 'a second name of another file is not read');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
