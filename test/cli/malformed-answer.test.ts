/**
 * `steward plan` (the built binary) against a server whose answer is not valid HTTP/1.1 (two Content-Length
 * fields, as a broken proxy sends them): exit 1 and one line saying so, not "the connection was closed";
 * the list is asked for once (such an answer is not retried). Under --debug, the trace line names the code
 * and the causes are printed, and still nothing of the answer's bytes.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { startRawAnswerServer } from '../clients/raw-answer-server.ts';

const BYTES =
  'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nContent-Length: 12\r\n' +
  'X-Echo: ANSWER-BYTES-5120 tok-malformed-1\r\n\r\n{"data":[]}';

async function planAgainstMalformed(args: string[]) {
  const server = await startRawAnswerServer({ bytes: BYTES });
  const p = tmpProject({});
  try {
    copyExample(p.dir);
    const env = {
      STEWARD_OBS_URL: server.url,
      STEWARD_CLOUD_URL: server.url,
      STEWARD_OBS_TOKEN: 'tok-malformed-1',
      STEWARD_CLOUD_KEY_ID: 'kid-malformed-1',
      STEWARD_CLOUD_KEY_SECRET: 'sec-malformed-1',
    };
    const r = await steward(['plan', ...args], { cwd: p.dir, env, spawn: true });
    return { ...r, port: new URL(server.url).port, requests: [...server.requests] };
  } finally {
    p.cleanup();
    await server.close();
  }
}

test('plan against an answer with two Content-Length fields: exit 1, one line naming the fault, asked once', async () => {
  const r = await planAgainstMalformed([]);
  assert.is(r.code, 1, r.stderr);
  assert.is(r.stdout, '');
  assert.is(
    r.stderr,
    `error: GET /api/v2/dashboards on 127.0.0.1:${r.port}: the server's answer is not valid HTTP/1.1 (HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length)\n`,
  );
  assert.equal(r.requests, ['GET /api/v2/dashboards HTTP/1.1']);
});

test('plan --debug against it: the trace names the code, the causes are printed, the answer’s bytes are not', async () => {
  const r = await planAgainstMalformed(['--debug']);
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, /http GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/dashboards → HPE_UNEXPECTED_CONTENT_LENGTH \(\d+ ms, attempt 1\/5\)/);
  assert.match(
    r.stderr,
    /\nerror: GET \/api\/v2\/dashboards on 127\.0\.0\.1:\d+: the server's answer is not valid HTTP\/1\.1 \(HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length\)\n/,
  );
  assert.match(r.stderr, /\nHTTPParserError: Parse Error: Duplicate Content-Length\n/);
  assert.not.match(r.stderr, /ANSWER-BYTES|tok-malformed/);
});

test.run();
