import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadProject } from '../../src/config/project.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${ROOT}README.md`, 'utf8');
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { name: string; version: string; files: string[]; bin: Record<string, string> };

// Issue 14, point 6: no way to install it outside this repository.

test('README Install names the tarball npm pack writes, and the package ships what the installed CLI needs', () => {
  const tgz = `${pkg.name}-${pkg.version}.tgz`;
  const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## First project'));
  assert.match(install, `npm install -g ./${tgz}`);
  assert.match(install, 'npm pack');
  assert.match(install, `steward --version                             # ${pkg.version}`);
  for (const f of ['bin', 'dist', 'schemas']) assert.ok(pkg.files.includes(f), f);
  assert.is(pkg.bin['steward'], 'bin/steward.js');
});

test('every steward command in README "First project" exists with the flags it uses', async () => {
  const first = readme.slice(readme.indexOf('## First project'), readme.indexOf('## Quick start'));
  const lines = [...first.matchAll(/^steward ([^#\n&]+)/gm)].map((m) => m[1]!.trim().split(/\s+/));
  assert.ok(lines.length >= 5);
  for (const args of lines) {
    const r = await steward([...args, '--help']);
    assert.is(r.code, 0, `steward ${args.join(' ')}: ${r.stderr}`);
  }
});

test('docs name no repository file that does not exist', () => {
  for (const doc of ['docs/emulator.md', 'docs/projects.md']) {
    const text = readFileSync(`${ROOT}${doc}`, 'utf8');
    assert.not.match(text, /`contracts\/(hyperdx|clickhouse-cloud)\//, doc);
  }
});

test('the README project example is valid, and its staging environment keeps its own state file', async () => {
  const yaml = /```yaml\n(apiVersion: steward\/v1\nkind: Project\n[\s\S]*?)```/.exec(readme)![1]!;
  const p = tmpProject({ 'steward.yaml': yaml });
  try {
    const v = await steward(['validate', '--env', 'staging', '--no-cache'], { cwd: p.dir });
    assert.is(v.code, 0, v.stdout + v.stderr);
    const env = {};
    const base = loadProject(nodeFileSystem, join(p.dir, 'steward.yaml'), env);
    const staging = loadProject(nodeFileSystem, join(p.dir, 'steward.yaml'), env, 'staging');
    assert.is.not(staging.statePath, base.statePath);
    assert.is.not(staging.journalPath, base.journalPath);
  } finally {
    p.cleanup();
  }
});

test.run();
