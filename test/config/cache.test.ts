/**
 * The parse cache: an unchanged file is answered from `.steward/cache/parse.pack`; any change of its bytes
 * or of a `${VAR}` it mentions parses it again; a damaged, foreign or stale pack is ignored; files with a
 * problem are never stored. Every load is compared with a load that does not use the cache.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CACHE_DIR, PACK_FILE, cacheKey, cacheWanted, openParseCache } from '../../src/config/cache.ts';
import { authenticatedChunks, authenticatedText } from '../../src/config/cache-trust.ts';
import { nodeFileSystem, type FileSystem } from '../../src/config/fs.ts';
import { loadWorkspace, type Loaded } from '../../src/config/load.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["dash/*.yaml", "alerts/*.yaml"]\n';
const dash = (name: string, extra = '') => `apiVersion: steward/v1
kind: Dashboard
metadata: { name: ${name} }
spec:
  name: ${name} board
  tags: [team:shop]
  tiles:
    - name: Errors
      x: 0
      y: 0
      w: \${TILE_W:-6}
      h: 3
${extra}`;
const ALERT = `apiVersion: steward/v1
kind: Alert
metadata: { name: a1, id: 65f5e4a3b9e77c001a000001 }
spec:
  name: Errors above \${LIMIT}
  threshold: \${LIMIT}
  thresholdType: above
  interval: 5m
  source: tile
  tile: { dashboard: one, name: Errors }
  channel: { type: webhook, webhookId: 65f5e4a3b9e77c001a0000aa }
`;
const FILES = { 'steward.yaml': PROJECT, 'dash/one.yaml': dash('one'), 'dash/two.yaml': dash('two'), 'alerts/a.yaml': ALERT };

type Env = Record<string, string | undefined>;
/** Where the cache's machine key is kept during these tests (never the real ~/.cache). */
const XDG = mkdtempSync(join(tmpdir(), 'steward-xdg-'));
process.once('exit', () => rmSync(XDG, { recursive: true, force: true }));
const withKey = (env: Env): Env => ({ XDG_CACHE_HOME: XDG, ...env });
const load = (dir: string, env: Env, cache = true, paths?: string[]) =>
  loadWorkspace({ fs: nodeFileSystem, env: withKey(env), cwd: dir }, { cache, ...(paths ? { paths } : {}) });

/** What a user sees of a load: everything but the statistics. */
const seen = (l: Loaded) => ({ files: l.files, resources: l.resources, issues: l.issues });

async function withProject(files: Record<string, string | Buffer>, f: (dir: string) => Promise<void>) {
  const p = tmpProject(files);
  try {
    await f(p.dir);
  } finally {
    p.cleanup();
  }
}

test('a second load answers every file from the cache, with the same result as no cache', () =>
  withProject(FILES, async (dir) => {
    const env = { LIMIT: '50' };
    const first = await load(dir, env);
    assert.equal(first.stats.cache, { hits: 0, misses: 3, stored: 3 });
    assert.ok(existsSync(join(dir, CACHE_DIR, PACK_FILE)), 'the pack is written');
    assert.match(readFileSync(join(dir, CACHE_DIR, '.gitignore'), 'utf8'), /^\*$/m, 'and kept out of git');
    const second = await load(dir, env);
    assert.equal(second.stats.cache, { hits: 3, misses: 0, stored: 0 });
    assert.is(second.stats.parsed, 0);
    const none = await load(dir, env, false);
    assert.is(none.stats.cache, undefined);
    assert.equal(seen(second), seen(none));
    assert.equal(seen(first), seen(none));
    // typed interpolation survives the cache: threshold is the number 50, the name a string
    const a = second.resources.find((r) => r.kind === 'Alert');
    assert.ok(a && a.kind === 'Alert');
    assert.is(a.doc.spec.threshold, 50);
    assert.is(a.doc.spec.name, 'Errors above 50');
  }));

