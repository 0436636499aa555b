/**
 * Credentials over plain http go only to this machine, unless the project sets allowInsecureHttp: true
 * (issue 13, docs/security.md). Refused before any client exists, so nothing is sent.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isLoopback, resolveCloud, resolveObservability } from '../../src/config/connection.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadProject } from '../../src/config/project.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const project = (obsUrl: string, cloudUrl: string, extra = '') => `apiVersion: steward/v1
kind: Project
metadata: { name: p }
spec:
  resources: ['dashboards/*.yaml']
  observability:
    url: ${obsUrl}
    token: { env: T }${extra}
  cloud:
    url: ${cloudUrl}
    keyId: { env: I }
    keySecret: { env: S }${extra}
`;
const ENV = { T: 'token-value-123', I: 'key-id-123', S: 'key-secret-123' };

const CASES: Array<{ url: string; allow?: boolean; ok: boolean }> = [
  { url: 'https://obs.example.com', ok: true },
  { url: 'http://127.0.0.1:8080', ok: true },
  { url: 'http://127.8.9.10', ok: true },
  { url: 'http://localhost:3000', ok: true },
  { url: 'http://api.localhost', ok: false }, // asked of DNS, not /etc/hosts
  { url: 'http://localhost.', ok: false },
  { url: 'http://api.localhost', allow: true, ok: true },
  { url: 'http://[::1]:9', ok: true },
  { url: 'http://0x7f.1', ok: true }, // the URL parser reads it as 127.0.0.1
  { url: 'http://obs.example.com', ok: false },
  { url: 'http://10.0.0.5:8080', ok: false },
  { url: 'http://127.0.0.1.evil.example', ok: false },
  { url: 'http://localhost.evil.example', ok: false },
  { url: 'http://[::ffff:10.0.0.1]', ok: false },
  { url: 'http://obs.example.com', allow: true, ok: true },
];

for (const c of CASES) {
  test(`plain http: ${c.url}${c.allow ? ' with allowInsecureHttp: true' : ''} is ${c.ok ? 'allowed' : 'refused'}`, () => {
    const p = tmpProject({ 'steward.yaml': project(c.url, c.url, c.allow ? '\n    allowInsecureHttp: true' : '') });
    try {
      const proj = loadProject(nodeFileSystem, join(p.dir, 'steward.yaml'), ENV);
      for (const [section, resolve] of [
        ['observability', () => resolveObservability(proj, ENV)],
        ['cloud', () => resolveCloud(proj, ENV)],
      ] as const) {
        if (c.ok) {
          resolve();
          continue;
        }
        try {
          resolve();
          assert.unreachable(`${section}: ${c.url} was allowed`);
        } catch (e) {
          const err = e as { message: string; pos?: { line: number } };
          assert.match(
            err.message,
            new RegExp(
              `^${section} url uses plain http to .*: .* would cross the network unencrypted; use https, or set spec\\.${section}\\.allowInsecureHttp: true`,
            ),
          );
          assert.is(err.pos?.line, section === 'observability' ? 7 : 10);
        }
      }
    } finally {
      p.cleanup();
    }
  });
}

test('isLoopback', () => {
  for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.255.0.1', '[::1]', '::1', '[::ffff:7f00:1]']) assert.ok(isLoopback(h), h);
  // Names glibc asks DNS for (only `localhost` itself comes from /etc/hosts): any address may come back.
  for (const h of ['example.com', '10.0.0.1', '128.0.0.1', '127.0.0.1.nip.io', 'localhost.example', '[::2]', '0.0.0.0', 'a.localhost', 'localhost.'])
    assert.not.ok(isLoopback(h), h);
});

test('plan refuses an http url to another host at its line, before sending anything', async () => {
  const p = tmpProject({ 'steward.yaml': project('http://192.0.2.1:9', 'http://192.0.2.1:9') });
  try {
    const r = await steward(['plan'], { cwd: p.dir, env: ENV });
    assert.is(r.code, 1);
    assert.match(r.stderr, /^steward\.yaml:7:10 {2}\/spec\/observability\/url {2}observability url uses plain http to 192\.0\.2\.1/);
    assert.is(r.stderr.trimEnd().split('\n').length, 1);
  } finally {
    p.cleanup();
  }
});

test.run();
