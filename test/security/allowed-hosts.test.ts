/**
 * STEWARD_ALLOWED_HOSTS: where the job's owner lets credentials go. A pull request that points steward.yaml
 * at its own server gets nothing: the url is refused at its line before any client exists (docs/security.md).
 */
import { writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hostAllowed, parseAllowedHosts } from '../../src/config/allowed-hosts.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { isLoopback, resolveObservability } from '../../src/config/connection.ts';
import { platformCredential } from '../../src/config/credentials.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadProject } from '../../src/config/project.ts';

const MATCHES: Array<[hosts: string, url: string, verdict: 'yes' | 'https-only' | 'no']> = [
  ['api.hyperdx.io', 'https://api.hyperdx.io', 'yes'],
  ['api.hyperdx.io', 'https://API.HyperDX.io./v2', 'yes'],
  ['api.hyperdx.io', 'https://api.hyperdx.io:8443', 'yes'],
  ['api.hyperdx.io', 'https://api.hyperdx.io.evil.example', 'no'],
  ['api.hyperdx.io', 'https://evil.example/api.hyperdx.io', 'no'],
  ['api.hyperdx.io', 'https://api.hyperdx.io@evil.example', 'no'],
  ['api.hyperdx.io', 'https://xapi.hyperdx.io', 'no'],
  ['api.hyperdx.io:443', 'https://api.hyperdx.io', 'yes'],
  ['api.hyperdx.io:443', 'https://api.hyperdx.io:8443', 'no'],
  ['api.hyperdx.io:443', 'http://api.hyperdx.io', 'no'],
  ['*.clickhouse.cloud', 'https://api.clickhouse.cloud', 'yes'],
  ['*.clickhouse.cloud', 'https://a.b.clickhouse.cloud', 'yes'],
  ['*.clickhouse.cloud', 'https://clickhouse.cloud', 'no'],
  ['*.clickhouse.cloud', 'https://evilclickhouse.cloud', 'no'],
  ['127.0.0.1', 'http://127.0.0.1:4318', 'yes'],
  ['127.0.0.1:4318', 'http://127.0.0.1:4319', 'no'],
  ['[::1]:8080', 'http://[::1]:8080', 'yes'],
  ['[::1]', 'http://[0:0:0:0:0:0:0:1]:9', 'yes'],
  ['localhost', 'http://127.0.0.1', 'no'],
  ['a.example, b.example  c.example', 'https://c.example', 'yes'],
  ['a.example,,b.example', 'https://d.example', 'no'],
  // An entry is read by the URL parser a url is read by: IDN, IPv4 and IPv6 forms name the host they name there.
  ['bücher.example', 'https://xn--bcher-kva.example', 'yes'],
  ['xn--bcher-kva.example', 'https://bücher.example', 'yes'],
  ['127.1', 'http://2130706433', 'yes'],
  ['[::ffff:127.0.0.1]', 'http://[::ffff:7f00:1]', 'yes'],
  ['api.hyperdx.io', 'https://api。hyperdx．io', 'yes'],
  ['api.hyperdx.io', 'https://аpi.hyperdx.io', 'no'],
  ['api.hyperdx.io', 'https://evil.example\\@api.hyperdx.io', 'no'],
  ['api.hyperdx.io', 'https://api.hyperdx.io:443@evil.example', 'no'],
  // A wildcard takes names below its domain: no IP address, no empty label.
  ['*.0.1', 'http://10.0.0.1', 'no'],
  ['*.1', 'http://0x7f000001', 'no'],
  ['*.clickhouse.cloud', 'https://.clickhouse.cloud', 'no'],
  ['*.clickhouse.cloud', 'https://x..clickhouse.cloud', 'no'],
  ['*.clickhouse.cloud', 'https://x.clickhouse.cloud.', 'yes'],
  // Plain http to a host other than this machine only where the job wrote the entry with http://.
  ['api.hyperdx.io', 'http://api.hyperdx.io', 'https-only'],
  ['*.corp.example', 'http://hx.corp.example:8000', 'https-only'],
  ['http://api.hyperdx.io', 'http://api.hyperdx.io', 'yes'],
  ['HTTP://hyperdx.internal:8000', 'http://hyperdx.internal:8000', 'yes'],
  ['http://hyperdx.internal:8000', 'https://hyperdx.internal:8000', 'yes'],
  ['http://hyperdx.internal:8000', 'http://hyperdx.internal:8001', 'no'],
  ['http://*.corp.example', 'http://hx.corp.example', 'yes'],
  ['api.hyperdx.io, http://api.hyperdx.io:8080', 'http://api.hyperdx.io', 'https-only'],
  ['api.hyperdx.io, http://api.hyperdx.io:8080', 'http://api.hyperdx.io:8080', 'yes'],
];

