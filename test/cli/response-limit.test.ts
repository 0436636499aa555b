/** STEWARD_MAX_RESPONSE_MIB (issue 15): the response limit is configurable, checked, and capped where Node must stop. */
import { constants } from 'node:buffer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { maxResponseBytes } from '../../src/cli/deps.ts';
import { CliError } from '../../src/errors.ts';

test('unset or empty: the client default (64 MiB); a number of MiB: that many bytes', () => {
  assert.is(maxResponseBytes({}), undefined);
  assert.is(maxResponseBytes({ STEWARD_MAX_RESPONSE_MIB: '' }), undefined);
  assert.is(maxResponseBytes({ STEWARD_MAX_RESPONSE_MIB: '256' }), 256 * 1048576);
  assert.is(maxResponseBytes({ STEWARD_MAX_RESPONSE_MIB: '0.5' }), 524288);
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