test('a changed file is parsed again; the others still come from the cache', () =>
  withProject(FILES, async (dir) => {
    const env = { LIMIT: '50' };
    await load(dir, env);
    writeFileSync(join(dir, 'dash/two.yaml'), dash('two').replace('team:shop', 'team:payments'));
    const l = await load(dir, env);
    assert.equal(l.stats.cache, { hits: 2, misses: 1, stored: 1 });
    const two = l.resources.find((r) => r.name === 'two');
    assert.ok(two && two.kind === 'Dashboard');
    assert.equal(two.doc.spec.tags, ['team:payments']);
    assert.equal(seen(l), seen(await load(dir, env, false)));
  }));

test('a changed value of a variable the file mentions parses it again (set, changed, unset to its default)', () =>
  withProject(FILES, async (dir) => {
    await load(dir, { LIMIT: '50' });
    // LIMIT changes: only the alert mentions it
    let l = await load(dir, { LIMIT: '75' });
    assert.equal(l.stats.cache, { hits: 2, misses: 1, stored: 1 });
    const a = l.resources.find((r) => r.kind === 'Alert');
    assert.ok(a && a.kind === 'Alert');
    assert.is(a.doc.spec.threshold, 75);
    // TILE_W is set: both dashboards mention it (with a default)
    l = await load(dir, { LIMIT: '75', TILE_W: '4' });
    assert.equal(l.stats.cache, { hits: 1, misses: 2, stored: 2 });
    const one = l.resources.find((r) => r.name === 'one');
    assert.ok(one && one.kind === 'Dashboard');
    assert.is(one.doc.spec.tiles?.[0]?.w, 4);
    // TILE_W set to '' means unset (the default applies), as interpolation reads it: same key as unset
    await load(dir, { LIMIT: '75' });
    l = await load(dir, { LIMIT: '75', TILE_W: '' });
    assert.equal(l.stats.cache, { hits: 3, misses: 0, stored: 0 });
    assert.equal(seen(l), seen(await load(dir, { LIMIT: '75', TILE_W: '' }, false)));
    // a variable nobody mentions changes nothing
    l = await load(dir, { LIMIT: '75', UNRELATED: 'x' });
    assert.equal(l.stats.cache, { hits: 3, misses: 0, stored: 0 });
  }));

test('a reference an escape hides from the text (\\x24{X}, $\\x7b, a line continuation) is never served stale: such a file is not cached', () =>
  withProject(
    {
      ...FILES,
      'dash/one.yaml': dash('one').replace('name: one board', 'name: "Team \\x24{TEAM} and $\\x7bSHIFT} and $\\\n    {DESK}"'),
    },
    async (dir) => {
      const names = async (env: Env) => (await load(dir, { LIMIT: '1', ...env })).resources.find((r) => r.kind === 'Dashboard' && r.file.endsWith('one.yaml'))!;
      for (const [team, shift, desk] of [
        ['alpha', 'am', 'd1'],
        ['beta', 'am', 'd1'],
        ['beta', 'pm', 'd1'],
        ['beta', 'pm', 'd2'],
      ] as const) {
        const one = await names({ TEAM: team, SHIFT: shift, DESK: desk });
        assert.ok(one.kind === 'Dashboard');
        assert.is(one.doc.spec.name, `Team ${team} and ${shift} and ${desk}`);
      }
      const l = await load(dir, { LIMIT: '1', TEAM: 'beta', SHIFT: 'pm', DESK: 'd2' });
      assert.equal(l.stats.cache, { hits: 2, misses: 0, stored: 0 }, 'the other files still come from the cache; this one is not looked up');
      assert.is(cacheKey(readFileSync(join(dir, 'dash/one.yaml')), {}), undefined);
    },
  ));