for (const [hosts, url, verdict] of MATCHES) {
  test(`STEWARD_ALLOWED_HOSTS="${hosts}": ${url} is ${verdict}`, () => {
    const p = parseAllowedHosts(hosts);
    assert.ok(p.ok);
    if (!p.ok || !p.rules) throw new Error('no rules');
    const u = new URL(url);
    assert.is(hostAllowed(p.rules, u, isLoopback(u.hostname)), verdict);
  });
}

test('unset or empty: no restriction; separators alone or an entry that is not a host: an error naming it', () => {
  for (const blank of [undefined, '']) {
    const p = parseAllowedHosts(blank);
    assert.ok(p.ok && p.rules === undefined, String(blank));
  }
  // A list built from variables that are all unset (red team, round 14): the job meant a restriction.
  for (const built of ['  , ', ',', ' ', '\n']) {
    const p = parseAllowedHosts(built);
    assert.ok(!p.ok && /lists no host \(made of variables that are not set\?\)/.test(p.message), JSON.stringify(built));
  }
  for (const bad of [
    'https://api.hyperdx.io',
    'api.hyperdx.io/v2',
    'api.*.io',
    '*',
    'user@host',
    '*.[::1]',
    'host:99999999',
    'api.hyperdx.io\\v2',
    'a%2fb',
    '[::1',
    'http://',
    'http://a.example/v2',
    'ftp://a.example',
    'http://http://a.example',
  ]) {
    const p = parseAllowedHosts(`ok.example, ${bad}`);
    assert.not.ok(p.ok, bad);
    if (!p.ok) assert.match(p.message, `STEWARD_ALLOWED_HOSTS entry "${bad}" is not a host`);
  }
});

test('plan and apply send nothing to a host the variable does not list, and name the url line; a listed host works', async () => {
  const x = await examplesWithEmulator();
  try {
    const before = x.emu.requests().length;
    for (const cmd of [['plan'], ['apply', '--auto-approve']]) {
      const r = await steward(cmd, { cwd: x.dir, env: { ...x.env, STEWARD_ALLOWED_HOSTS: 'api.hyperdx.io, *.clickhouse.cloud' } });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /^steward\.yaml:\d+:\d+ {2}\/spec\/observability\/url {2}observability url names 127\.0\.0\.1:\d+, which STEWARD_ALLOWED_HOSTS does not list \(api\.hyperdx\.io, \*\.clickhouse\.cloud\): steward sends the token or key only to the hosts that variable lists; nothing was sent\n$/,
      );
      assert.not.match(r.stderr + r.stdout, x.env['STEWARD_OBS_TOKEN']!);
    }
    assert.is(x.emu.requests().length, before, 'no request reached the server');
    const ok = await steward(['plan'], { cwd: x.dir, env: { ...x.env, STEWARD_ALLOWED_HOSTS: `api.hyperdx.io,${new URL(x.env['STEWARD_OBS_URL']!).host}` } });
    assert.is(ok.code, 0, ok.stdout + ok.stderr);
    assert.ok(x.emu.requests().length > before);
  } finally {
    await x.cleanup();
  }
});

test('report: the cloud url is held to the same list', async () => {
  const x = await examplesWithEmulator();
  try {
    const r = await steward(['report', '--out', join(x.dir, 'out')], { cwd: x.dir, env: { ...x.env, STEWARD_ALLOWED_HOSTS: 'api.clickhouse.cloud' } });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /\/spec\/cloud\/url {2}cloud url names 127\.0\.0\.1:\d+, which STEWARD_ALLOWED_HOSTS does not list \(api\.clickhouse\.cloud\): steward sends the API key only/,
    );
    assert.is(x.emu.requests().length, 0);
  } finally {
    await x.cleanup();
  }
});

test('a pull request writing its own url into steward.yaml is refused, though the job’s STEWARD_OBS_URL is listed', async () => {
  const x = await examplesWithEmulator();
  try {
    // What is checked is the url steward would send to, wherever steward.yaml took it from.
    const f = join(x.dir, 'steward.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('url: ${STEWARD_OBS_URL}', 'url: https://api.hyperdx.io'));
    const r = await steward(['plan'], { cwd: x.dir, env: { ...x.env, STEWARD_ALLOWED_HOSTS: new URL(x.env['STEWARD_OBS_URL']!).host } });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, 'observability url names api.hyperdx.io, which STEWARD_ALLOWED_HOSTS does not list');
  } finally {
    await x.cleanup();
  }
});

