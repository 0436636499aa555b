/**
 * A hostile file tree (a pull request adding files): resources stay inside the project, only regular files
 * of bounded size are read, and a refused file's contents are never quoted (issue 13, docs/security.md).
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { globInside } from '../../src/config/fs.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const SECRET_TEXT = 'sEcReT-FILE-CONTENT-4711 do not print';

// What plan reaches: an empty service that answers at once (a closed port made each plan wait out the
// client's retries of a refused connection).
const service = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'));
const serviceUrl = new Promise<string>((resolve) =>
  service.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(service.address() as AddressInfo).port}`)),
);
test.after(() => void service.close());

const project = (resources: string[]) => `apiVersion: steward/v1
kind: Project
metadata: { name: p }
spec:
  resources: ${JSON.stringify(resources)}
  observability:
    url: \${STEWARD_OBS_URL}
    token: { env: STEWARD_OBS_TOKEN }
`;

/** What actions/checkout leaves in .git/config unless told `persist-credentials: false`. */
const GIT_CONFIG = `[core]\n\trepositoryformatversion = 0\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${SECRET_TEXT}\n`;
const gitConfig = (dir: string) => {
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git/config'), GIT_CONFIG);
};

const DASH = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: d }
spec: { name: D, tiles: [] }
`;

interface Case {
  name: string;
  resources?: string[];
  /** Builds the hostile part of the tree; `outside` is a folder beside the project holding SECRET_TEXT files. */
  setup?: (dir: string, outside: string) => void;
  where?: string;
  message: RegExp;
  /** Exit code; 1 (refused) unless said. */
  code?: number;
}

const CASES: Case[] = [
  {
    name: 'an absolute pattern',
    resources: ['/**/*.yml'],
    where: 'steward.yaml:5:',
    message: /pattern "\/\*\*\/\*\.yml" cannot be used as a glob: it is absolute/,
  },
  { name: 'a pattern climbing out with ..', resources: ['../../**/*.yaml'], where: 'steward.yaml:5:', message: /climbs out with "\.\."/ },
  { name: 'a .. inside braces', resources: ['dashboards/{..,x}/*.yaml'], where: 'steward.yaml:5:', message: /climbs out with "\.\."/ },
  { name: 'a home-relative pattern', resources: ['~/**/*.yaml'], where: 'steward.yaml:5:', message: /it is absolute/ },
  {
    name: 'a symlink to a secret file outside the project',
    setup: (dir, outside) => symlinkSync(join(outside, 'secret.yaml'), join(dir, 'dashboards/leak.yaml')),
    where: 'dashboards/leak.yaml:1:1',
    message: /link to a file outside the project folder; not read/,
  },
  {
    name: 'a symlink to /dev/zero',
    setup: (dir) => symlinkSync('/dev/zero', join(dir, 'dashboards/zero.yaml')),
    where: 'dashboards/zero.yaml:1:1',
    message: /outside the project folder; not read/,
  },
  {
    // The link itself, not what is below it: the walk does not go out through it (red team, round 14).
    name: 'a symlinked folder pointing outside',
    setup: (dir, outside) => symlinkSync(outside, join(dir, 'dashboards/ext')),
    where: 'dashboards/ext:1:1',
    message: /is a link to a folder outside the project folder; not followed/,
  },
  {
    // The glob lists regular files only: the fifo is not matched, so not opened (a read would hang).
    name: 'a fifo inside the project',
    setup: (dir) => execFileSync('mkfifo', [join(dir, 'dashboards/pipe.yaml')]),
    message: /valid: 2 files, 1 resource/,
    code: 0,
  },
  {
    name: 'a symlink inside the project to a fifo inside the project',
    setup: (dir) => {
      execFileSync('mkfifo', [join(dir, 'fifo')]);
      symlinkSync(join(dir, 'fifo'), join(dir, 'dashboards/f.yaml'));
    },
    where: 'dashboards/f.yaml:1:1',
    message: /not a regular file/,
  },
  {
    name: 'a 1 GiB sparse file (refused from its size, never read)',
    setup: (dir) => {
      writeFileSync(join(dir, 'dashboards/huge.yaml'), '');
      truncateSync(join(dir, 'dashboards/huge.yaml'), 1024 * 1024 * 1024);
    },
    where: 'dashboards/huge.yaml:1:1',
    message: /file is 1024\.0 MiB; steward reads files up to 4 MiB/,
  },
  // Red team, round 12: files a YAML error quotes (a git config: "Unexpected scalar token in YAML stream:
  // "basic <token>""), reached by a linked steward.yaml or by a resource under .git.
  {
    name: 'steward.yaml as a link to a git config outside the project',
    setup: (dir, outside) => {
      writeFileSync(join(outside, 'config'), GIT_CONFIG);
      rmSync(join(dir, 'steward.yaml'));
      symlinkSync(join(outside, 'config'), join(dir, 'steward.yaml'));
    },
    where: 'steward.yaml:1:1',
    message: /the project file is a link to a file outside its folder; not read/,
  },
  {
    name: 'steward.yaml as a link to .git/config',
    setup: (dir) => {
      gitConfig(dir);
      rmSync(join(dir, 'steward.yaml'));
      symlinkSync('.git/config', join(dir, 'steward.yaml'));
    },
    where: 'steward.yaml:1:1',
    message: /the project file is inside \.git, git's own folder \(it can hold credentials\); not read/,
  },
  {
    name: 'a resource that is a link to .git/config',
    setup: (dir) => {
      gitConfig(dir);
      symlinkSync('../.git/config', join(dir, 'dashboards/git.yaml'));
    },
    where: 'dashboards/git.yaml:1:1',
    message: /is inside \.git, git's own folder \(it can hold credentials\); not read/,
  },
  {
    name: 'a pattern naming .git/config',
    resources: ['dashboards/**/*.yaml', '.git/config'],
    setup: (dir) => gitConfig(dir),
    where: '.git/config:1:1',
    message: /is inside \.git, git's own folder/,
  },
  {
    name: 'a symlink to a file inside the project is fine',
    setup: (dir) => {
      mkdirSync(join(dir, 'shared'));
      writeFileSync(join(dir, 'shared/x.yaml'), DASH.replaceAll('d }', 'x }').replace('name: D', 'name: X'));
      symlinkSync(join(dir, 'shared/x.yaml'), join(dir, 'dashboards/x.yaml'));
    },
    message: /2 dashboards/,
    code: 0,
  },
];

for (const c of CASES) {
  test(`hostile file tree: ${c.name}`, async () => {
    const outside = mkdtempSync(join(tmpdir(), 'steward-outside-'));
    writeFileSync(join(outside, 'secret.yaml'), `${SECRET_TEXT}\n`);
    const p = tmpProject({ 'steward.yaml': project(c.resources ?? ['dashboards/**/*.yaml']), 'dashboards/d.yaml': DASH });
    try {
      c.setup?.(p.dir, outside);
      for (const args of [['validate'], ['validate', '--format', 'json'], ['plan']]) {
        const env = { STEWARD_OBS_URL: await serviceUrl, STEWARD_OBS_TOKEN: 'x'.repeat(20), XDG_CACHE_HOME: join(p.dir, '.xdg') };
        const r = await steward(args, { cwd: p.dir, env });
        const all = r.stdout + r.stderr;
        assert.not.ok(all.includes('sEcReT') || all.includes('4711'), `${args.join(' ')} quoted the file: ${all}`);
        assert.not.match(all, /internal error|Maximum call stack/);
        if (args[0] === 'plan') continue; // plan must only not read or quote; what it plans is not the point.
        if (args.length === 1) {
          assert.is(r.code, c.code ?? 1, all);
          assert.match(all, c.message);
          if (c.where) assert.ok(all.includes(c.where), `expected ${c.where} in ${all}`);
        }
      }
    } finally {
      p.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });
}

test('explicit paths: a folder given on the command line may not reach outside it through a link', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'steward-outside-'));
  writeFileSync(join(outside, 'secret.yaml'), `${SECRET_TEXT}\n`);
  const p = tmpProject({ 'd/a.yaml': DASH });
  try {
    symlinkSync(join(outside, 'secret.yaml'), join(p.dir, 'd/b.yaml'));
    const r = await steward(['validate', 'd'], { cwd: p.dir, env: { XDG_CACHE_HOME: join(p.dir, '.xdg') } });
    assert.is(r.code, 1);
    assert.match(r.stdout, /d\/b\.yaml:1:1 .*outside the project folder/);
    assert.not.ok((r.stdout + r.stderr).includes('sEcReT'));
  } finally {
    p.cleanup();
    rmSync(outside, { recursive: true, force: true });
  }
});

test('a link to a folder outside is never walked: a pull request linking / (or a big tree) costs one line', async () => {
  // Red team, round 14: tinyglobby followed the link, so `dashboards/root -> /` walked the runner's whole file
  // system on every validate and plan (50 s on a small container, thousands of error lines naming every
  // .yaml file of the machine). A tree of 3,000 files outside stands in for it; the folder given on the
  // command line is held to it too.
  const outside = mkdtempSync(join(tmpdir(), 'steward-outside-'));
  for (let i = 0; i < 30; i++) {
    mkdirSync(join(outside, `d${i}`, 'deep'), { recursive: true });
    for (let j = 0; j < 100; j++) writeFileSync(join(outside, `d${i}`, 'deep', `f${j}.yaml`), `${SECRET_TEXT}\n`);
  }
  const p = tmpProject({ 'steward.yaml': project(['dashboards/**/*.yaml']), 'dashboards/d.yaml': DASH });
  try {
    symlinkSync(outside, join(p.dir, 'dashboards/root'));
    symlinkSync(outside, join(p.dir, 'dashboards/named.yaml'));
    // A link that stays inside is still followed.
    mkdirSync(join(p.dir, 'shared'));
    symlinkSync(join(p.dir, 'shared'), join(p.dir, 'dashboards/shared'));
    for (const args of [['validate'], ['validate', 'dashboards']]) {
      const r = await steward(args, { cwd: p.dir, env: { XDG_CACHE_HOME: join(p.dir, '.xdg') } });
      assert.is(r.code, 1, args.join(' '));
      const lines = r.stdout.split('\n').filter((l) => /^dashboards\//.test(l));
      const refused = (name: string) =>
        `dashboards/${name}:1:1  /  error: is a link to a folder outside the project folder; not followed (resources stay inside the project)`;
      // The folder named on the command line is its own root: shared/ is outside it.
      const expected = args.length === 1 ? [refused('named.yaml'), refused('root')] : [refused('named.yaml'), refused('root'), refused('shared')];
      assert.equal(lines, expected, `${args.join(' ')}\n${r.stdout}`);
      assert.not.ok((r.stdout + r.stderr).includes('sEcReT'));
    }
  } finally {
    p.cleanup();
    rmSync(outside, { recursive: true, force: true });
  }
});

test('links inside the project that name one folder again and again are bounded: an error at the pattern, not a million files', async () => {
  // Red team, round 14: 200 links to `.` beside 200 small files made validate read 40,200 files (15 s); the
  // count grows with the square of what a pull request adds (1,000 of each: a million). Past 10,000 links (or
  // 50,000 files one pattern matches) the pattern is an error at its line and nothing is read.
  const files: Record<string, string> = { 'steward.yaml': project(['dashboards/**/*.yaml']) };
  for (let i = 0; i < 100; i++) files[`dashboards/d${i}.yaml`] = DASH.replaceAll('d }', `d${i} }`).replace('name: D', `name: D${i}`);
  const p = tmpProject(files);
  try {
    for (let i = 0; i < 520; i++) symlinkSync('.', join(p.dir, `dashboards/l${i}`));
    const started = Date.now();
    const r = await steward(['validate'], { cwd: p.dir, env: { XDG_CACHE_HOME: join(p.dir, '.xdg') } });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      'error: pattern "dashboards/**/*.yaml" meets more than 10,000 symbolic links on its way, more than steward follows; are there links that lead to folders again?',
    );
    assert.match(r.stdout, /^steward\.yaml:\d+:\d+  \/spec\/resources\/0  error: pattern/m);
    assert.match(r.stdout, /1 problem/);
    assert.ok(Date.now() - started < 60_000, `${Date.now() - started} ms`);
  } finally {
    p.cleanup();
  }
});

test('the file and entry bounds hold only for walks that followed a link: a plain tree of any size is listed whole (issue 15)', async () => {
  // Bounds of 20 files and 40 entries stand for 50,000 and 500,000: a project of 100,000 dashboards in files of
  // their own must plan, so a tree that no link multiplied is never cut.
  const bounds = { files: 20, entries: 40, links: 5 };
  const rows: Array<{ name: string; files: number; links: string[]; refused?: RegExp; listed?: number }> = [
    { name: 'no link, files over the bound', files: 60, links: [], listed: 60 },
    { name: 'no link, files under the bound', files: 10, links: [], listed: 10 },
    {
      name: 'one link to the folder itself: its files twice, over the bound',
      files: 15,
      links: ['.'],
      refused: /^matches 30 files, more than steward reads \(20\)/,
    },
    { name: 'one link, files and copies under the bound', files: 5, links: ['.'], listed: 10 },
    { name: 'links past their own bound', files: 1, links: ['.', '.', '.', '.', '.', '.'], refused: /^meets more than 5 symbolic links/ },
  ];
  for (const row of rows) {
    const dir = mkdtempSync(join(tmpdir(), 'steward-glob-'));
    try {
      mkdirSync(join(dir, 'd'));
      for (let i = 0; i < row.files; i++) writeFileSync(join(dir, 'd', `f${i}.yaml`), '');
      row.links.forEach((to, i) => symlinkSync(to, join(dir, 'd', `l${i}`)));
      if (row.refused) {
        const e = await globInside(['d/**/*.yaml'], dir, bounds).then(
          () => undefined,
          (error: unknown) => error as Error,
        );
        assert.ok(e, `${row.name}: refused`);
        assert.match(e.message, row.refused, row.name);
      } else {
        assert.is((await globInside(['d/**/*.yaml'], dir, bounds)).length, row.listed, row.name);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('a file that is not YAML is described, not quoted', async () => {
  const p = tmpProject({ 'steward.yaml': project(['dashboards/*.yaml']), 'dashboards/d.yaml': `${SECRET_TEXT}\n` });
  try {
    const r = await steward(['validate'], { cwd: p.dir, env: { XDG_CACHE_HOME: join(p.dir, '.xdg') } });
    assert.is(r.code, 1);
    assert.match(r.stdout, /dashboards\/d\.yaml:1:1 .*found string \(\d+ characters/);
    assert.not.ok(r.stdout.includes('sEcReT'));
  } finally {
    p.cleanup();
  }
});

test.run();
