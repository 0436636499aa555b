import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { treeChanges, treeSnapshot } from '../helpers/tree.ts';

// Issue 14, point 4: the example in `validate --help` failed on the bundled examples; invalid files gave
// nothing on stdout for plan --format json|github; tests wrote into examples/.steward/.

test('every example in `validate --help` works on a copy of the bundled examples', async () => {
  const help = await steward(['validate', '--help']);
  const examples = [...help.stdout.matchAll(/^ {2}(steward validate[^\n]*?)\s{2,}\S/gm)].map((m) => m[1]!.trim());
  assert.ok(examples.length >= 3, help.stdout);
  const before = treeSnapshot(EXAMPLES);
  const p = tmpProject({});
  try {
    cpSync(EXAMPLES, join(p.dir, 'examples'), { recursive: true });
    for (const ex of examples) {
      const args = ex.split(/\s+/).slice(1);
      // "steward validate examples" runs beside the folder; the others inside the project
      const cwd = args.includes('examples') ? p.dir : join(p.dir, 'examples');
      const r = await steward(args, { cwd });
      assert.is(r.code, 0, `${ex}: ${r.stdout}${r.stderr}`);
    }
  } finally {
    p.cleanup();
  }
  assert.equal(treeChanges(before, treeSnapshot(EXAMPLES)), [], 'nothing was written into examples/');
});

test('plan --format json|github|markdown on invalid files prints the problems on stdout in that format', async () => {
  const p = tmpProject({});
  try {
    cpSync(EXAMPLES, p.dir, { recursive: true });
    writeFileSync(join(p.dir, 'dashboards/broken.yaml'), 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: broken }\nspec:\n  nmae: x\n');
    const env = {
      STEWARD_OBS_URL: 'http://127.0.0.1:9',
      STEWARD_OBS_TOKEN: 't',
      STEWARD_CLOUD_URL: 'http://127.0.0.1:9',
      STEWARD_CLOUD_KEY_ID: 'k',
      STEWARD_CLOUD_KEY_SECRET: 's',
    };
    const json = await steward(['plan', '--format', 'json'], { cwd: p.dir, env });
    assert.is(json.code, 1);
    const doc = JSON.parse(json.stdout);
    assert.is(doc.valid, false);
    assert.ok(
      doc.issues.some((i: { file: string; line: number }) => i.file === 'dashboards/broken.yaml' && i.line === 5),
      json.stdout,
    );
    assert.match(json.stderr, 'dashboards/broken.yaml:5');
    const gh = await steward(['plan', '--format', 'github'], { cwd: p.dir, env });
    assert.is(gh.code, 1);
    assert.match(gh.stdout, '::error file=dashboards/broken.yaml,line=5');
    assert.match(gh.stdout, 'steward plan: invalid');
    const md = await steward(['plan', '--format', 'markdown'], { cwd: p.dir, env });
    assert.match(md.stdout, '- `dashboards/broken.yaml:5:');
    const text = await steward(['plan'], { cwd: p.dir, env });
    assert.is(text.stdout, '', 'text keeps the problems on stderr only');
  } finally {
    p.cleanup();
  }
});

test.run();