test('the key covers the bytes and the mentioned variables only', () => {
  const b = Buffer.from('name: ${A}-${B:-x} $${C}\n');
  const k = cacheKey(b, { A: '1' });
  assert.is(cacheKey(b, { A: '1', Z: '9' }), k, 'unmentioned variables do not count');
  assert.is.not(cacheKey(b, { A: '2' }), k);
  assert.is.not(cacheKey(b, { A: '1', B: 'y' }), k);
  assert.is.not(cacheKey(b, { A: '1', C: 'y' }), k, 'an escaped reference still counts (a superset is safe)');
  assert.is(cacheKey(b, { A: '1', B: '' }), k, "'' is unset");
  assert.is.not(cacheKey(Buffer.from('name: ${A}-${B:-x} $${C} \n'), { A: '1' }), k);
  // name=value pairs cannot be confused across names
  assert.is.not(cacheKey(Buffer.from('${A}${B}'), { A: 'x', B: '' }), cacheKey(Buffer.from('${A}${B}'), { A: '', B: 'x' }));
});

test('a damaged pack is ignored without a crash, and replaced by a good one', async () => {
  const damage: Array<[string, (pack: Buffer) => Buffer | string]> = [
    ['garbage', () => 'not a cache at all'],
    ['empty', () => ''],
    ['truncated', (p) => p.subarray(0, Math.floor(p.length / 2))],
    ['a flipped byte in the body', (p) => Buffer.from(p.toString('utf8').replace('"team:shop"', '"team:shoq"'))],
    ['a header without body', (p) => p.subarray(0, p.indexOf(10) + 1)],
    ['binary', () => Buffer.from([0, 1, 2, 255, 10, 0, 0])],
  ];
  for (const [what, corrupt] of damage) {
    await withProject(FILES, async (dir) => {
      const env = { LIMIT: '50' };
      const good = seen(await load(dir, env, false));
      await load(dir, env);
      const path = join(dir, CACHE_DIR, PACK_FILE);
      writeFileSync(path, corrupt(readFileSync(path)));
      const l = await load(dir, env);
      assert.equal(l.stats.cache, { hits: 0, misses: 3, stored: 3 }, what);
      assert.equal(seen(l), good, what);
      assert.equal((await load(dir, env)).stats.cache, { hits: 3, misses: 0, stored: 0 }, `${what}: rewritten`);
    });
  }
});

test('an entry of the wrong shape is a miss even under a valid checksum', () =>
  withProject(FILES, async (dir) => {
    const env = { LIMIT: '50' };
    const fs: FileSystem = nodeFileSystem;
    const key = cacheKey(readFileSync(join(dir, 'dash/one.yaml')), env)!;
    // A pack written by this code whose entry for dash/one.yaml names another document
    const c = openParseCache(fs, dir, withKey(env))!;
    const real = (await load(dir, env, false)).resources.filter((r) => r.name === 'one');
    c.set(
      key,
      real.map((r) => ({ ...r, name: 'other' })),
    );
    c.save({ partial: false });
    const l = await load(dir, env);
    assert.equal(l.stats.cache, { hits: 0, misses: 3, stored: 3 });
    assert.equal(seen(l), seen(await load(dir, env, false)));
  }));

test('a settled file whose version is unchanged is not read again; any change of it or of its variables is', () =>
  withProject(FILES, async (dir) => {
    // GIVEN files the cache may trust by version at once (settle 0), and a file system that counts reads
    const reads: string[] = [];
    const fs: FileSystem = { ...nodeFileSystem, readFile: (p, o) => (reads.push(p), nodeFileSystem.readFile(p, o)) };
    const settled = (env: Env) => loadWorkspace({ fs, env: withKey(env), cwd: dir }, { cache: true, cacheSettleMs: 0 });
    const env = { LIMIT: '50' };
    const first = await settled(env);
    assert.equal(first.stats.cache, { hits: 0, misses: 3, stored: 3 });
    // WHEN nothing changed THEN no resource file is read, and the load is the uncached one
    reads.length = 0;
    const warm = await settled(env);
    assert.equal(warm.stats.cache, { hits: 3, misses: 0, stored: 0 });
    assert.equal(
      reads.filter((r) => r.includes('/dash/') || r.includes('/alerts/')),
      [],
    );
    assert.equal(seen(warm), seen(await load(dir, env, false)));
    // WHEN a variable a file names changes THEN that file is parsed again (its key changed)
    const other = await settled({ LIMIT: '70' });
    assert.equal(other.stats.cache, { hits: 2, misses: 1, stored: 1 });
    assert.equal(seen(other), seen(await load(dir, { LIMIT: '70' }, false)));
    // WHEN a file changes to bytes of the same size with its modification time put back THEN it is read again
    const file = join(dir, 'dash/one.yaml');
    const before = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('h: 3', 'h: 4'));
    utimesSync(file, before.atime, before.mtime);
    assert.is(statSync(file).size, before.size);
    reads.length = 0;
    const changed = await settled({ LIMIT: '70' });
    assert.ok(reads.includes(file));
    assert.equal(changed.stats.cache, { hits: 2, misses: 1, stored: 1 });
    assert.equal(seen(changed), seen(await load(dir, { LIMIT: '70' }, false)));
  }));