const TOKEN = 'Mixed-Case-Token-Value-0042';
const LEAKS: Array<[url: string, allowedHosts: string | undefined, shown: string]> = [
  ['https://${STEWARD_OBS_TOKEN}.evil.example', 'api.hyperdx.io', 'observability url reads ${STEWARD_OBS_TOKEN}, which holds a credential: '],
  ['https://x.${GITHUB_TOKEN}.evil.example/v2', 'api.hyperdx.io', "observability url reads ${GITHUB_TOKEN}, which is named as a secret's (TOKEN): "],
  ['http://${STEWARD_OBS_TOKEN}.evil.example', undefined, 'observability url reads ${STEWARD_OBS_TOKEN}, which holds a credential: '],
  // No list at all: the host would be looked up in DNS, which hands the token to evil.example's name server.
  ['https://${STEWARD_OBS_TOKEN}.evil.example', undefined, 'observability url reads ${STEWARD_OBS_TOKEN}, which holds a credential: '],
  ['https://api.hyperdx.io/${STEWARD_OBS_TOKEN}', undefined, 'observability url reads ${STEWARD_OBS_TOKEN}, which holds a credential: '],
];

for (const [url, allowedHosts, shown] of LEAKS) {
  test(`a url reading a token (${url}${allowedHosts ? `, ${allowedHosts} allowed` : ''}) is refused before anything is looked up or sent, the token not printed`, async () => {
    const x = await examplesWithEmulator();
    try {
      const f = join(x.dir, 'steward.yaml');
      writeFileSync(f, readFileSync(f, 'utf8').replace('url: ${STEWARD_OBS_URL}', `url: ${url}`));
      const env = { ...x.env, STEWARD_OBS_TOKEN: TOKEN, GITHUB_TOKEN: TOKEN, ...(allowedHosts ? { STEWARD_ALLOWED_HOSTS: allowedHosts } : {}) };
      const r = await steward(['plan'], { cwd: x.dir, env });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /^steward\.yaml:\d+:\d+ {2}\/spec\/observability\/url {2}/);
      assert.match(r.stderr, shown);
      assert.not.match((r.stdout + r.stderr).toLowerCase(), TOKEN.toLowerCase(), 'the token, as the URL parser wrote it');
      assert.is(x.emu.requests().length, 0);
    } finally {
      await x.cleanup();
    }
  });
}

test('demo --examples: a project folder pointing its url elsewhere gets nothing sent there; its steps may reach only the demo’s emulator', async () => {
  // `demo --examples` runs a folder a pull request may have changed: its url and its token variable are its own.
  const x = await examplesWithEmulator();
  const received: string[] = [];
  const elsewhere = createServer((s) => {
    s.on('data', (d: Buffer) => received.push(d.toString('latin1')));
    s.on('error', () => {});
    s.end();
  });
  await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
  try {
    const f = join(x.dir, 'steward.yaml');
    const port = (elsewhere.address() as AddressInfo).port;
    writeFileSync(
      f,
      readFileSync(f, 'utf8')
        .replace('url: ${STEWARD_OBS_URL}', `url: http://127.0.0.1:${port}`)
        .replace('token: { env: STEWARD_OBS_TOKEN }', 'token: { env: CI_DEPLOY_TOKEN }'),
    );
    const env = { CI_DEPLOY_TOKEN: TOKEN, STEWARD_ALLOWED_HOSTS: 'api.hyperdx.io', NO_COLOR: '1' };
    const r = await steward(['demo', '--examples', x.dir, '--out', join(x.dir, 'out')], { cwd: x.dir, env });
    assert.equal(received, [], 'nothing reached the url the folder named');
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, `observability url names 127.0.0.1:${port}, which STEWARD_ALLOWED_HOSTS does not list (127.0.0.1:`);
  } finally {
    await new Promise((r) => elsewhere.close(r));
    await x.cleanup();
  }
});

test('a malformed variable is one line naming the entry, exit 1', async () => {
  const x = await examplesWithEmulator();
  try {
    const r = await steward(['plan'], { cwd: x.dir, env: { ...x.env, STEWARD_ALLOWED_HOSTS: 'https://api.hyperdx.io' } });
    assert.is(r.code, 1);
    assert.is(
      r.stderr,
      'error: STEWARD_ALLOWED_HOSTS entry "https://api.hyperdx.io" is not a host: write names like api.hyperdx.io, api.hyperdx.io:443 or *.clickhouse.cloud, separated by commas (no https://, no path; http://host:port only for a host plain http may go to)\n',
    );
  } finally {
    await x.cleanup();
  }
});

