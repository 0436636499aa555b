/**
 * A forged parse cache cannot change what steward does (issue 13, docs/security.md): a pack that is not
 * authenticated by this machine's key, or that git tracks, is ignored, and every load gives what the YAML
 * says. Each case forges `.steward/cache/parse.pack` so that, if it were used, the dashboard's tile would
 * have w: 23 and the alert's threshold 1000000.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CACHE_DIR, PACK_FILE, cacheKey, codeIdentity, openParseCache } from '../../src/config/cache.ts';
import { gitTracks, keyDir } from '../../src/config/cache-trust.ts';
import { variablePolicy } from '../../src/config/credentials.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["dash/*.yaml"]\n';
const DASH = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: one }
spec:
  name: One
  tiles:
    - { name: Errors, x: 0, y: 0, w: 6, h: 3 }
`;

type Env = Record<string, string | undefined>;
const load = (dir: string, env: Env, cache = true) => loadWorkspace({ fs: nodeFileSystem, env, cwd: dir }, { cache, requireProject: true });

/** The resources as the YAML says, with the tile width forged to 23. */
async function forgedEntries(dir: string, env: Env) {
  const honest = (await load(dir, env, false)).resources;
  return honest.map((r) => {
    const doc = structuredClone(r.doc) as { spec: { tiles: Array<{ w: number }> } };
    doc.spec.tiles[0]!.w = 23;
    return { ...r, doc } as typeof r;
  });
}

const keyOf = (dir: string, env: Env) => cacheKey(readFileSync(join(dir, 'dash/one.yaml')), env, variablePolicy(undefined))!;

interface Case {
  name: string;
  /** Writes the forged pack (and whatever else the case needs); returns the env of the loads. */
  forge: (dir: string, env: Env) => Promise<Env | void>;
  /** Whether the cache is still used for honest entries afterwards (false: no key, no cache at all). */
  cacheOn?: boolean;
}

const CASES: Case[] = [
  {
    name: 'a pack with a plain sha256 checksum (computable from public code)',
    forge: async (dir, env) => {
      const entries = await forgedEntries(dir, env);
      const body = Buffer.from(JSON.stringify({ [keyOf(dir, env)]: entries.map((r) => ({ kind: r.kind, name: r.name, index: r.index, doc: r.doc })) }));
      const sum = createHash('sha256').update(body).digest('hex');
      mkdirSync(join(dir, CACHE_DIR), { recursive: true });
      writeFileSync(join(dir, CACHE_DIR, PACK_FILE), Buffer.concat([Buffer.from(`steward-parse-cache ${codeIdentity()} ${sum} 1\n`), body]));
    },
  },
  {
    name: "a pack authenticated by another machine's key (a committed or downloaded pack)",
    forge: async (dir, env) => {
      const c = openParseCache(nodeFileSystem, dir, env, { key: randomBytes(32), variables: variablePolicy(undefined) })!;
      c.set(keyOf(dir, env), await forgedEntries(dir, env));
      c.save({ partial: false });
    },
  },
  {
    name: "a pack authenticated by this machine's key, then edited",
    forge: async (dir, env) => {
      const c = openParseCache(nodeFileSystem, dir, env, { variables: variablePolicy(undefined) })!;
      c.set(keyOf(dir, env), (await load(dir, env, false)).resources);
      c.save({ partial: false });
      const p = join(dir, CACHE_DIR, PACK_FILE);
      writeFileSync(p, readFileSync(p, 'utf8').replace('"w":6', '"w":23'));
    },
  },
  {
    name: "a pack authenticated by this machine's key that git tracks",
    forge: async (dir, env) => {
      const c = openParseCache(nodeFileSystem, dir, env, { variables: variablePolicy(undefined) })!;
      c.set(keyOf(dir, env), await forgedEntries(dir, env));
      c.save({ partial: false });
      const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore', env: { PATH: process.env['PATH'] ?? '', HOME: dir } });
      git('init', '-q');
      git('add', '-f', join(CACHE_DIR, PACK_FILE));
    },
  },
  {
    name: 'a key file others can read (no key: no cache)',
    forge: async (dir, env) => {
      const c = openParseCache(nodeFileSystem, dir, env, { variables: variablePolicy(undefined) })!;
      c.set(keyOf(dir, env), await forgedEntries(dir, env));
      c.save({ partial: false });
      const other = join(dir, '.xdg-loose');
      mkdirSync(join(other, 'steward'), { recursive: true });
      writeFileSync(join(other, 'steward', 'cache.key'), randomBytes(32));
      chmodSync(join(other, 'steward', 'cache.key'), 0o644);
      return { ...env, XDG_CACHE_HOME: other };
    },
    cacheOn: false,
  },
  {
    name: 'a key file that is a symbolic link (no key: no cache)',
    forge: async (dir, env) => {
      const other = join(dir, '.xdg-link');
      mkdirSync(join(other, 'steward'), { recursive: true });
      writeFileSync(join(dir, 'planted.key'), randomBytes(32), { mode: 0o600 });
      symlinkSync(join(dir, 'planted.key'), join(other, 'steward', 'cache.key'));
      const forgedEnv = { ...env, XDG_CACHE_HOME: other };
      const c = openParseCache(nodeFileSystem, dir, forgedEnv, { key: readFileSync(join(dir, 'planted.key')), variables: variablePolicy(undefined) })!;
      c.set(keyOf(dir, env), await forgedEntries(dir, env));
      c.save({ partial: false });
      return forgedEnv;
    },
    cacheOn: false,
  },
];

