import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderReportHtml } from '../../src/render/report-html.ts';
import { renderReportJson } from '../../src/render/report-json.ts';
import { renderReportMarkdown } from '../../src/render/report-markdown.ts';
import { renderReportText } from '../../src/render/report-text.ts';
import { isSecretKey, redact, REDACTED } from '../../src/report/redact.ts';
import { seedReport } from './fixture-report.ts';
import { CANARY, defaultSeed, ORG, PROD, PROD_SPEC, STAGING, uuid } from './seed.ts';

const keyCases: [string, string[], boolean][] = [
  ['connectionString', [], true],
  ['caCertificate', ['source', 'kafka'], true],
  ['password', [], true],
  ['keySecret', [], true],
  ['sessionToken', [], true],
  ['credentials', [], true],
  ['accessKey', [], true],
  ['key', ['source', 'kafka', 'schemaRegistry'], true],
  ['username', ['schemaRegistry'], true],
  ['url', ['schemaRegistry'], false],
  ['authentication', ['schemaRegistry'], false],
  ['key', ['settings'], false],
  ['sortingKey', ['destination', 'tableDefinition'], false],
  ['primaryKey', [], false],
  ['iamRole', [], false],
  ['state', [], false],
  ['message', [], false],
];
for (const [key, parents, secret] of keyCases) {
  test(`isSecretKey(${[...parents, key].join('.')}) is ${secret}`, () => assert.is(isSecretKey(key, parents), secret));
}

test('redact: credential keys, patch values at credential paths, configured secrets whole and inside text', () => {
  const input = {
    source: {
      kafka: { topics: 'events', caCertificate: 'PEM', schemaRegistry: { url: 'https://r', key: 'k', credentials: { username: 'u', password: 'p' } } },
    },
    patch: [
      { op: 'replace', path: '/source/objectStorage/connectionString', value: 'AccountKey=zzz' },
      { op: 'replace', path: '/scaling/replicas', value: 2 },
    ],
    message: 'failed with hunter22-secret in the body',
    exact: 'hunter22-secret',
    short: 'abc',
    shortInside: 'xabcx',
    list: ['hunter22-secret', 3, null],
  };
  const before = structuredClone(input);
  const out = redact(input, { secrets: ['hunter22-secret', 'abc'] });
  assert.equal(input, before, 'input unchanged');
  assert.equal(out, {
    source: { kafka: { topics: 'events', caCertificate: REDACTED, schemaRegistry: { url: 'https://r', key: REDACTED, credentials: REDACTED } } },
    patch: [
      { op: 'replace', path: '/source/objectStorage/connectionString', value: REDACTED },
      { op: 'replace', path: '/scaling/replicas', value: 2 },
    ],
    message: `failed with ${REDACTED} in the body`,
    exact: REDACTED,
    short: REDACTED,
    shortInside: 'xabcx',
    list: [REDACTED, 3, null],
  });
});

test('redact: a credential found under a credential key is hunted everywhere else too', () => {
  const out = redact({
    a: { connectionString: 'AccountKey=leaky-value-1' },
    b: 'quoted AccountKey=leaky-value-1 here',
    c: { caCertificate: 'none' },
    d: 'none of this',
  });
  assert.equal(out, { a: { connectionString: REDACTED }, b: `quoted ${REDACTED} here`, c: { caCertificate: REDACTED }, d: 'none of this' });
});

/**
 * The canary: a secret in a pipe's connection string (and CA certificates), and a configured secret that the
 * server echoes in places the report quotes (an unlisted pipe's name, an endpoint's status, a pipe state).
 */
test('canary secrets appear in no output: text, markdown, json, html', async () => {
  const configured = 'configured-secret-7f1a9c';
  const data = defaultSeed({ canary: CANARY });
  const prod = data[ORG]![PROD]!;
  prod.pipes.push({ id: uuid('a1', 9), name: `leak-${configured}`, state: configured, source: { objectStorage: { connectionString: CANARY } } });
  prod.endpoints[1]!.status = configured;
  data[ORG]![STAGING]!.pipes[1]!.state = `Broken: ${configured}`;
  // A file that declares a whole source block as a scalar makes the drift check quote the live block, credentials and all.
  const prodSpec = structuredClone(PROD_SPEC);
  prodSpec.pipes!.expected![1] = { name: 'logs-from-s3', state: 'Running', source: { objectStorage: 'whatever' } };
  const report = await seedReport({ data, secrets: [configured], prodSpec });
  assert.ok(report.services[0]!.findings.some((f) => f.id === 'pipe.field-drift' && f.object.name === 'logs-from-s3'));

  const outputs = {
    text: renderReportText(report, { color: false }),
    textColor: renderReportText(report, { color: true }),
    markdown: renderReportMarkdown(report),
    markdownShort: renderReportMarkdown(report, { maxLength: 5_000 }),
    json: renderReportJson(report),
    html: renderReportHtml(report),
  };
  for (const [name, out] of Object.entries(outputs)) {
    assert.not.ok(out.includes(CANARY), `${name} leaks the canary`);
    assert.not.ok(out.includes(configured), `${name} leaks the configured secret`);
    assert.not.ok(out.includes('AccountKey='), `${name} leaks a connection string`);
    assert.not.ok(out.includes('BEGIN CERTIFICATE'), `${name} leaks a certificate`);
  }
  // The findings are still there, with the secret replaced.
  assert.ok(report.services[0]!.findings.some((f) => f.id === 'pipe.unlisted' && f.object.name === `leak-${REDACTED}`));
  assert.ok(report.services[0]!.findings.some((f) => f.id === 'endpoint.status' && f.actual === REDACTED));
});

test('redact: a secret in an object key is redacted (an HTML renderer would escape it past the output sink); keys that meet are numbered; __proto__ stays a member', () => {
  const secret = 'Cl0udSecret\'<&>\\"9f8e7d6c';
  const value = JSON.parse(`{"actual":{"foo":{${JSON.stringify(secret)}:"x","[redacted]":"y","__proto__":{"a":1}}}}`);
  const out = redact(value, { secrets: [secret] }) as { actual: { foo: Record<string, unknown> } };
  assert.equal(Object.keys(out.actual.foo), [REDACTED, `${REDACTED} #2`, '__proto__']);
  assert.equal(Object.getPrototypeOf(out.actual.foo), Object.prototype);
  assert.not.ok(JSON.stringify(out).includes(secret));
});

test.run();
