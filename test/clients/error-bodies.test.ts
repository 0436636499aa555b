import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, createCloudClient, createObservabilityClient, summarizeErrorBody } from '../../src/clients/index.ts';
import { htmlToText, MAX_SERVER_MESSAGE } from '../../src/clients/error-body.ts';
import { KEY_ID, KEY_SECRET, raw, rejects, startServer, TOKEN } from './helpers.ts';

const NGINX_502 = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.25.3</center>
</body>
</html>
`;

/** Each error-body shape the clients meet, and the one line it must become. */
const CASES: Array<{ name: string; status: number; body: string; type: string; method: 'GET' | 'PUT'; expect: string | RegExp; requestId?: string }> = [
  {
    name: 'JSON {message}',
    status: 400,
    body: JSON.stringify({ message: 'threshold must be a number' }),
    type: 'application/json',
    method: 'PUT',
    expect: 'PUT /api/v2/alerts/abc → 400 Bad Request: threshold must be a number',
  },
  {
    name: 'JSON {error, message} (Express style)',
    status: 422,
    body: JSON.stringify({ error: 'Unprocessable Entity', message: 'interval: must match <n>m' }),
    type: 'application/json; charset=utf-8',
    method: 'PUT',
    expect: 'PUT /api/v2/alerts/abc → 422 Unprocessable Entity: interval: must match <n>m',
  },
  {
    name: 'JSON {errors: [...]}',
    status: 400,
    body: JSON.stringify({ errors: [{ message: 'name is required' }, { message: 'tiles[0].w must be >= 1' }] }),
    type: 'application/json',
    method: 'PUT',
    expect: 'PUT /api/v2/alerts/abc → 400 Bad Request: name is required; tiles[0].w must be >= 1',
  },
  {
    // Prism's answer to a body the spec refuses: the detail is boilerplate, the list says what was wrong.
    name: 'problem+json with a validation list (Prism)',
    status: 422,
    body: JSON.stringify({
      type: 'https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY',
      title: 'Invalid request',
      status: 422,
      detail: 'Your request is not valid and no HTTP validation response was found in the spec, so Prism is generating this error for you.',
      validation: [
        {
          location: ['body', 'tiles', '0', 'series', '0'],
          severity: 'Error',
          code: 'required',
          message: "Request body property tiles.0.series.0 must have required property 'sourceId'",
        },
        {
          location: ['body', 'tiles', '0', 'series', '0'],
          severity: 'Error',
          code: 'required',
          message: "Request body property tiles.0.series.0 must have required property 'where'",
        },
      ],
    }),
    type: 'application/problem+json',
    method: 'PUT',
    expect:
      "PUT /api/v2/alerts/abc → 422 Unprocessable Entity: Invalid request: Request body property tiles.0.series.0 must have required property 'sourceId' (and 1 more)",
  },
  {
    name: 'problem+json with invalid-params (RFC 7807)',
    status: 400,
    body: JSON.stringify({ title: "Your request parameters didn't validate.", 'invalid-params': [{ name: 'threshold', reason: 'must be a number' }] }),
    type: 'application/problem+json',
    method: 'PUT',
    expect: "PUT /api/v2/alerts/abc → 400 Bad Request: Your request parameters didn't validate: threshold: must be a number",
  },
  {
    name: 'plain text',
    status: 400,
    body: 'threshold must be a number\n',
    type: 'text/plain',
    method: 'PUT',
    expect: 'PUT /api/v2/alerts/abc → 400 Bad Request: threshold must be a number',
  },
  {
    name: 'HTML 502 page from a proxy',
    status: 502,
    body: NGINX_502,
    type: 'text/html',
    method: 'GET',
    expect: 'GET /api/v2/dashboards → 502 Bad Gateway: 502 Bad Gateway: nginx/1.25.3',
  },
  {
    name: 'truncated JSON',
    status: 500,
    body: '{"message":"database timeout while reading dash',
    type: 'application/json',
    method: 'GET',
    expect: 'GET /api/v2/dashboards → 500 Internal Server Error: {"message":"database timeout while reading dash (unparseable JSON body)',
  },
  {
    name: 'truncated JSON with a readable message',
    status: 500,
    body: '{"message":"database timeout","requestId":"r-1","stack":"at x (/srv/app.js:1',
    type: 'application/json',
    method: 'GET',
    expect: 'GET /api/v2/dashboards → 500 Internal Server Error: database timeout (unparseable JSON body) (request id r-1)',
  },
  {
    name: 'empty body',
    status: 500,
    body: '',
    type: 'text/plain',
    method: 'GET',
    expect: 'GET /api/v2/dashboards → 500 Internal Server Error',
  },
  {
    name: 'JSON with no known message field',
    status: 400,
    body: JSON.stringify({ status: 400, code: 'E_BAD', field: 'x' }),
    type: 'application/json',
    method: 'PUT',
    expect: 'PUT /api/v2/alerts/abc → 400 Bad Request: {"code":"E_BAD","field":"x"}',
  },
  {
    name: 'ANSI escapes and control characters from a hostile server are removed',
    status: 400,
    body: 'bad \u001b[31mred\u001b[0m\r\nline\u0007',
    type: 'text/plain',
    method: 'PUT',
    expect: 'PUT /api/v2/alerts/abc → 400 Bad Request: bad red line',
  },
];

for (const c of CASES) {
  test(`error body: ${c.name}`, async () => {
    const server = await startServer((_req, res) => raw(res, c.status, c.body, c.type));
    try {
      const client = createObservabilityClient({ url: server.url, token: TOKEN, retry: { limit: 1 } });
      const e = (await rejects(() => (c.method === 'PUT' ? client.updateAlert('abc', { threshold: 1 }) : client.listDashboards()))) as ApiError;
      assert.instance(e, ApiError);
      if (typeof c.expect === 'string') assert.is(e.message, c.expect);
      else assert.match(e.message, c.expect);
      assert.is(e.status, c.status);
      assert.not.match(e.message, /\n/);
    } finally {
      await server.close();
    }
  });
}

test('error body: the cloud envelope {status, error, requestId}', async () => {
  const body = { status: 400, error: 'Invalid organizationId: must be a UUID', requestId: '5b1c3e0a-4f7e-4d2a-9c1b-0e8f1a2b3c4d' };
  const server = await startServer((_req, res) => raw(res, 400, JSON.stringify(body), 'application/json'));
  try {
    const client = createCloudClient({ url: server.url, keyId: KEY_ID, keySecret: KEY_SECRET, retry: { limit: 1 } });
    const e = (await rejects(() => client.listBackups('org', 'svc'))) as ApiError;
    assert.is(
      e.message,
      'GET /v1/organizations/org/services/svc/backups → 400 Bad Request: Invalid organizationId: must be a UUID (request id 5b1c3e0a-4f7e-4d2a-9c1b-0e8f1a2b3c4d)',
    );
    assert.is(e.serverMessage, 'Invalid organizationId: must be a UUID');
    assert.is(e.requestId, body.requestId);
  } finally {
    await server.close();
  }
});

test('error body: a request id from the x-request-id header is kept', async () => {
  const server = await startServer((_req, res) => raw(res, 404, 'no such thing', 'text/plain', { 'x-request-id': 'hdr-42' }));
  try {
    const client = createObservabilityClient({ url: server.url, token: TOKEN });
    const e = (await rejects(() => client.getDashboard('x'))) as ApiError;
    assert.is(e.requestId, 'hdr-42');
    assert.match(e.message, /\(request id hdr-42\)$/);
  } finally {
    await server.close();
  }
});

test('error body: a long message is cut to ~200 characters', () => {
  const long = 'x'.repeat(5000);
  const s = summarizeErrorBody(JSON.stringify({ message: long }), 'application/json');
  assert.is(s.message.length, MAX_SERVER_MESSAGE);
  assert.ok(s.message.endsWith('…'));
  const html = summarizeErrorBody(`<html><body><p>${'word '.repeat(400)}</p></body></html>`, 'text/html');
  assert.ok(html.message.length <= MAX_SERVER_MESSAGE);
});

test('error body: a huge error body is read only in part and still summarized', async () => {
  const page = `<html><head><title>503 Service Unavailable</title></head><body>${'<p>padding</p>'.repeat(200_000)}</body></html>`;
  const server = await startServer((_req, res) => raw(res, 503, page, 'text/html'));
  try {
    const client = createObservabilityClient({ url: server.url, token: TOKEN, retry: { limit: 1 } });
    const e = (await rejects(() => client.listDashboards())) as ApiError;
    assert.match(e.message, /^GET \/api\/v2\/dashboards → 503 Service Unavailable: 503 Service Unavailable: padding padding/);
    assert.match(e.message, /\(body cut at 64 KiB\)$/);
  } finally {
    await server.close();
  }
});

test('htmlToText: scripts and styles dropped, entities decoded', () => {
  assert.is(
    htmlToText('<html><head><title>Oops &amp; sorry</title><style>p{}</style></head><body><script>var a=1</script><p>It&#39;s &lt;down&gt;</p></body></html>'),
    "Oops & sorry: It's <down>",
  );
});

test('htmlToText: the title is dropped from the body only as a whole word; <header> is not <head>', () => {
  assert.is(htmlToText('<html><head><title>T</title></head><body><header>Top</header></body></html>'), 'T: Top');
});

test('htmlToText: hostile pages (thousands of unclosed tags) cost linear time', () => {
  for (const page of ['<script'.repeat(9000), '<!--'.repeat(16000), '<a'.repeat(30000), '<title'.repeat(10000), '<head'.repeat(12000)]) {
    const t0 = performance.now();
    summarizeErrorBody(page, 'text/html');
    const ms = performance.now() - t0;
    // Quadratic work on these pages takes many seconds; linear is milliseconds. The bound is loose so a busy
    // machine cannot fail it.
    assert.ok(ms < 2000, `${page.slice(0, 8)}… took ${ms} ms`);
  }
});

test.run();
