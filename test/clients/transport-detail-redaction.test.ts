/**
 * A transport error's detail (Node's message: a TLS altname, a proxy's reason) is redacted before it is cut
 * to one line, so a secret across the cut is not half shown.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRedactor } from '../../src/clients/redact.ts';
import { transportError } from '../../src/clients/transport-errors.ts';

const SECRET = 'Zq8vKx2mP4nR7tW1yB5cD9fG3hJ6kL0aSe';

for (const at of [150, 180, 190, 199, 205]) {
  test(`the secret starting at character ${at} of the message is never shown, whole or in part`, () => {
    const message = `${'x'.repeat(at)}${SECRET} and more text after it`;
    const e = transportError(
      { timeoutMs: 1000, idleTimeoutMs: 1000, credentialHint: undefined, clean: createRedactor([SECRET]) },
      { method: 'GET', path: '/api/v2/dashboards', host: '127.0.0.1' },
      { kind: 'transport', error: new Error(message), code: 'ERR_TLS_CERT_ALTNAME_INVALID', failure: 'tls', sent: false, ms: 1 },
      1,
      undefined,
    );
    assert.not.ok(e.message.includes(SECRET.slice(0, 6)), e.message);
  });
}

test.run();
