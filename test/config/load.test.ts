import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { findProjectFile } from '../../src/config/project.ts';
import { processFile } from '../../src/config/resources.ts';
import { ConfigError } from '../../src/errors.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = `apiVersion: steward/v1
kind: Project
spec:
  resources: ["dash/*.yaml", "alerts/*.yaml"]
  observability: { url: "\${OBS_URL}", token: { env: OBS_TOKEN } }
  state: .steward/state.json
  environments:
    staging:
      observability: { url: "https://staging.example" }
      state: .steward/staging.json
`;
const DASH = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: d }
spec:
  name: \${DASH_NAME:-Shop}
  tiles:
    - name: T
      x: 0
      y: 0
      w: \${TILE_W}
      h: 3
`;

test('finds steward.yaml from a subfolder, loads resources and types plain ${VAR} values', async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT, 'dash/d.yaml': DASH });
  try {
    // GIVEN a project whose connection URL variable is unset (validate must work offline)
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: { TILE_W: '6' }, cwd: join(p.dir, 'dash') }, {});
    // THEN it loads, the resource is interpolated and typed, the URL is left for connect time
    assert.equal(
      loaded.issues.filter((i) => i.severity === 'error'),
      [],
    );
    assert.is(loaded.project?.file, join(p.dir, 'steward.yaml'));
    const d = loaded.resources[0]!;
    assert.is(d.kind, 'Dashboard');
    if (d.kind !== 'Dashboard') return;
    assert.is(d.doc.spec.name, 'Shop');
    assert.is(d.doc.spec.tiles?.[0]?.w, 6);
    assert.is(loaded.project?.spec.observability?.url, '${OBS_URL}');
    assert.is(loaded.project?.statePath, join(p.dir, '.steward/state.json'));
    // a glob that matches nothing is a warning, not an error
    assert.ok(loaded.issues.some((i) => i.severity === 'warning' && i.message.includes('"alerts/*.yaml" matches no file')));
  } finally {
    p.cleanup();
  }
});

test('--env overlays merge objects and replace values', async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT, 'dash/d.yaml': DASH });
  try {
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: { TILE_W: '6' }, cwd: p.dir }, { envName: 'staging' });
    assert.is(loaded.project?.spec.observability?.url, 'https://staging.example');
    assert.equal(loaded.project?.spec.observability?.token, { env: 'OBS_TOKEN' }, 'keys the overlay does not set are kept');
    assert.is(loaded.project?.statePath, join(p.dir, '.steward/staging.json'));
  } finally {
    p.cleanup();
  }
});

test('an unknown --env suggests the closest one', async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT });
  try {
    await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: p.dir }, { envName: 'stagign' });
    assert.unreachable();
  } catch (e) {
    assert.instance(e, ConfigError);
    assert.match((e as Error).message, 'did you mean "staging"?');
    assert.is((e as ConfigError).pos?.line, 7);
  } finally {
    p.cleanup();
  }
});

test('no project file anywhere is a clear error', async () => {
  const p = tmpProject({ 'x.txt': '' });
  try {
    await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: p.dir }, {});
    assert.unreachable();
  } catch (e) {
    assert.instance(e, ConfigError);
    assert.match((e as Error).message, 'no steward.yaml');
  } finally {
    p.cleanup();
  }
});

test('explicit files are validated without a project', async () => {
  const p = tmpProject({ 'one.yaml': DASH.replace('${TILE_W}', '4') });
  try {
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: p.dir }, { paths: ['one.yaml'] });
    assert.is(loaded.project, undefined);
    assert.is(loaded.resources.length, 1);
    assert.equal(loaded.issues, []);
  } finally {
    p.cleanup();
  }
});

