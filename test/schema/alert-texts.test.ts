/**
 * An alert's name and message as the live APIs (hyperdx, clickstack-cloud) take them. The spec leaves both open
 * (`type: string, nullable`), but HyperDX's server reads them with its alertSchema: name 1 to 512 characters,
 * message 1 to 4,096. A file's `message: ""` passed validate; the emulator (which follows the spec) stored it
 * and answered it, and as the plan reads an empty message as none, every plan after apply showed
 * `+ message: ""` again; the real server refused the update with a 400. validate refuses both now.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { alertResource, semanticErrors } from '../helpers/resource.ts';

const alert = alertResource;
const errors = semanticErrors;

for (const api of ['hyperdx', 'clickstack-cloud']) {
  test(`${api}: name 1-512 and message 1-4,096 characters`, () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, []],
      [{ message: 'm' }, []],
      [{ name: 'n'.repeat(512), message: 'm'.repeat(4096) }, []],
      [{ message: '' }, [`/spec/message: message is empty; the ${api} API takes 1 to 4,096 characters: leave message out for none`]],
      [{ message: 'm'.repeat(4097) }, [`/spec/message: message is 4097 characters long; the ${api} API takes 1 to 4,096 characters`]],
      [{ name: 'n'.repeat(513) }, [`/spec/name: name is 513 characters long; the ${api} API takes 1 to 512 characters`]],
    ];
    for (const [spec, expected] of cases) assert.equal(errors(alert(spec), api), expected, JSON.stringify(spec).slice(0, 60));
  });
}

test('seed: not bounded here (the seed document says nothing of them)', () => {
  assert.equal(
    errors(alert({ message: '' }), 'seed').filter((e) => e.includes('message')),
    [],
  );
});

test.run();
