/**
 * The cloud API's times are ISO 8601 (`date-time`): the report reads only that, and a time without an offset
 * as UTC on every machine. Date.parse read one as the machine's local time (a backup 14 hours staler on a
 * laptop in Kiritimati than in CI), `1` as 2001 and `2026-02-30` as March 2nd.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkBackups } from '../../src/report/check-backups.ts';
import { parseTime } from '../../src/report/order.ts';

const FAR_ZONES = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata'];
const zoned = <T>(tz: string, f: () => T): T => {
  const was = process.env['TZ'];
  process.env['TZ'] = tz;
  try {
    return f();
  } finally {
    if (was === undefined) delete process.env['TZ'];
    else process.env['TZ'] = was;
  }
};

const cases: Array<[string, string | undefined]> = [
  ['2026-03-01T06:00:00Z', '2026-03-01T06:00:00.000Z'],
  ['2026-03-01T06:00:00', '2026-03-01T06:00:00.000Z'],
  ['2026-03-01 06:00:00', '2026-03-01T06:00:00.000Z'],
  ['2026-03-01T06:00', '2026-03-01T06:00:00.000Z'],
  ['2026-03-01', '2026-03-01T00:00:00.000Z'],
  ['2026-03-01T06:00:00.123456Z', '2026-03-01T06:00:00.123Z'],
  ['2026-03-01T06:00:00+05:30', '2026-03-01T00:30:00.000Z'],
  ['2026-03-01T06:00:00+0530', '2026-03-01T00:30:00.000Z'],
  ['2026-03-01T06:00:00-10', '2026-03-01T16:00:00.000Z'],
  ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ['1', undefined],
  ['12', undefined],
  ['March 1, 2026', undefined],
  ['2026-02-30T00:00:00Z', undefined],
  ['2023-02-29T00:00:00Z', undefined],
  ['2026-03-01T24:00:00Z', undefined],
  ['2026-13-01T00:00:00Z', undefined],
  ['', undefined],
];

for (const tz of ['UTC', ...FAR_ZONES]) {
  test(`parseTime reads ISO 8601 only, and a time without an offset as UTC (TZ=${tz})`, () => {
    zoned(tz, () => {
      for (const [text, want] of cases) {
        const t = parseTime(text);
        assert.is(t === undefined ? undefined : new Date(t).toISOString(), want, JSON.stringify(text));
      }
    });
  });
}

test('backup.stale says the same in every time zone for a time the server sent without an offset', () => {
  const now = new Date('2026-03-02T06:00:00Z');
  const backups = [{ id: 'b1', status: 'done', startedAt: '2026-03-01T05:00:00', finishedAt: '2026-03-01T06:00:00' }];
  const utc = zoned('UTC', () => checkBackups({ maxAgeHours: 30 }, backups, now));
  assert.equal(utc, [], 'finished 24h ago: fresh');
  for (const tz of FAR_ZONES)
    assert.equal(
      zoned(tz, () => checkBackups({ maxAgeHours: 30 }, backups, now)),
      utc,
      tz,
    );
});

test.run();
