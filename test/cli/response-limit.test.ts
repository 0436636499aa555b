/** The response limit (issue 15): from the heap by default, STEWARD_MAX_RESPONSE_MIB when set, checked, and capped where Node must stop. */
import { constants } from 'node:buffer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { maxResponseBytes } from '../../src/cli/deps.ts';
import { CliError } from '../../src/errors.ts';

const MiB = 1048576;
const MOST = Math.floor(constants.MAX_STRING_LENGTH / MiB);

test('unset or empty: a tenth of the heap limit, from 64 MiB up to what Node can read in one string; a number of MiB: that many bytes', () => {
  const cases: Array<[string, Record<string, string>, number, number]> = [
    ['node 20 default heap on 16 GiB or more (4144 MiB)', {}, 4144 * MiB, 414 * MiB],
    ['empty counts as unset', { STEWARD_MAX_RESPONSE_MIB: '' }, 4144 * MiB, 414 * MiB],
    ['a 2 GiB heap', {}, 2048 * MiB, 204 * MiB],
    ['a small heap never goes below 64 MiB', {}, 256 * MiB, 64 * MiB],
    ['a big heap stops at the longest string', {}, 16384 * MiB, MOST * MiB],
    ['set: that many MiB, whatever the heap', { STEWARD_MAX_RESPONSE_MIB: '256' }, 256 * MiB, 256 * MiB],
    ['set: a fraction of a MiB', { STEWARD_MAX_RESPONSE_MIB: '0.5' }, 4144 * MiB, 524288],
  ];
  for (const [label, env, heap, want] of cases) assert.is(maxResponseBytes(env, heap), want, label);
  // This process's own heap limit when none is given.
  assert.ok(maxResponseBytes({}) >= 64 * MiB);
});

test('not a positive number, or more than Node can read in one string: one clear error', () => {
  for (const bad of ['abc', '0', '-3', 'Infinity', String(Math.ceil(constants.MAX_STRING_LENGTH / 1048576) + 1)]) {
    try {
      maxResponseBytes({ STEWARD_MAX_RESPONSE_MIB: bad });
      assert.unreachable(`accepted ${bad}`);
    } catch (e) {
      assert.instance(e, CliError);
      assert.match((e as Error).message, /^STEWARD_MAX_RESPONSE_MIB is /);
      assert.not.match((e as Error).message, /\n/);
    }
  }
});

test.run();