test('a file changed within the settle time is always read', () =>
  withProject(FILES, async (dir) => {
    const reads: string[] = [];
    const fs: FileSystem = { ...nodeFileSystem, readFile: (p, o) => (reads.push(p), nodeFileSystem.readFile(p, o)) };
    const env = { LIMIT: '50' };
    const fresh = () => loadWorkspace({ fs, env: withKey(env), cwd: dir }, { cache: true, cacheSettleMs: 3_600_000 });
    await fresh();
    reads.length = 0;
    assert.equal((await fresh()).stats.cache, { hits: 3, misses: 0, stored: 0 });
    assert.is(reads.filter((r) => r.includes('/dash/') || r.includes('/alerts/')).length, 3);
  }));

test('a pack written by other code (another version or schema) is ignored', () =>
  withProject(FILES, async (dir) => {
    const env = { LIMIT: '50' };
    const loaded = await load(dir, env, false);
    const old = openParseCache(nodeFileSystem, dir, withKey(env), { identity: 'older-steward' })!;
    for (const f of ['dash/one.yaml', 'dash/two.yaml']) {
      old.set(
        cacheKey(readFileSync(join(dir, f)), env)!,
        loaded.resources.filter((r) => r.file === join(dir, f)),
      );
    }
    old.save({ partial: false });
    assert.equal(
      openParseCache(nodeFileSystem, dir, withKey(env), { identity: 'older-steward' })!.get(
        cacheKey(readFileSync(join(dir, 'dash/one.yaml')), env)!,
        'dash/one.yaml',
      )?.length,
      1,
    );
    assert.equal((await load(dir, env)).stats.cache, { hits: 0, misses: 3, stored: 3 });
  }));

test('files with a problem are never cached: positions are computed fresh every time', () =>
  withProject({ ...FILES, 'dash/bad.yaml': dash('bad').replace('h: 3', 'h: tall') }, async (dir) => {
    const env = { LIMIT: '50' };
    const first = await load(dir, env);
    const second = await load(dir, env);
    assert.equal(second.stats.cache, { hits: 3, misses: 1, stored: 0 });
    assert.is(second.stats.parsed, 1);
    const issue = second.issues.find((i) => i.file === 'dash/bad.yaml');
    assert.equal(issue && { line: issue.line, col: issue.col, pointer: issue.pointer }, { line: 12, col: 10, pointer: '/spec/tiles/0/h' });
    assert.equal(seen(second), seen(first));
    // an unset variable is a problem too: never stored, so setting it later is seen at once
    rmSync(join(dir, 'dash/bad.yaml'));
    const unset = await load(dir, {});
    assert.ok(unset.issues.some((i) => i.file === 'alerts/a.yaml' && i.message.includes('LIMIT is not set')));
    assert.is(unset.stats.cache?.stored, 0);
  }));

test('warnings keep a file out of the cache too; semantic checks run on cached resources', () =>
  withProject({ ...FILES, 'dash/two.yaml': dash('two').replace('x: 0', 'x: 20') }, async (dir) => {
    const env = { LIMIT: '50' };
    await load(dir, env);
    const l = await load(dir, env);
    // the grid warning is semantic (after loading): found again although the file came from the cache
    assert.equal(l.stats.cache, { hits: 3, misses: 0, stored: 0 });
    const w = l.issues.find((i) => i.severity === 'warning');
    assert.equal(w && `${w.file}:${w.line}:${w.col}`, 'dash/two.yaml:11:10');
    assert.equal(seen(l), seen(await load(dir, env, false)));
  }));