test('with the list set, allowInsecureHttp in steward.yaml does not send the token in clear to a host listed for https; an http:// entry lets it', () => {
  const p = tmpProject({
    'steward.yaml': `apiVersion: steward/v1
kind: Project
metadata: { name: p }
spec:
  resources: ['dashboards/*.yaml']
  observability:
    url: http://api.hyperdx.io
    allowInsecureHttp: true
    token: { env: T }
`,
  });
  try {
    const env = { T: TOKEN, STEWARD_ALLOWED_HOSTS: 'api.hyperdx.io' };
    const proj = loadProject(nodeFileSystem, join(p.dir, 'steward.yaml'), env);
    try {
      resolveObservability(proj, env);
      assert.unreachable('plain http to a host listed for https');
    } catch (e) {
      const err = e as { message: string; pos?: { line: number } };
      assert.is(
        err.message,
        'observability url uses plain http to api.hyperdx.io, which STEWARD_ALLOWED_HOSTS lists for https only (api.hyperdx.io): the token or key would cross the network unencrypted; use https, or have the job list it as http://api.hyperdx.io; nothing was sent',
      );
      assert.is(err.pos?.line, 7);
    }
    const listed = { ...env, STEWARD_ALLOWED_HOSTS: 'http://api.hyperdx.io' };
    assert.is(resolveObservability(loadProject(nodeFileSystem, join(p.dir, 'steward.yaml'), listed), listed).url, 'http://api.hyperdx.io');
  } finally {
    p.cleanup();
  }
});

test('clickstack-cloud: an organization or service id reading a credential is refused at its line, the value never printed', () => {
  const p = tmpProject({
    'steward.yaml': `apiVersion: steward/v1
kind: Project
metadata: { name: p }
spec:
  resources: ['dashboards/*.yaml']
  observability:
    api: clickstack-cloud
    url: https://api.clickhouse.cloud
    keyId: { env: K }
    keySecret: { env: S }
    organizationId: \${S}
    serviceId: 6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31
`,
  });
  try {
    const env = { K: 'key-id-1', S: '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c32' };
    const proj = loadProject(nodeFileSystem, join(p.dir, 'steward.yaml'), env);
    try {
      resolveObservability(proj, env);
      assert.unreachable('the secret was read into the path');
    } catch (e) {
      const err = e as { message: string; pos?: { line: number } };
      assert.match(err.message, 'spec.observability.organizationId reads ${S}, which holds a credential: ');
      assert.not.match(err.message, env.S);
      assert.is(err.pos?.line, 11);
    }
  } finally {
    p.cleanup();
  }
});

// What the host list cannot limit: which variable `token: { env: … }` names. A pull request naming the CI
// platform's own credential had the job's GitHub or cloud access sent as the API token, even to a listed host.
const PLATFORM_NAMES: Array<[name: string, whose: RegExp | undefined]> = [
  ['GITHUB_TOKEN', /GitHub's job token/],
  ['github_token', /GitHub's job token/],
  ['GH_TOKEN', /GitHub's token/],
  ['ACTIONS_ID_TOKEN_REQUEST_TOKEN', /runner's/],
  ['AWS_SECRET_ACCESS_KEY', /AWS's credentials/],
  ['AWS_SESSION_TOKEN', /AWS's credentials/],
  ['CI_JOB_TOKEN', /GitLab's job token/],
  ['SYSTEM_ACCESSTOKEN', /Azure Pipelines/],
  ['NODE_AUTH_TOKEN', /npm's token/],
  ['STEWARD_OBS_TOKEN', undefined],
  ['HYPERDX_API_KEY', undefined],
  ['MY_GITHUB_TOKEN', undefined],
];
test('platformCredential: the names CI platforms and clouds give a job for their own APIs (table)', () => {
  for (const [name, whose] of PLATFORM_NAMES) {
    const got = platformCredential(name);
    if (whose) assert.match(got ?? '', whose, name);
    else assert.is(got, undefined, name);
  }
});

test('token: { env: GITHUB_TOKEN } is refused at its line before anything is sent, with or without the host list', async () => {
  const x = await examplesWithEmulator();
  try {
    const f = join(x.dir, 'steward.yaml');
    const original = readFileSync(f, 'utf8');
    for (const name of ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'ACTIONS_RUNTIME_TOKEN']) {
      writeFileSync(f, original.replace('token: { env: STEWARD_OBS_TOKEN }', `token: { env: ${name} }`));
      const secret = 'ghs_platformSecret0123456789';
      for (const hosts of [undefined, new URL(x.env['STEWARD_OBS_URL']!).host]) {
        const before = x.emu.requests().length;
        const r = await steward(['plan'], { cwd: x.dir, env: { ...x.env, [name]: secret, ...(hosts ? { STEWARD_ALLOWED_HOSTS: hosts } : {}) } });
        assert.is(r.code, 1, r.stdout + r.stderr);
        assert.match(
          r.stderr,
          new RegExp(`^steward\\.yaml:\\d+:\\d+ {2}/spec/observability/token {2}spec\\.observability\\.token names ${name}, .*; nothing was sent\\n$`),
        );
        assert.not.ok((r.stdout + r.stderr).includes(secret.slice(4)));
        assert.is(x.emu.requests().length, before, `${name}: no request reached the server`);
      }
    }
  } finally {
    await x.cleanup();
  }
});

test.run();
