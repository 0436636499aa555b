/**
 * Invalid input, one fixture folder per case (test/fixtures/bad-input/<case>/, see its README): each case is a
 * small project with one bad file, run through the CLI as a user would. Every case must end with exit 1, the
 * problem at its exact line:col, and no stack trace.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const ROOT = fileURLToPath(new URL('../fixtures/bad-input/', import.meta.url));

interface Case {
  name: string;
  folder: string;
  /** Expected `file:line:col` of the (first) problem, and a substring (or a pattern) of its message. */
  where: string;
  message?: string;
  pattern?: string;
  flags?: string;
  args?: string[];
  env?: Record<string, string>;
  /** How many problems the run may report in all (unset: any number). */
  problems?: number;
  /** Files too big to keep in git, made at run time: one byte repeated. */
  generated?: Record<string, { fill: string; bytes: number }>;
}

/** Every file under dir, by its path relative to dir (forward slashes), as bytes. */
function filesUnder(dir: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p).split(sep).join('/')] = readFileSync(p);
    }
  };
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) walk(dir);
  return out;
}

const base = filesUnder(join(ROOT, '_base'));
const cases: Case[] = readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
  .map((e) => ({ ...(JSON.parse(readFileSync(join(ROOT, e.name, 'case.json'), 'utf8')) as Omit<Case, 'folder'>), folder: e.name }));

const matches = (c: Case, line: string) => (c.pattern !== undefined ? new RegExp(c.pattern, c.flags).test(line) : line.includes(c.message ?? ''));

async function runCase(c: Case) {
  const files: Record<string, string | Buffer> = { ...base, ...filesUnder(join(ROOT, c.folder, 'files')) };
  for (const [rel, g] of Object.entries(c.generated ?? {})) files[rel] = Buffer.alloc(g.bytes, g.fill);
  const p = tmpProject(files);
  try {
    return await steward(['validate', ...(c.args ?? [])], { cwd: p.dir, env: c.env });
  } finally {
    p.cleanup();
  }
}

test('every fixture folder is a case with an expectation', () => {
  assert.ok(cases.length >= 50, `found ${cases.length} cases`);
  for (const c of cases) {
    assert.ok(c.name && c.where, `${c.folder}/case.json needs name and where`);
    assert.ok((c.message === undefined) !== (c.pattern === undefined), `${c.folder}/case.json needs one of message or pattern`);
  }
});

// Run every case up front, a few at a time, then assert one test per case.
const results = new Map<Case, Awaited<ReturnType<typeof runCase>>>();
test.before(async () => {
  const queue = [...cases];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) results.set(c, await runCase(c));
    }),
  );
});

for (const c of cases) {
  test(`${c.name} (${c.folder})`, () => {
    const r = results.get(c)!;
    const out = r.stdout + r.stderr;
    assert.is(r.code, 1, `exit code\n${out}`);
    assert.not.match(out, /\n\s+at .+:\d+:\d+/, 'no stack trace');
    const line = out.split('\n').find((l) => l.startsWith(c.where) && matches(c, l));
    assert.ok(line, `expected a line starting ${c.where} with ${c.message ?? `/${c.pattern}/${c.flags ?? ''}`}; got:\n${out}`);
    if (c.problems !== undefined) assert.is(out.split('\n').filter((l) => /^\S+:\d+:\d+ .*error: /.test(l)).length, c.problems, out);
  });
}

test.run();
