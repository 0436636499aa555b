/**
 * A lone surrogate (YAML's "\ud800" escape: half of a UTF-16 pair) in a dashboard's name. No UTF-8 text can
 * hold one, so a server that stores UTF-8 (HyperDX's MongoDB) keeps U+FFFD in its place and answers a name that
 * never equals the file's: every apply created the dashboard again (red team, round 16). validate now refuses
 * the string at its line, and apply sends nothing.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = `apiVersion: steward/v1
kind: Project
metadata: { name: halves }
spec:
  resources: [dashboards/*.yaml]
  observability: { api: hyperdx, url: "\${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN }, requestsPerMinute: 6000 }
`;

const DASHBOARD = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: halves }
spec:
  name: "Checkout \\ud800 errors"
  tiles:
    - { name: "ok \\ud83d\\ude00", x: 0, y: 0, w: 6, h: 3, config: { displayType: markdown, markdown: "\\udc00 alone" } }
`;

test('a lone surrogate is refused at its line, and apply makes no dashboard (it made one per run)', async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT, 'dashboards/halves.yaml': DASHBOARD });
  const emu = await startEmulator({ api: 'hyperdx', seed: 16 });
  // In front of the emulator, a server that stores what it is sent as UTF-8, as MongoDB does: each lone
  // surrogate becomes U+FFFD.
  const proxy = await startProxy(emu.url, {
    intercept: async (req, _path, body) => {
      if (req.method !== 'POST') return undefined;
      const stored = Buffer.from(
        JSON.stringify(JSON.parse(body)).replace(/\\ud[89a-f][0-9a-f]{2}/gi, (u, at: number, all: string) => {
          const pair = /^\\ud[89ab]/i.test(u) && /^\\ud[c-f]/i.test(all.slice(at + 6, at + 12));
          const second = /^\\ud[c-f]/i.test(u) && /\\ud[89ab][0-9a-f]{2}$/i.test(all.slice(Math.max(0, at - 6), at));
          return pair || second ? u : '\ufffd';
        }),
      );
      const r = await fetch(emu.url + (req.url ?? ''), {
        method: 'POST',
        headers: { authorization: String(req.headers['authorization']), 'content-type': 'application/json' },
        body: stored,
      });
      return { status: r.status, body: await r.text() };
    },
  });
  try {
    const env = { ...(emu.env as Record<string, string>), STEWARD_OBS_URL: proxy.url, XDG_CACHE_HOME: join(p.dir, '.cache') };
    const v = await steward(['validate'], { cwd: p.dir, env });
    assert.is(v.code, 1, v.stdout + v.stderr);
    assert.match(v.stdout + v.stderr, /dashboards\/halves\.yaml:5:9 {2}\/spec\/name {2}error: the string holds half a character at character 10/);
    assert.match(
      v.stdout + v.stderr,
      /dashboards\/halves\.yaml:7:\d+ {2}\/spec\/tiles\/0\/config\/markdown {2}error: the string holds half a character at character 1 /,
    );
    assert.not.match(v.stdout + v.stderr, /\/spec\/tiles\/0\/name/); // a whole pair is one character
    const before = emu.state().dashboards.length;
    for (let run = 0; run < 2; run++) {
      const r = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
      assert.is(r.code, 1, r.stdout + r.stderr);
    }
    const made = emu.state().dashboards.filter((d) => d.name.startsWith('Checkout'));
    assert.is(made.length, 0, made.map((d) => d.name).join(', '));
    assert.is(emu.state().dashboards.length, before);
  } finally {
    await proxy.close();
    await emu.close();
    p.cleanup();
  }
});

test('a lone surrogate in a key is refused at the key', async () => {
  const p = tmpProject({
    'steward.yaml': PROJECT,
    'dashboards/key.yaml': `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: k }\nspec:\n  name: k\n  tiles: []\n  "\\udfff": 1\n`,
  });
  try {
    const v = await steward(['validate'], { cwd: p.dir, env: { XDG_CACHE_HOME: join(p.dir, '.cache') } });
    assert.is(v.code, 1, v.stdout + v.stderr);
    assert.match(v.stdout + v.stderr, /dashboards\/key\.yaml:7:3 {2}\/spec\/\S+ {2}error: the key holds half a character/);
  } finally {
    p.cleanup();
  }
});

test('an alias inside itself is walked once: a half in it is said once, and validate ends (it ran out of heap)', async () => {
  // `&x [*x, ...]` makes a list that holds itself; the walk for halves followed it for ever.
  for (const [extra, half] of [
    ['&x [*x]', false],
    ['&x [*x, "b\\udc00"]', true],
  ] as const) {
    const p = tmpProject({
      'steward.yaml': PROJECT,
      'dashboards/loop.yaml': `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: l }\nspec:\n  name: l\n  tiles: []\n  extra: ${extra}\n`,
    });
    try {
      const v = await steward(['validate'], { cwd: p.dir, spawn: true, timeoutMs: 30_000, env: { XDG_CACHE_HOME: join(p.dir, '.cache') } });
      assert.is(v.code, 1, v.stdout + v.stderr);
      assert.match(v.stdout, /dashboards\/loop\.yaml:7:3 {2}\/spec\/extra {2}error: unknown key "extra"/);
      assert.is((v.stdout.match(/holds half a character/g) ?? []).length, half ? 1 : 0, v.stdout);
      assert.not.match(v.stdout + v.stderr, /internal error|heap/);
    } finally {
      p.cleanup();
    }
  }
});

test.run();