for (const c of CASES) {
  test(`forged cache: ${c.name} is ignored; the YAML decides`, async () => {
    const p = tmpProject({ 'steward.yaml': PROJECT, 'dash/one.yaml': DASH });
    const xdg = mkdtempSync(join(tmpdir(), 'steward-xdg-'));
    try {
      const base: Env = { XDG_CACHE_HOME: xdg, PATH: process.env['PATH'] };
      const env = (await c.forge(p.dir, base)) ?? base;
      const l = await load(p.dir, env);
      const tile = (l.resources[0]!.doc as { spec: { tiles: Array<{ w: number }> } }).spec.tiles[0]!;
      assert.is(tile.w, 6, 'the value in the YAML, not the forged one');
      assert.equal(l.resources, (await load(p.dir, env, false)).resources);
      if (c.cacheOn === false) assert.is(l.stats.cache, undefined);
      else assert.is(l.stats.cache?.hits, 0);
    } finally {
      p.cleanup();
      rmSync(xdg, { recursive: true, force: true });
    }
  });
}

test("control: the same forgery under this machine's key, untracked, is used (so the cases above test the defences)", async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT, 'dash/one.yaml': DASH });
  const xdg = mkdtempSync(join(tmpdir(), 'steward-xdg-'));
  try {
    const env = { XDG_CACHE_HOME: xdg, PATH: process.env['PATH'] };
    const c = openParseCache(nodeFileSystem, p.dir, env, { variables: variablePolicy(undefined) })!;
    c.set(keyOf(p.dir, env), await forgedEntries(p.dir, env));
    c.save({ partial: false });
    const l = await load(p.dir, env);
    assert.is((l.resources[0]!.doc as { spec: { tiles: Array<{ w: number }> } }).spec.tiles[0]!.w, 23);
  } finally {
    p.cleanup();
    rmSync(xdg, { recursive: true, force: true });
  }
});

test('a committed folder under .steward/cache that looks like a git repository runs nothing when steward asks git about the pack', () => {
  // GIVEN a checkout whose commit planted HEAD, objects/, refs/ and a config with a core.fsmonitor command
  const p = tmpProject({});
  try {
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-C', cwd, ...args], { stdio: 'pipe', env: { PATH: process.env['PATH'] ?? '', HOME: p.dir } }).toString();
    git(p.dir, 'init', '-q');
    const cache = join(p.dir, CACHE_DIR);
    mkdirSync(join(cache, 'objects', 'info'), { recursive: true });
    mkdirSync(join(cache, 'refs'), { recursive: true });
    writeFileSync(join(cache, 'HEAD'), 'ref: refs/heads/main\n');
    const ran = join(p.dir, 'hook-ran');
    writeFileSync(join(cache, 'objects', 'info', 'hook.sh'), `echo ran > ${JSON.stringify(ran)}\nexit 1\n`);
    writeFileSync(
      join(cache, 'config'),
      `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ../..\n\tfsmonitor = "sh ${join(cache, 'objects', 'info', 'hook.sh')}"\n`,
    );
    writeFileSync(join(cache, PACK_FILE), 'anything');
    // WHEN steward asks whether git tracks the pack
    const tracked = gitTracks(cache, PACK_FILE, { PATH: process.env['PATH'] });
    // THEN the planted command did not run, and the answer is the real repository's (nothing is committed)
    assert.not.ok(existsSync(ran), 'the planted fsmonitor command ran');
    assert.is(tracked, false);
    // AND a file the real repository tracks, in that folder, is found tracked
    git(p.dir, 'add', '-f', join(CACHE_DIR, PACK_FILE));
    assert.is(gitTracks(cache, PACK_FILE, { PATH: process.env['PATH'] }), true);
    assert.not.ok(existsSync(ran), 'the planted fsmonitor command ran');
    // Control: git left to find the repository from that folder takes it for one and runs the command.
    try {
      git(cache, 'ls-files', '--error-unmatch', '--', PACK_FILE);
    } catch {
      // the hook exits 1: git may fail; what matters is that it ran
    }
    assert.ok(existsSync(ran), 'control: the planted repository is what git finds from inside the folder');
  } finally {
    p.cleanup();
  }
});

test('the machine key: created 0600 in a 0700 folder under XDG_CACHE_HOME, outside the work tree; an honest pack is used', async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT, 'dash/one.yaml': DASH });
  const xdg = mkdtempSync(join(tmpdir(), 'steward-xdg-'));
  try {
    const env = { XDG_CACHE_HOME: xdg };
    await load(p.dir, env);
    const second = await load(p.dir, env);
    assert.equal(second.stats.cache, { hits: 1, misses: 0, stored: 0 });
    const { statSync } = await import('node:fs');
    assert.is(statSync(join(xdg, 'steward', 'cache.key')).mode & 0o777, 0o600);
    assert.is(statSync(join(xdg, 'steward')).mode & 0o777, 0o700);
    assert.is(keyDir({ HOME: '/home/u' }), '/home/u/.cache/steward');
    assert.is(keyDir({}), undefined);
    // Without XDG_CACHE_HOME and HOME there is no key, so no cache (nothing is written anywhere else).
    assert.is((await load(p.dir, {})).stats.cache, undefined);
  } finally {
    p.cleanup();
    rmSync(xdg, { recursive: true, force: true });
  }
});

test.run();
