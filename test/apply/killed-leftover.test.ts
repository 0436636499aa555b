/**
 * An apply killed (kill -9) after its creates, before its check for copies another runner made at the same
 * time: its later copy of a name was removed by no one, and every later plan blocked the name (and the alerts
 * bound to it) as ambiguous, exit 3, in both checkouts, until a person deleted one (red team, duplicates
 * round). The next apply in its folder takes over its stale lock and finishes that check from its journal:
 * its own later copy goes, the oldest (the other runner's) stays; a copy the killed run did not make is never
 * touched. Alerts likewise. The built CLI, spawned, against the emulator through a proxy that kills it at
 * that list.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChildProcess } from 'node:child_process';
import { type Emulator, startEmulator } from '../../src/emulator/index.ts';
import { stewardSpawned } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

type Api = 'hyperdx' | 'clickstack-cloud';
type Kind = 'dashboards' | 'alerts';

/** Another runner's create of the same body, sent straight to the emulator: the id it got. */
async function otherRunnerCreates(emu: Emulator, path: string, auth: string, body: string): Promise<string | undefined> {
  const r = await fetch(emu.url + path, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
  const answer = (await r.json()) as { data?: { id?: string }; result?: { id?: string } };
  return answer.data?.id ?? answer.result?.id;
}

/** The name a create's answer carries. */
function answeredName(text: string): string | undefined {
  const made = JSON.parse(text) as { data?: { name?: string }; result?: { name?: string } };
  return made.data?.name ?? made.result?.name;
}

/** apply through the proxy, which kills it (through the process `onChild` is given). */
function applyThroughProxy(api: Api, dir: string, emu: Emulator, proxyUrl: string, onChild: (c: ChildProcess) => void) {
  const env = { ...emu.env, STEWARD_OBS_URL: proxyUrl } as Record<string, string>;
  if (api === 'clickstack-cloud') env['STEWARD_CLOUD_URL'] = proxyUrl;
  return stewardSpawned(['apply', '--auto-approve'], { cwd: dir, env, onChild });
}

/** The ids of the emulator's dashboards (alerts) of that name. */
function copiesOf(emu: Emulator, kind: Kind, name: string | undefined): string[] {
  return (emu.state()[kind] as unknown as Array<{ id: string; name?: string }>).filter((d) => d.name === name).map((d) => d.id);
}

for (const [api, kind] of [
  ['hyperdx', 'dashboards'],
  ['clickstack-cloud', 'dashboards'],
  ['hyperdx', 'alerts'],
  ['clickstack-cloud', 'alerts'],
] as const) {
  for (const othersFirst of [true, false]) {
    test(`${api}, ${kind}: an apply killed before its check for copies, run again: ${othersFirst ? 'its later copy is removed, the other runner’s stays' : 'its copy is the oldest: the other runner’s later copy is left to that runner'}`, async () => {
      const p = tmpProject({});
      copyExample(p.dir, api);
      // A second a request: ids made in order carry increasing seconds, so the oldest is certain.
      let clock = Date.parse('2026-11-01T00:00:00Z');
      const emu = await startEmulator({ api, seed: 23, now: () => new Date((clock += 1000)) });
      let raced: string | undefined;
      let othersId: string | undefined;
      let created = false;
      let racedBody: string | undefined;
      let child: ChildProcess | undefined;
      const other = async (path: string, auth: string, body: string) => void (othersId = await otherRunnerCreates(emu, path, auth, body));
      const proxy = await startProxy(emu.url, {
        intercept: async (req, path, body) => {
          if (req.method === 'GET' && path.endsWith(`/${kind}`) && created) {
            // The list that checks for copies: the runner dies here.
            child?.kill('SIGKILL');
            return { status: 503, body: '' };
          }
          if (req.method !== 'POST' || !path.endsWith(`/${kind}`) || raced !== undefined) return undefined;
          raced = (JSON.parse(body) as { name: string }).name;
          // Another runner's copy of the same dashboard, made just before this one.
          if (othersFirst) await other(path, String(req.headers.authorization), body);
          else racedBody = body;
          return undefined;
        },
        rewrite: async (req, path, _status, text) => {
          if (req.method !== 'POST' || !path.endsWith(`/${kind}`)) return text;
          created = true;
          // Just after this one: made once this one is stored.
          if (racedBody !== undefined && answeredName(text) === raced) {
            const b = racedBody;
            racedBody = undefined;
            await other(path, String(req.headers.authorization), b);
          }
          return text;
        },
      });
      try {
        const killed = await applyThroughProxy(api, p.dir, emu, proxy.url, (c) => (child = c));
        assert.is(killed.code, null, killed.stdout + killed.stderr);
        const copies = () => copiesOf(emu, kind, raced);
        assert.is(copies().length, 2, 'the killed run left two of the name');
        assert.ok(othersId);

        const again = await stewardSpawned(['apply', '--auto-approve'], { cwd: p.dir, env: { ...emu.env } as Record<string, string> });
        assert.match(again.stderr, 'took over a stale lock');
        if (othersFirst) {
          assert.equal(copies(), [othersId], again.stdout + again.stderr);
          assert.ok(again.stderr.includes(`removed ${kind.slice(0, -1)} `), again.stderr);
          assert.ok(again.stderr.includes(`"${raced}"), a later copy the killed run made and did not remove; ${othersId} stays`), again.stderr);
          assert.is(again.code, 0, again.stdout + again.stderr);
          // Alerts bound to the copy that stays.
          const ids = new Set(emu.state().dashboards.map((d: { id: string }) => d.id));
          for (const a of emu.state().alerts as Array<{ dashboardId?: string }>) if (a.dashboardId) assert.ok(ids.has(a.dashboardId), a.dashboardId);
        } else {
          // The other runner's copy is the later one: that runner's to remove, never this one's.
          assert.is(copies().length, 2);
          assert.ok(copies().includes(othersId!));
          assert.not.match(again.stderr, 'removed ');
        }
      } finally {
        await proxy.close();
        await emu.close();
        p.cleanup();
      }
    });
  }
}

// Killed after the server made its create and before the answer reached it (the answer lost, the runner then in
// its settle window, or killed at that moment): its journal has no id for its copy, only the create it sent.
// The takeover keeps the oldest marked copy of that name and removes the later ones, as the run would have.
for (const [api, kind] of [
  ['hyperdx', 'dashboards'],
  ['clickstack-cloud', 'dashboards'],
  ['hyperdx', 'alerts'],
] as const) {
  for (const another of [true, false]) {
    test(`${api}, ${kind}: an apply killed before its create's answer reached it, run again: ${another ? "its unknown later copy is removed, the other runner's stays" : 'its only copy is adopted, nothing removed'}`, async () => {
      const p = tmpProject({});
      // The takeover waits out the killed run's unanswered creates, a request timeout and a settle window
      // (30 s each by default): a short timeout keeps that to seconds.
      copyExample(p.dir, api, { timeoutSeconds: 3 });
      let clock = Date.parse('2026-11-01T00:00:00Z');
      const emu = await startEmulator({ api, seed: 29, now: () => new Date((clock += 1000)) });
      let raced: string | undefined;
      let othersId: string | undefined;
      let child: ChildProcess | undefined;
      const proxy = await startProxy(emu.url, {
        intercept: async (req, path, body) => {
          if (req.method !== 'POST' || !path.endsWith(`/${kind}`) || raced !== undefined) return undefined;
          raced = (JSON.parse(body) as { name: string }).name;
          if (another) othersId = await otherRunnerCreates(emu, path, String(req.headers.authorization), body);
          return undefined;
        },
        rewrite: async (req, path, _status, text) => {
          // The server made it; the runner dies before its answer arrives.
          if (req.method === 'POST' && path.endsWith(`/${kind}`) && answeredName(text) === raced) child?.kill('SIGKILL');
          return text;
        },
      });
      try {
        const killed = await applyThroughProxy(api, p.dir, emu, proxy.url, (c) => (child = c));
        assert.is(killed.code, null, killed.stdout + killed.stderr);
        const copies = () => copiesOf(emu, kind, raced);
        assert.is(copies().length, another ? 2 : 1, 'the killed run made its copy');

        const again = await stewardSpawned(['apply', '--auto-approve'], { cwd: p.dir, env: { ...emu.env } as Record<string, string> });
        assert.match(again.stderr, 'took over a stale lock');
        assert.match(again.stderr, /waiting \d s before planning: the killed run sent \d+ creates? whose outcome it never learned/);
        if (another) {
          assert.equal(copies(), [othersId], again.stdout + again.stderr);
          assert.ok(again.stderr.includes(`"${raced}"), a later copy the killed run made and did not remove; ${othersId} stays`), again.stderr);
        } else {
          assert.is(copies().length, 1, again.stdout + again.stderr);
          assert.not.match(again.stderr, 'removed ');
        }
        assert.is(again.code, 0, again.stdout + again.stderr);
      } finally {
        await proxy.close();
        await emu.close();
        p.cleanup();
      }
    });
  }
}

test.run();
