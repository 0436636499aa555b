/**
 * An alert's schedule as the live APIs (hyperdx, clickstack-cloud) take it. validate passed what the
 * contract or the server refuses, and apply then failed on it:
 * - scheduleStartAt without seconds (2026-02-08T10:00Z) or on a day that does not exist: the spec's
 *   `format: date-time` refuses both (a prism mock of HyperDX 2026-08 answered the PUT with 422);
 * - scheduleStartAt with an offset (+02:00): the spec allows it, but HyperDX reads the member with zod's
 *   `datetime()`, which takes UTC (`Z`) only, and answers 400;
 * - scheduleOffsetMinutes not inside the interval (5 with 5m): the spec says only "offset from the interval
 *   boundary"; HyperDX's server refuses it ("must be less than 5 minutes", validateAlertScheduleOffsetMinutes).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { alertResource, semanticErrors } from '../helpers/resource.ts';

const alert = alertResource;
const errors = semanticErrors;

/** The contract's own check of the member (`type: string, format: date-time`), as prism runs it. */
const ajv = new Ajv();
addFormats.default(ajv);
const contractDateTime = ajv.compile({ type: 'string', format: 'date-time' });

const NOT_VALID = 'is not a valid time (no such day or hour, or not a date and time); expected a UTC time with seconds, like 2026-02-08T10:00:00Z';
const CASES: Array<[string, string | undefined]> = [
  ['2026-02-08T10:00:00Z', undefined],
  ['2026-02-08T10:00:00.000Z', undefined],
  ['2026-02-08T10:00:00.5Z', undefined],
  ['2026-02-08T10:00Z', 'takes a UTC time with seconds (Z, no offset); this instant is 2026-02-08T10:00:00Z'],
  ['2026-02-08T11:00:00+02:00', 'takes a UTC time with seconds (Z, no offset); this instant is 2026-02-08T09:00:00Z'],
  ['2026-02-08T10:00:00.5-05:30', 'takes a UTC time with seconds (Z, no offset); this instant is 2026-02-08T15:30:00.500Z'],
  ['2026-02-30T10:00:00Z', NOT_VALID],
  ['2026-02-08T24:00:00Z', NOT_VALID],
  ['2026-02-08T10:60:00Z', NOT_VALID],
  ['2026-02-08', NOT_VALID],
  ['2026-02-08 10:00:00Z', NOT_VALID],
  ['tomorrow', NOT_VALID],
];

for (const api of ['hyperdx', 'clickstack-cloud']) {
  test(`${api}: scheduleStartAt is refused unless UTC with seconds, naming the same instant in that form`, () => {
    for (const [value, why] of CASES) {
      const got = errors(alert({ scheduleStartAt: value }), api);
      if (why === undefined) {
        assert.equal(got, [], value);
        // What validate lets through is what the contract takes.
        assert.ok(contractDateTime(value), `${value} breaks the contract's date-time`);
      } else {
        const expected = why.startsWith('takes') ? `scheduleStartAt "${value}": the ${api} API ${why}` : `scheduleStartAt "${value}" ${why}`;
        assert.equal(got, [`/spec/scheduleStartAt: ${expected}`], value);
      }
    }
  });

  test(`${api}: scheduleOffsetMinutes must be inside the interval`, () => {
    const cases: Array<[string, number, boolean]> = [
      ['1m', 0, true],
      ['1m', 1, false],
      ['5m', 4, true],
      ['5m', 5, false],
      ['15m', 14, true],
      ['1h', 60, false],
      ['1d', 1439, true],
      ['1d', 1440, false],
    ];
    for (const [interval, offset, ok] of cases) {
      const got = errors(alert({ interval, scheduleOffsetMinutes: offset }), api);
      const minutes = { '1m': 1, '5m': 5, '15m': 15, '1h': 60, '1d': 1440 }[interval]!;
      const expected = ok
        ? []
        : [
            `/spec/scheduleOffsetMinutes: scheduleOffsetMinutes ${offset} is not inside the ${interval} interval; the ${api} API takes 0 to ${minutes - 1} with it`,
          ];
      assert.equal(got, expected, `${interval} ${offset}`);
    }
    // An interval the API does not take is said once, at interval.
    assert.equal(errors(alert({ interval: '10m', scheduleOffsetMinutes: 30 }), api).length, 1);
  });
}

test.run();
