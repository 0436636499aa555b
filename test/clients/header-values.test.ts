/**
 * A credential (or an extra header) that an HTTP header cannot carry is refused when the client is made, in
 * one line naming where it comes from and never the value; node:http would refuse it at every request, naming
 * only "authorization". A Basic credential is base64 and always fits.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHttp, type HttpAuth } from '../../src/clients/http.ts';
import { CliError } from '../../src/errors.ts';

const rows: Array<{ what: string; auth: HttpAuth; headers?: Record<string, string>; says: RegExp | undefined }> = [
  {
    what: 'a token with a line break',
    auth: { type: 'bearer', token: 'abc\ndef-SECRET' },
    says: /^the token in STEWARD_OBS_TOKEN holds a character an HTTP header cannot carry/,
  },
  { what: 'a token with a carriage return', auth: { type: 'bearer', token: 'abc\rdef-SECRET' }, says: /^the token in STEWARD_OBS_TOKEN holds/ },
  { what: 'a token with a NUL', auth: { type: 'bearer', token: 'abc\u0000def-SECRET' }, says: /^the token in STEWARD_OBS_TOKEN holds/ },
  { what: 'a token with DEL', auth: { type: 'bearer', token: 'abc\u007fdef-SECRET' }, says: /^the token in STEWARD_OBS_TOKEN holds/ },
  { what: 'a token with a tab and Latin-1', auth: { type: 'bearer', token: 'abc\tcaf\u00e9-SECRET' }, says: undefined },
  { what: 'a Basic password with a line break', auth: { type: 'basic', username: 'k', password: 'p\nq-SECRET' }, says: undefined },
  {
    what: 'an extra header with a line break',
    auth: { type: 'none' },
    headers: { 'x-team': 'a\nb-SECRET' },
    says: /^the value of the header "x-team" holds a character an HTTP header cannot carry/,
  },
];

for (const r of rows) {
  test(`${r.what}: ${r.says ? 'refused up front' : 'accepted'}`, () => {
    const make = () =>
      createHttp({
        prefixUrl: 'http://127.0.0.1:9',
        auth: r.auth,
        credentialHint: 'the token in STEWARD_OBS_TOKEN',
        ...(r.headers ? { headers: r.headers } : {}),
      });
    if (!r.says) return void make();
    try {
      make();
      assert.unreachable('accepted');
    } catch (e) {
      assert.instance(e, CliError);
      assert.match((e as Error).message, r.says);
      assert.not.ok((e as Error).message.includes('SECRET'), 'the value is never shown');
    }
  });
}

test.run();
