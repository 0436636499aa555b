/**
 * A gateway that rate-limits on the way back answers 429 for a create it forwarded and the server made. A
 * 429 usually means "refused unprocessed", so steward sends a refused create again, but only after listing
 * by name: what is there is adopted, never made twice (red team, round 8: three dashboards became fifteen).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { createOnce } from '../../src/apply/create.ts';
import { createObservabilityClient } from '../../src/clients/observability.ts';
import { startEmulator } from '../../src/emulator/index.ts';

for (const wait of [undefined, '1'] as const) {
  test(`a create answered 429 ${wait ? 'with Retry-After' : 'without a wait'} after the server made it is found by name, not sent again`, async () => {
    const x = await examplesWithEmulator();
    let refused = 0;
    const proxy = await startProxy(x.emu.url, {
      rewrite: (req, path, status, text) => {
        if (req.method !== 'POST' || path !== '/api/v2/dashboards' || status !== 200) return text;
        refused++;
        const headers: Record<string, string> = wait ? { 'retry-after': wait } : {};
        return { status: 429, headers, body: '{"message":"Too many requests"}' };
      },
    });
    try {
      const env = { ...x.env, STEWARD_OBS_URL: proxy.url };
      const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env });
      assert.is(r.code, 0, r.stdout + r.stderr);
      assert.is(refused, 3, 'every create was made, then answered 429');
      assert.match(r.stdout, /refused with 429; in \d+ s steward lists it by name and sends it again only if it is not there/);
      assert.match(r.stdout, /after the 429, a dashboard of this name is listed \(\w+\): taken as this create, not sent again/);
      assert.not.match(r.stdout, /answered 2xx without the new id/);
      const names = x.emu.state().dashboards.map((d) => d.name);
      assert.equal([...names].sort(), ['Checkout overview', 'JVM runtime', 'Public API latency']);
      assert.is(x.emu.requests().filter((e) => e.method === 'POST' && e.path === '/api/v2/dashboards').length, 3, 'one POST per dashboard');
    } finally {
      await proxy.close();
      await x.cleanup();
    }
  });
}

test('Ctrl-C while waiting out a 429: neither the list nor the create is sent again; the outcome is unknown (red team, round 9)', async () => {
  const emu = await startEmulator({ seed: 1 });
  const proxy = await startProxy(emu.url, {
    intercept: (req, path) => (req.method === 'POST' && path === '/api/v2/dashboards' ? { status: 429, body: '{"message":"Too many requests"}' } : undefined),
  });
  try {
    const stop = new AbortController();
    const client = createObservabilityClient({ url: proxy.url, token: emu.env.STEWARD_OBS_TOKEN });
    const item = { kind: 'Dashboard', name: 'd', action: 'create', file: 'd.yaml', body: { name: 'D', tiles: [], tags: ['managed-by:steward'] } };
    const outcome = await createOnce(
      {
        client,
        signal: stop.signal,
        // The user presses Ctrl-C during the backoff.
        sleep: async () => stop.abort(),
        emit: () => {},
      } as never,
      item as never,
      { maxAttempts: 2, settleMs: 0, marker: 'managed-by:steward' },
    );
    assert.is(outcome.kind, 'unknown');
    assert.match((outcome as { why: string }).why, /interrupted while waiting, not re-sent/);
    assert.equal(
      emu.requests().map((r) => r.method),
      [],
      'the 429 came from the proxy; nothing reached the service after it',
    );
  } finally {
    await proxy.close();
    await emu.close();
  }
});

/** createOnce through a proxy whose every dashboard POST is made by the service, then answered 429 with these headers. */
async function givenUp(headers: Record<string, string>) {
  const emu = await startEmulator({ seed: 1 });
  let lagging = true;
  const proxy = await startProxy(emu.url, {
    rewrite: (req, path, status, text) => {
      // The list lags behind the writes (a cache, a replica): it never shows what the POSTs made.
      if (req.method === 'GET' && path === '/api/v2/dashboards' && lagging) return { status, body: JSON.stringify({ ...JSON.parse(text), data: [] }) };
      if (req.method !== 'POST' || path !== '/api/v2/dashboards' || status !== 200) return text;
      return { status: 429, headers, body: '{"message":"Too many requests"}' };
    },
  });
  try {
    const client = createObservabilityClient({ url: proxy.url, token: emu.env.STEWARD_OBS_TOKEN });
    const item = { kind: 'Dashboard', name: 'd', action: 'create', file: 'd.yaml', body: { name: 'D', tiles: [], tags: ['managed-by:steward'] } };
    const outcome = await createOnce({ client, sleep: async () => {}, emit: () => {} } as never, item as never, {
      maxAttempts: 2,
      settleMs: 0,
      marker: 'managed-by:steward',
    });
    lagging = false;
    const posts = emu.requests().filter((r) => r.method === 'POST').length;
    return { outcome: outcome as { kind: string; why?: string }, posts };
  } finally {
    await proxy.close();
    await emu.close();
  }
}

test('a 429 steward stops following (the sixth) is "unknown, not sent again", never "failed": the service may have made it (red team, round 9, F8)', async () => {
  const { outcome, posts } = await givenUp({ 'retry-after': '1' });
  assert.is(outcome.kind, 'unknown', JSON.stringify(outcome));
  assert.match(
    outcome.why!,
    /^answered 429 6 times .*none of its name is listed; not sent again\. Most likely not made \(a gateway can refuse after the service made it\): run steward plan to see$/,
    outcome.why,
  );
  assert.is(posts, 6);
});

test('a 429 asking for a wait over a minute: unknown at once, no list and no re-send (red team, round 9, F8)', async () => {
  const { outcome, posts } = await givenUp({ 'retry-after': '3600' });
  assert.is(outcome.kind, 'unknown');
  assert.match(outcome.why!, /^answered 429 asking to wait 3600 s \(steward waits at most 60 s\); not sent again\. .*run steward plan after the wait to see$/);
  assert.is(posts, 1);
});

test('a 429 asking for an hour stops the apply from starting any other write: the rest is "not done", said once at the end (red team round 10, F2)', async () => {
  const x = await examplesWithEmulator();
  let posts = 0;
  const proxy = await startProxy(x.emu.url, {
    intercept: (req, path) => {
      if (req.method !== 'POST' && req.method !== 'PUT') return undefined;
      posts++;
      return path === '/api/v2/dashboards' ? { status: 429, headers: { 'retry-after': '3600' }, body: '{"message":"Too many requests"}' } : undefined;
    },
  });
  try {
    const r = await steward(['apply', '--auto-approve', '--concurrency', '1'], { cwd: x.dir, env: { ...x.env, STEWARD_OBS_URL: proxy.url } });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.is(posts, 1, 'one write reached the service; none after it asked for an hour');
    assert.match(r.stdout, /Apply incomplete: 0 created, 0 updated, 0 unchanged, 0 failed, 0 skipped, 1 unknown, 6 not done\./);
    assert.match(
      r.stdout,
      /The service asked to wait 3600 s \(429\), longer than steward waits: nothing more was sent\. Run `steward apply` again after that\./,
    );
    assert.not.match(r.stdout, /Fix what failed/);
    assert.is(x.emu.state().dashboards.length, 0);
  } finally {
    await proxy.close();
    await x.cleanup();
  }
});

test.run();
