/**
 * Parsing on worker threads gives exactly what parsing in this thread gives: the same resources in the
 * same order, the same problems at the same file:line:col (syntax, schema, variables, encoding, semantic).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace, type Loaded } from '../../src/config/load.ts';
import { processFiles } from '../../src/config/parse-pool.ts';
import { tmpProject } from '../helpers/tmp.ts';

const dash = (i: number) => `apiVersion: steward/v1
kind: Dashboard
metadata: { name: d${i} }
spec:
  name: Dashboard \${PREFIX:-} ${i}
  tags: [team:t${i % 7}]
  tiles:
    - name: Errors
      x: 0
      y: 0
      w: 6
      h: 3
      series: [{ type: time, dataSource: events, aggFn: count, where: "svc:${i}", whereLanguage: lucene, groupBy: [] }]
    - { name: Latency, x: 6, y: 0, w: 6, h: 3 }
`;

const BAD: Record<string, string | Buffer> = {
  'd/bad-yaml.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nspec: { tags: [a, b\n',
  'd/bad-type.yaml': dash(9001).replace('h: 3', 'h: tall'),
  'd/bad-key.yaml': dash(9002).replace('tags:', 'tagz:'),
  'd/bad-var.yaml': dash(9003).replace('w: 6', 'w: ${UNSET_WIDTH}'),
  'd/bad-utf8.yaml': Buffer.concat([Buffer.from('apiVersion: steward/v1\nkind: Dashboard # caf'), Buffer.from([0xe9]), Buffer.from('\n')]),
  'd/bad-kind.yaml': 'apiVersion: steward/v1\nkind: Dashbord\n',
  'd/dup-name.yaml': dash(17),
  'd/empty.yaml': '',
  'd/warn-grid.yaml': dash(9004).replace('x: 6', 'x: 20'),
  'd/two-docs.yaml': `${dash(9005)}---\n${dash(9006)}`,
};

function project(n: number) {
  const files: Record<string, string | Buffer> = { 'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["d/**/*.yaml"]\n', ...BAD };
  for (let i = 0; i < n; i++) files[`d/${String(i).padStart(4, '0')}.yaml`] = dash(i);
  return tmpProject(files);
}

const seen = (l: Loaded) => ({ files: l.files, resources: l.resources, issues: l.issues });

// Under tsx a worker cannot load src/config/parse-worker.ts (Node 20 does not pass the loader on): the
// built worker is what the CLI runs anyway. `npm test` builds first.
const BUILT_WORKER = new URL('../../dist/config/parse-worker.js', import.meta.url);
test.before(() => {
  assert.ok(existsSync(fileURLToPath(BUILT_WORKER)), 'dist/config/parse-worker.js is missing: run npm run build first');
});

test('240 files on two workers: identical to one thread, problems and positions included', async () => {
  const p = project(240);
  try {
    const env = { PREFIX: 'prod' };
    const one = await loadWorkspace({ fs: nodeFileSystem, env, cwd: p.dir }, { parallel: { workers: 0 } });
    const two = await loadWorkspace({ fs: nodeFileSystem, env, cwd: p.dir }, { parallel: { workers: 2, minFiles: 0, workerUrl: BUILT_WORKER } });
    assert.is(one.stats.workers, 0);
    assert.is(two.stats.workers, 2, 'both workers answered');
    assert.is(two.stats.parsed, 250);
    assert.equal(seen(two), seen(one));
    // the fixture does exercise problems of every stage
    const where = (f: string) => two.issues.filter((i) => i.file === f).map((i) => `${i.line}:${i.col} ${i.severity}`);
    assert.equal(where('d/bad-yaml.yaml'), ['3:15 error', '3:7 error']);
    assert.equal(where('d/bad-type.yaml'), ['12:10 error']);
    assert.equal(where('d/bad-var.yaml'), ['11:10 error']);
    assert.equal(where('d/bad-utf8.yaml'), ['2:22 error']);
    assert.equal(where('d/warn-grid.yaml'), ['14:40 warning']);
    assert.ok(two.issues.some((i) => i.file === 'd/dup-name.yaml' && i.message.includes('duplicate Dashboard "d17"')));
    assert.is(two.resources.filter((r) => r.file.endsWith('two-docs.yaml')).length, 2);
    assert.is(two.resources[0]?.kind === 'Dashboard' && two.resources[0].doc.spec.name, 'Dashboard prod 0');
  } finally {
    p.cleanup();
  }
});

