/**
 * Two runners at once (no shared lock), and the answer to one runner's create is lost: the other runner's copy
 * is listed first, this run's own (made, never answered) after it. The other runner keeps its copy (it is the
 * first) and leaves the later one to its maker, who never learned its id: two of the name stayed, and every
 * later plan was blocked ("ambiguous"). Now the run whose answer was lost adopts the first listed and removes
 * the later copies that carry its marker. The other runner is played by the proxy, which makes a copy of the
 * same body just before it forwards this run's create, then cuts that create's answer. hyperdx, real HTTP.
 *
 * "First" is the oldest, not the first listed: neither API promises a list in creation order, and a runner that
 * took the first listed of a list in another order kept its own copy and removed the other runner's, which
 * that runner had kept and bound its alerts to. The reversed variant lists newest first, with the emulator's
 * clock a second further at each reading, so the two copies' ObjectIds carry different seconds.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

for (const [kind, reversed] of [
  ['dashboards', false],
  ['alerts', false],
  ['dashboards', true],
  ['alerts', true],
] as const) {
  test(`${kind}: a create whose answer was lost while another runner made the same one first ends with one of the name, the other's${reversed ? ' (the list newest first)' : ''}`, async () => {
    const p = tmpProject({});
    copyExample(p.dir, 'hyperdx', { timeoutSeconds: 1 });
    let clock = Date.parse('2026-11-01T00:00:00Z');
    const emu = await startEmulator({ api: 'hyperdx', seed: 17, ...(reversed ? { now: () => new Date((clock += 1000)) } : {}) });
    let raced: string | undefined;
    let othersId: string | undefined;
    let cut = false;
    const proxy = await startProxy(emu.url, {
      intercept: async (req, path, body) => {
        if (raced !== undefined || req.method !== 'POST' || !path.endsWith(`/${kind}`)) return undefined;
        raced = (JSON.parse(body) as { name: string }).name;
        // The other runner's copy, made first.
        const r = await fetch(emu.url + path, {
          method: 'POST',
          headers: { authorization: String(req.headers.authorization), 'content-type': 'application/json' },
          body,
        });
        const answer = (await r.json()) as { data?: { id?: string }; id?: string };
        assert.is(r.status, 200, JSON.stringify(answer));
        othersId = answer.data?.id ?? answer.id;
        return undefined;
      },
      rewrite: (req, path, _status, text) => {
        if (reversed && req.method === 'GET' && path.endsWith(`/${kind}`)) {
          const list = JSON.parse(text) as { data: unknown[] };
          return JSON.stringify({ ...list, data: [...list.data].reverse() });
        }
        if (cut || req.method !== 'POST' || !path.endsWith(`/${kind}`)) return text;
        // The raced create's own answer: apply sends several creates at once, and another may answer first.
        const made = JSON.parse(text) as { data?: { name?: string }; name?: string };
        if ((made.data?.name ?? made.name) !== raced) return text;
        cut = true;
        return 'drop';
      },
    });
    const named = () => (emu.state() as unknown as Record<string, Array<{ name: string; id: string }>>)[kind]!.filter((x) => x.name === raced);
    const count = () => named().length;
    try {
      const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') };
      const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: { ...env, STEWARD_OBS_URL: proxy.url } });
      assert.ok(raced !== undefined && cut, 'the race was played');
      // Reported (another runner applied at the same time), and settled: one of the name.
      assert.is(a.code, 1, a.stdout + a.stderr);
      assert.match(a.stdout, `are named "${raced}"`);
      assert.match(a.stdout, "this run's answer was lost, so it kept the oldest");
      assert.is(count(), 1, a.stdout);
      assert.is(named()[0]!.id, othersId, "the other runner's copy stays");
      const again = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
      assert.is(again.code, 0, again.stdout + again.stderr);
      const plan = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
      assert.is(plan.code, 0, plan.stdout + plan.stderr);
      assert.is(count(), 1);
    } finally {
      await proxy.close();
      await emu.close();
      p.cleanup();
    }
  });
}

test('dashboards: the oldest is the same for adoption and the check after, when a copy made by a person has an id of another shape', async () => {
  // As the reversed variant, and a person made a dashboard of the name (no marker) just before, which the list
  // shows under an id that is no ObjectId. The check after the creates ordered every copy of the name, the
  // person's too, so one id of another shape put them all in list order (newest first): this run, which had
  // adopted the other runner's copy as the oldest, removed it and bound its alerts to its own.
  const p = tmpProject({});
  copyExample(p.dir, 'hyperdx', { timeoutSeconds: 1 });
  let clock = Date.parse('2026-11-01T00:00:00Z');
  const emu = await startEmulator({ api: 'hyperdx', seed: 17, now: () => new Date((clock += 1000)) });
  let raced: string | undefined;
  let othersId: string | undefined;
  let personsId: string | undefined;
  let cut = false;
  const post = async (path: string, auth: string, body: string) => {
    const r = await fetch(emu.url + path, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
    return ((await r.json()) as { data: { id: string } }).data.id;
  };
  const proxy = await startProxy(emu.url, {
    intercept: async (req, path, body) => {
      if (raced !== undefined || req.method !== 'POST' || !path.endsWith('/dashboards')) return undefined;
      raced = (JSON.parse(body) as { name: string }).name;
      const auth = String(req.headers.authorization);
      personsId = await post(path, auth, JSON.stringify({ ...(JSON.parse(body) as object), tags: ['team:payments'] }));
      othersId = await post(path, auth, body);
      return undefined;
    },
    rewrite: (req, path, _status, text) => {
      if (req.method === 'GET' && path.endsWith('/dashboards')) {
        const list = JSON.parse(text) as { data: Array<{ id: string }> };
        const data = [...list.data].reverse().map((d) => (d.id === personsId ? { ...d, id: 'made-by-hand-1' } : d));
        return JSON.stringify({ ...list, data });
      }
      if (cut || req.method !== 'POST' || !path.endsWith('/dashboards')) return text;
      if ((JSON.parse(text) as { data?: { name?: string } }).data?.name !== raced) return text;
      cut = true;
      return 'drop';
    },
  });
  try {
    const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache'), STEWARD_OBS_URL: proxy.url };
    const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.ok(raced !== undefined && cut && personsId !== undefined, 'the race was played');
    assert.is(a.code, 1, a.stdout + a.stderr);
    const named = emu.state().dashboards.filter((d) => d.name === raced);
    assert.equal(
      named.map((d) => d.id).sort(),
      [othersId!, personsId].sort(),
      `the other runner's copy and the person's stay, this run's own is removed\n${a.stdout}`,
    );
  } finally {
    await proxy.close();
    await emu.close();
    p.cleanup();
  }
});

test.run();
