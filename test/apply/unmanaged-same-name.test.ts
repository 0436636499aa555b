/**
 * A dashboard of the same name, without this project's marker, made on the service between plan and apply (a
 * person, another tool, while the apply waited at its prompt): apply never takes it for the one it created.
 * It was adopted in place of this run's own (after a lost answer, or an answer without the id), or counted as
 * another runner's copy, so that this run deleted its own dashboard and bound its alerts to the other. Now
 * this run keeps and binds to its own, leaves the other untouched, and says so (exit 1: two of the name, which
 * the next plan blocks as ambiguous). Over real HTTP: the emulator (hyperdx) behind a proxy on 127.0.0.1 that
 * makes the other dashboard just before it forwards this run's create.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy, type ProxyAnswer } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

const NAME = 'Checkout overview (HyperDX)';
const MARKER = 'managed-by:steward/acme-hyperdx';

interface Listed {
  id: string;
  name: string;
  tags?: string[];
  dashboardId?: string;
}

const answers: Array<{ what: string; answer: (text: string) => string | ProxyAnswer | 'drop' }> = [
  { what: 'answered as usual', answer: (text) => text },
  { what: 'its answer lost (the create was made)', answer: () => 'drop' },
  { what: 'answered 2xx without the id', answer: () => ({ status: 201, body: '{"data":{}}' }) },
];

/**
 * How the other dashboard is made and listed: tagged by a person; or with no tags by a server whose list
 * leaves out an empty tags array (its answer names no tags: "may be ours" by tags alone, while the same list
 * shows tags for this run's, so the server does list them).
 */
const others: Array<{ what: string; tags: string[]; list: (text: string) => string }> = [
  { what: '', tags: ['team:payments'], list: (text) => text },
  {
    what: ', with no tags, listed without its empty tags array',
    tags: [],
    list: (text) => {
      const o = JSON.parse(text) as { data?: Array<Record<string, unknown>> };
      for (const d of o.data ?? []) if (Array.isArray(d['tags']) && d['tags'].length === 0) delete d['tags'];
      return JSON.stringify(o);
    },
  },
];

for (const a of answers)
  for (const other of others) {
    if (other.tags.length === 0 && a.what.startsWith('answered 2xx')) continue;
    test(`an unmanaged "${NAME}"${other.what} made between plan and apply, this run's create ${a.what}: neither adopted nor removed, alerts bound to this run's, reported`, async () => {
      const p = tmpProject({});
      copyExample(p.dir, 'hyperdx', { timeoutSeconds: 1 });
      const emu = await startEmulator({ api: 'hyperdx', seed: 17 });
      const auth = { authorization: `Bearer ${emu.env.STEWARD_OBS_TOKEN}`, 'content-type': 'application/json' };
      let theirs: string | undefined;
      const proxy = await startProxy(emu.url, {
        intercept: async (req, path, body) => {
          if (req.method !== 'POST' || !path.endsWith('/dashboards') || theirs !== undefined) return undefined;
          const sent = JSON.parse(body) as { name: string; tags?: string[] };
          if (sent.name !== NAME) return undefined;
          // Someone makes the same dashboard by hand (no marker) just before this run's create arrives.
          const made = await fetch(emu.url + path, { method: 'POST', headers: auth, body: JSON.stringify({ ...sent, tags: other.tags }) });
          theirs = ((await made.json()) as { data: { id: string } }).data.id;
          return undefined;
        },
        rewrite: (req, path, status, text) => {
          if (req.method === 'GET' && path.endsWith('/dashboards') && status === 200) return other.list(text);
          if (req.method !== 'POST' || !path.endsWith('/dashboards') || status >= 300) return text;
          return (JSON.parse(text) as { data: { name: string } }).data.name === NAME ? a.answer(text) : text;
        },
      });
      try {
        const env = { ...emu.env, STEWARD_OBS_URL: proxy.url, XDG_CACHE_HOME: join(p.dir, '.cache') };
        const r = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: p.dir, env });
        assert.ok(theirs, 'the other dashboard was made');
        const list = async (what: string) => ((await (await fetch(`${emu.url}/api/v2/${what}`, { headers: auth })).json()) as { data: Listed[] }).data;
        const named = (await list('dashboards')).filter((d) => d.name === NAME);
        const ours = named.find((d) => d.id !== theirs);
        assert.is(named.length, 2, `both are kept: ${JSON.stringify(named)}\n${r.stdout}${r.stderr}`);
        assert.ok(ours?.tags?.includes(MARKER), JSON.stringify(named));
        assert.equal(named.find((d) => d.id === theirs)?.tags, other.tags, 'theirs is left as it was');
        // Every alert on that dashboard is bound to this run's.
        const alerts = (await list('alerts')).filter((x) => ['Checkout errors (HyperDX)', 'Slow payments (HyperDX)'].includes(x.name));
        assert.equal(
          alerts.map((x) => x.dashboardId),
          [ours!.id, ours!.id],
          JSON.stringify(alerts),
        );

        assert.is(r.code, 1, r.stdout + r.stderr);
        const result = JSON.parse(r.stdout) as {
          created: Array<{ name: string; id: string }>;
          failed: unknown[];
          duplicates?: Array<{ name: string; ids: string[]; unmanaged?: string[]; removed?: string }>;
        };
        assert.equal(result.failed, [], r.stdout);
        assert.equal(result.created.find((c) => c.name === 'checkout-overview')?.id, ours!.id, r.stdout);
        assert.equal(
          result.duplicates?.map((d) => [d.name, d.unmanaged, d.removed]),
          [[NAME, [theirs], undefined]],
          r.stdout,
        );
        const text = await steward(['plan'], { cwd: p.dir, env: { ...env, STEWARD_OBS_URL: emu.url } });
        assert.match(text.stdout, `2 live dashboards are named "${NAME}"`);
      } finally {
        await proxy.close();
        await emu.close();
        p.cleanup();
      }
    });
  }

