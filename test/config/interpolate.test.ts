import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpolateString } from '../../src/config/interpolate.ts';

const env = { URL: 'https://obs.example', EMPTY: '', N: '50' };

const cases: Array<{ name: string; input: string; value?: string; error?: string }> = [
  { name: 'no reference', input: 'plain', value: 'plain' },
  { name: 'whole value', input: '${URL}', value: 'https://obs.example' },
  { name: 'inside text', input: 'at ${URL}/api', value: 'at https://obs.example/api' },
  { name: 'two references', input: '${N}-${N}', value: '50-50' },
  { name: 'default used when unset', input: '${NOPE:-fallback}', value: 'fallback' },
  { name: 'default used when empty', input: '${EMPTY:-fallback}', value: 'fallback' },
  { name: 'empty default', input: 'a${NOPE:-}b', value: 'ab' },
  { name: 'set value wins over default', input: '${N:-7}', value: '50' },
  { name: 'escaped', input: 'cost $${N}', value: 'cost ${N}' },
  { name: 'a lone dollar', input: 'price $5', value: 'price $5' },
  { name: 'unset without default', input: '${NOPE}', error: 'environment variable NOPE is not set' },
  // empty counts as unset, and says so: a CI secret the job cannot see arrives as an empty variable, and "is
  // not set" sent people looking for a variable that `env` showed them was there
  {
    name: 'empty counts as unset',
    input: '${EMPTY}',
    error: 'environment variable EMPTY is set but empty (an empty value counts as unset; use ${EMPTY:-default} for a fallback)',
  },
  { name: 'unterminated', input: 'x ${URL', error: 'unterminated' },
  { name: 'bad name', input: '${1A}', error: 'is not a variable reference' },
  { name: 'empty name', input: '${}', error: 'is not a variable reference' },
];

for (const c of cases) {
  test(c.name, () => {
    const r = interpolateString(c.input, env);
    if (c.error) {
      assert.is(r.ok, false);
      if (!r.ok) assert.ok(r.message.includes(c.error), r.message);
    } else {
      assert.equal(r, { ok: true, value: c.value, changed: c.input.includes('${') });
    }
  });
}

test.run();
