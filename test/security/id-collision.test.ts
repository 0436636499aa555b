/**
 * A list that holds two different items under one id (red team, round 14). Identical repeats are one item
 * listed twice (test/apply/listed-twice.test.ts); two different ones were kept as the first, the other set
 * aside, and the plan created again the dashboard (alert) it no longer saw: a duplicate on the service.
 * Such a list is refused in one line before anything is written. Apply against the emulator through a proxy
 * on 127.0.0.1 that gives the last item of the list the id of the one before it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

for (const [api, kind] of [
  ['hyperdx', 'dashboards'],
  ['hyperdx', 'alerts'],
  ['clickstack-cloud', 'dashboards'],
  ['clickstack-cloud', 'alerts'],
] as const) {
  test(`${api}, ${kind}: two different items of one id in a list are refused, nothing created again`, async () => {
    const p = tmpProject({});
    copyExample(p.dir, api);
    const emu = await startEmulator({ api, seed: 31 });
    let collide = false;
    const proxy = await startProxy(emu.url, {
      rewrite: (req, path, _status, text) => {
        if (!collide || req.method !== 'GET' || !path.endsWith(`/${kind}`)) return text;
        const body = JSON.parse(text) as { data?: Array<{ id: string }>; result?: Array<{ id: string }> };
        const list = (body.data ?? body.result)!;
        // The two this project made last: both declared by its files.
        list[list.length - 1]!.id = list[list.length - 2]!.id;
        return JSON.stringify(body);
      },
    });
    try {
      const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache'), STEWARD_OBS_URL: proxy.url } as Record<string, string>;
      if (api === 'clickstack-cloud') env['STEWARD_CLOUD_URL'] = proxy.url;
      const first = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
      assert.is(first.code, 0, first.stdout + first.stderr);
      const before = emu.state()[kind].length;
      collide = true;
      for (const args of [['plan'], ['apply', '--auto-approve'], ['import', '--all', '--out', join(p.dir, 'imported')]]) {
        const r = await steward(args, { cwd: p.dir, env });
        assert.is(r.code, 1, `${args.join(' ')}\n${r.stdout}${r.stderr}`);
        assert.match(
          r.stderr,
          new RegExp(
            `^error: GET \\S+/${kind}: the service listed two different ${kind} with the id "[0-9a-f]+" \\("[^"]+" and "[^"]+"\\); steward will not plan on a list it cannot read one way`,
          ),
        );
        assert.is(r.stderr.split('\n').length, 2, r.stderr);
        assert.is(emu.state()[kind].length, before, `${args.join(' ')}: nothing created\n${r.stdout}`);
      }
    } finally {
      await proxy.close();
      await emu.close();
      p.cleanup();
    }
  });
}

test.run();