test('__proto__ and constructor keys never reach a prototype', () => {
  const yaml =
    'apiVersion: steward/v1\nkind: CloudService\nmetadata: { name: c }\nspec:\n  organizationId: 6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31\n  serviceId: 9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d\n  pipes:\n    expected:\n      - name: p\n        source: { __proto__: { polluted: yes }, constructor: { prototype: { polluted: yes } } }\n';
  const r = processFile('x.yaml', Buffer.from(yaml), {}, { isProjectFile: false });
  assert.equal(r.issues, []);
  assert.is(({} as Record<string, unknown>)['polluted'], undefined);
  assert.is(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  const r0 = r.resources[0]!;
  if (r0.kind !== 'CloudService') return assert.unreachable();
  const src = r0.doc.spec.pipes?.expected?.[0]?.source as Record<string, unknown>;
  assert.ok(Object.prototype.hasOwnProperty.call(src, '__proto__'), 'kept as an own key');
  assert.is(Object.getPrototypeOf(src), Object.prototype);
});

test('quoted references stay strings', () => {
  const yaml = DASH.replace('w: ${TILE_W}', 'w: 3').replace('name: ${DASH_NAME:-Shop}', 'name: "${N}"');
  const r = processFile('x.yaml', Buffer.from(yaml), { N: '42' }, { isProjectFile: false });
  assert.equal(r.issues, []);
  const d = r.resources[0]!;
  if (d.kind !== 'Dashboard') return assert.unreachable();
  assert.is(d.doc.spec.name, '42');
});

test('a file replaced by something unreadable between the read and the placing of a problem: the problem is still reported (at 1:1), no crash', async () => {
  const dup = 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: shop }\nspec: { name: Shop, tiles: [] }\n';
  const p = tmpProject({ 'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["**/*.yaml"]\n', 'a.yaml': dup, 'b.yaml': dup });
  try {
    const reads = new Map<string, number>();
    const fs = {
      ...nodeFileSystem,
      readFile: (path: string, opts?: { maxBytes?: number }) => {
        const n = (reads.get(path) ?? 0) + 1;
        reads.set(path, n);
        // The second read of b.yaml (placing the duplicate) finds a fifo where the file was.
        if (path.endsWith('b.yaml') && n > 1) throw Object.assign(new Error('not a regular file'), { code: 'ENOTREG' });
        return nodeFileSystem.readFile(path, opts);
      },
    };
    const loaded = await loadWorkspace({ fs, env: {}, cwd: p.dir }, { cache: false });
    const problem = loaded.issues.find((i) => i.file === 'b.yaml' && /duplicate Dashboard "shop"/.test(i.message));
    assert.ok(problem, JSON.stringify(loaded.issues));
    assert.equal([problem!.line, problem!.col], [1, 1]);
    assert.ok((reads.get(join(p.dir, 'b.yaml')) ?? 0) > 1, 'the problem was placed by reading the file again');
  } finally {
    p.cleanup();
  }
});

const CONFIG_PATHS: Array<{ path: string; says: string }> = [
  { path: '/nonexistent/steward.yaml', says: '--config /nonexistent/steward.yaml: no such file' },
  { path: '/dev/null', says: '--config /dev/null: not a regular file (a device, fifo or socket); not read' },
  { path: '/dev/zero', says: '--config /dev/zero: not a regular file (a device, fifo or socket); not read' },
];
for (const c of CONFIG_PATHS) {
  test(`--config ${c.path}: one clear line, nothing read`, () => {
    assert.throws(
      () => findProjectFile(nodeFileSystem, '/', c.path),
      (e: unknown) => e instanceof ConfigError && e.message === c.says,
    );
  });
}

// A steward.yaml found above the working folder, in a folder others may write to, that another user owns
// (another local user's /tmp/steward.yaml sending this user's token to a server of theirs) is refused. The
// user's own, one in a folder only its owner writes (a checkout of another uid mounted into a container run as
// root), one in the working folder, or one named with --config, is read as before.
const ME = userInfo().uid;
const OWNERS: Array<{ case: string; owner: number; folder: number; at: 'here' | 'above'; config?: boolean; refused: boolean }> = [
  { case: 'found above, another user, in /tmp (1777)', owner: ME + 1, folder: 0o41777, at: 'above', refused: true },
  { case: 'found above, another user, in a group-writable folder', owner: ME + 1, folder: 0o40775, at: 'above', refused: true },
  { case: 'found above, another user, in a folder only they write (a container as root)', owner: ME + 1, folder: 0o40755, at: 'above', refused: false },
  { case: 'found above, mine, in /tmp', owner: ME, folder: 0o41777, at: 'above', refused: false },
  { case: 'in the working folder, another user, in /tmp', owner: ME + 1, folder: 0o41777, at: 'here', refused: false },
  { case: 'above, another user, in /tmp, named with --config', owner: ME + 1, folder: 0o41777, at: 'above', config: true, refused: false },
];
for (const c of OWNERS) {
  test(`project file owner: ${c.case}`, () => {
    const p = tmpProject({ 'steward.yaml': PROJECT, 'sub/x': '' });
    try {
      const own = {
        ...nodeFileSystem,
        stat: (f: string) => {
          const st = nodeFileSystem.stat(f);
          return st && (st.isDirectory ? { ...st, mode: c.folder } : { ...st, uid: c.owner });
        },
      };
      const cwd = c.at === 'here' ? p.dir : join(p.dir, 'sub');
      const find = () => findProjectFile(own, cwd, c.config ? '../steward.yaml' : undefined);
      if (c.refused)
        assert.throws(
          find,
          (e: unknown) =>
            e instanceof ConfigError && /was found above this folder, in a folder others may write to, and belongs to another user .*--config/.test(e.message),
        );
      else assert.ok(find()?.endsWith('steward.yaml'));
    } finally {
      p.cleanup();
    }
  });
}

test.run();