const ALERT = 'Checkout errors (HyperDX)';

for (const a of answers) {
  test(`an unmanaged alert "${ALERT}" made between plan and apply, this run's create ${a.what}: neither adopted nor removed, reported`, async () => {
    const p = tmpProject({});
    copyExample(p.dir, 'hyperdx', { timeoutSeconds: 1 });
    const emu = await startEmulator({ api: 'hyperdx', seed: 18 });
    const auth = { authorization: `Bearer ${emu.env.STEWARD_OBS_TOKEN}`, 'content-type': 'application/json' };
    let theirs: string | undefined;
    const proxy = await startProxy(emu.url, {
      intercept: async (req, path, body) => {
        if (req.method !== 'POST' || !path.endsWith('/alerts') || theirs !== undefined) return undefined;
        const { note: _marker, ...sent } = JSON.parse(body) as { name: string; note?: string };
        if (sent.name !== ALERT) return undefined;
        // Someone makes the same alert in the UI (no note) just before this run's create arrives.
        const made = await fetch(emu.url + path, { method: 'POST', headers: auth, body: JSON.stringify(sent) });
        theirs = ((await made.json()) as { data: { id: string } }).data.id;
        return undefined;
      },
      rewrite: (req, path, status, text) => {
        if (req.method !== 'POST' || !path.endsWith('/alerts') || status >= 300) return text;
        return (JSON.parse(text) as { data: { name: string } }).data.name === ALERT ? a.answer(text) : text;
      },
    });
    try {
      const env = { ...emu.env, STEWARD_OBS_URL: proxy.url, XDG_CACHE_HOME: join(p.dir, '.cache') };
      const r = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: p.dir, env });
      assert.ok(theirs, 'the other alert was made');
      const listed = ((await (await fetch(`${emu.url}/api/v2/alerts`, { headers: auth })).json()) as { data: Array<Listed & { note?: string }> }).data;
      const named = listed.filter((x) => x.name === ALERT);
      const ours = named.find((x) => x.id !== theirs);
      assert.is(named.length, 2, `both are kept: ${JSON.stringify(named)}\n${r.stdout}${r.stderr}`);
      assert.is(ours?.note, MARKER, JSON.stringify(named));
      assert.is(named.find((x) => x.id === theirs)?.note ?? undefined, undefined, 'theirs is left as it was');

      assert.is(r.code, 1, r.stdout + r.stderr);
      const result = JSON.parse(r.stdout) as {
        created: Array<{ name: string; id: string }>;
        failed: unknown[];
        duplicates?: Array<{ kind?: string; name: string; unmanaged?: string[]; removed?: string }>;
      };
      assert.equal(result.failed, [], r.stdout);
      assert.equal(result.created.find((c) => c.name === 'checkout-errors')?.id, ours!.id, r.stdout);
      assert.equal(
        result.duplicates?.map((d) => [d.kind, d.name, d.unmanaged, d.removed]),
        [['Alert', ALERT, [theirs], undefined]],
        r.stdout,
      );
    } finally {
      await proxy.close();
      await emu.close();
      p.cleanup();
    }
  });
}

test("the text summary names the dashboard without the marker as not this run's", async () => {
  const { renderApplySummary } = await import('../../src/render/apply.ts');
  const { emptyResult } = await import('../../src/apply/apply.ts');
  const r = emptyResult({ summary: { noop: 0, blocked: 0 } } as never, { formatVersion: 1, alerts: {} });
  r.duplicates.push({ name: NAME, ids: ['a1', 'b2'], unmanaged: ['a1'] });
  const text = renderApplySummary(r, { color: false });
  assert.match(text, `2 dashboards are named "${NAME}" (a1, b2): a1, without this project's marker, was made by someone else since the plan`);
  assert.match(text, 'this run kept its own (its alerts are bound to it) and removed neither');
  assert.match(text, 'the next plan blocks it as ambiguous');
  assert.not.match(text, 'Another steward applied');
  assert.not.match(text, 'run `steward apply` again');
});

test.run();