test('a full load drops entries of files that are gone; a load of some paths keeps the others', () =>
  withProject(FILES, async (dir) => {
    const env = { LIMIT: '50' };
    await load(dir, env);
    // validate one file: the other entries stay
    const one = await load(dir, env, true, ['dash/one.yaml']);
    assert.equal(one.stats.cache, { hits: 1, misses: 0, stored: 0 });
    assert.equal((await load(dir, env)).stats.cache, { hits: 3, misses: 0, stored: 0 });
    // a file removed, then put back: its entry went with it
    const two = readFileSync(join(dir, 'dash/two.yaml'));
    rmSync(join(dir, 'dash/two.yaml'));
    await load(dir, env);
    writeFileSync(join(dir, 'dash/two.yaml'), two);
    assert.equal((await load(dir, env)).stats.cache, { hits: 2, misses: 1, stored: 1 });
  }));

test('a file system that cannot write has no cache; deleting the cache folder is safe', () =>
  withProject(FILES, async (dir) => {
    const env = { LIMIT: '50' };
    const { writeFileAtomic: _w, ...readOnly } = nodeFileSystem;
    const l = await loadWorkspace({ fs: readOnly, env: withKey(env), cwd: dir }, { cache: true });
    assert.is(l.stats.cache, undefined);
    assert.not.ok(existsSync(join(dir, CACHE_DIR)));
    await load(dir, env);
    rmSync(join(dir, '.steward'), { recursive: true });
    assert.equal((await load(dir, env)).stats.cache, { hits: 0, misses: 3, stored: 3 });
  }));

test('a value JSON cannot carry (-0; .inf and .nan fail the schemas) keeps its file out of the cache', () =>
  withProject(
    {
      'steward.yaml': PROJECT,
      'dash/one.yaml': dash('one'),
      'dash/odd.yaml':
        'apiVersion: steward/v1\nkind: CloudService\nmetadata: { name: c }\nspec:\n  organizationId: 6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31\n  serviceId: 9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d\n  backups: { minCount: -0 }\n',
    },
    async (dir) => {
      assert.equal((await load(dir, {})).stats.cache, { hits: 0, misses: 2, stored: 1 });
      const again = await load(dir, {});
      assert.equal(again.stats.cache, { hits: 1, misses: 1, stored: 0 });
      const o = again.resources.find((r) => r.kind === 'CloudService');
      assert.ok(o && o.kind === 'CloudService');
      assert.ok(Object.is(o.doc.spec.backups?.minCount, -0), 'still -0, as parsed');
    },
  ));

test('cacheWanted: on by default, off with --no-cache or STEWARD_NO_CACHE', () => {
  assert.is(cacheWanted(undefined, {}), true);
  assert.is(cacheWanted(true, {}), true);
  assert.is(cacheWanted(false, {}), false);
  assert.is(cacheWanted(true, { STEWARD_NO_CACHE: '1' }), false);
  assert.is(cacheWanted(true, { STEWARD_NO_CACHE: 'true' }), false);
  assert.is(cacheWanted(true, { STEWARD_NO_CACHE: '0' }), true);
  assert.is(cacheWanted(true, { STEWARD_NO_CACHE: '' }), true);
});

test('a pack written in chunks is the file one string would give: same MAC, same bytes', () => {
  const key = Buffer.alloc(32, 7);
  for (const parts of [[], ['{}'], ['{', '"a":1,', '"b":"x"}'], ['{', `"big":"${'y'.repeat(3 << 20)}",`, `"é":"\u2028"}`]]) {
    const whole = authenticatedText('m', 'id', key, parts.join(''), parts.length);
    assert.is([...authenticatedChunks('m', 'id', key, () => parts, parts.length)].join(''), whole);
  }
});

test.run();