test('workers answer with text rows: documents read only when needed, the same checks and resources, and cached as they are', async () => {
  const p = project(240);
  try {
    const env = { PREFIX: 'prod', XDG_CACHE_HOME: join(p.dir, '.xdg') };
    const one = await loadWorkspace({ fs: nodeFileSystem, env, cwd: p.dir }, { parallel: { workers: 0 } });
    const load = () => loadWorkspace({ fs: nodeFileSystem, env, cwd: p.dir }, { cache: true, parallel: { workers: 2, minFiles: 0, workerUrl: BUILT_WORKER } });
    const two = await load();
    assert.is(two.stats.workers, 2);
    // Every valid dashboard came as a row: its facts answered the checks, its document is still unread
    const unread = (l: Loaded) => l.resources.filter((r) => Object.getOwnPropertyDescriptor(r, 'doc')?.get !== undefined).length;
    const valid = one.resources.length;
    assert.ok(valid >= 240, String(valid));
    assert.is(unread(two), valid);
    assert.ok(two.resources.every((r) => r.kind !== 'Dashboard' || r.facts !== undefined));
    assert.equal(two.issues, one.issues);
    assert.equal(seen(two), seen(one));
    // The rows went into the cache as they came: the next load parses nothing, and gives the same
    const warm = await load();
    assert.is(warm.stats.parsed, two.stats.parsed - valid + 1, 'only the files with problems are parsed again');
    assert.equal(seen(warm), seen(one));
  } finally {
    p.cleanup();
  }
});

test('few files are parsed in this thread; a worker that cannot start falls back to this thread', async () => {
  const jobs = [0, 1, 2].map((i) => ({ file: `/x/${i}.yaml`, bytes: Buffer.from(dash(i)), isProjectFile: false }));
  const small = await processFiles(jobs, {});
  assert.is(small.workers, 0);
  assert.equal(
    small.outputs.map((o) => o.resources.map((r) => r.name)),
    [['d0'], ['d1'], ['d2']],
  );
  // A worker with an unusable environment cannot start (structured clone of a function fails).
  const broken = await processFiles(jobs, { BAD: (() => 'x') as unknown as string }, { workers: 2, minFiles: 0, workerUrl: BUILT_WORKER });
  assert.is(broken.workers, 0);
  assert.equal(broken.outputs, small.outputs);
  // this thread may parse beside the workers: the same outputs
  const both = await processFiles([...jobs, ...jobs, ...jobs], {}, { workers: 1, minFiles: 0, mainThread: true, workerUrl: BUILT_WORKER });
  assert.equal(both.outputs, [...small.outputs, ...small.outputs, ...small.outputs]);
});

test('a big file goes to a worker however few files there are, and reads the same', async () => {
  const jobs = [0, 1].map((i) => ({ file: `/x/${i}.yaml`, bytes: Buffer.from(dash(i)), isProjectFile: false }));
  const here = await processFiles(jobs, {}, { workers: 0 });
  const big = await processFiles(jobs, {}, { bigFileBytes: 100, workerUrl: BUILT_WORKER });
  assert.is(big.workers, 1);
  assert.equal(big.outputs, here.outputs);
  // Below the size, as before: this thread.
  assert.is((await processFiles(jobs, {}, { bigFileBytes: 1e9, workerUrl: BUILT_WORKER })).workers, 0);
});

test('an abort while the workers parse stops them and throws its reason; an abort before starts none', async () => {
  // ~2 MB the fast path refuses (an unknown key): yaml reads it with positions, for seconds.
  const slow = Buffer.from(dash(1).replace('tags:', 'x:\n' + '    - {a: 1, b: [x, y]}\n'.repeat(90_000) + '  tags:'));
  const jobs = [{ file: '/x/slow.yaml', bytes: slow, isProjectFile: false }];
  const stop = new AbortController();
  const reason = new Error('interrupted');
  const started = performance.now();
  setTimeout(() => stop.abort(reason), 300);
  const err = await processFiles(jobs, {}, { bigFileBytes: 1000, workerUrl: BUILT_WORKER, signal: stop.signal }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.is(err, reason, `resolved instead of throwing the abort's reason after ${Math.round(performance.now() - started)} ms`);
  const before = new AbortController();
  before.abort(reason);
  const early = await processFiles(jobs, {}, { bigFileBytes: 1000, workerUrl: BUILT_WORKER, signal: before.signal }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.is(early, reason);
});

test('a worker that dies mid-batch (an exception, or an exit), as it starts, or after answering a batch leaves the rest to this thread', async () => {
  const jobs = Array.from({ length: 40 }, (_, i) => ({ file: `/x/${i}.yaml`, bytes: Buffer.from(dash(i)), isProjectFile: false }));
  const expected = (await processFiles(jobs, {}, { workers: 0 })).outputs;
  for (const mode of ['throw', 'exit', 'boot', 'after-one']) {
    for (const mainThread of [true, false]) {
      const r = await processFiles(jobs, { mode } as Record<string, string>, {
        workers: 2,
        minFiles: 0,
        mainThread,
        workerUrl: new URL('./fixtures/dying-worker.mjs', import.meta.url),
      });
      assert.equal(r.outputs, expected, `${mode}, main thread ${mainThread}`);
      // after-one: each worker's first answer may arrive before it dies (then it counts as having answered).
      if (mode !== 'after-one') assert.is(r.workers, 0, 'no worker answered');
    }
  }
});

test.run();
