/**
 * Many documents with one name (a file copied over and over): each duplicate is found through an index (no
 * scan per problem), and the same problem is listed MAX_REPEATED_ISSUES times, the last one counting the
 * rest (issue 13). No timing assertion here: bench/ measures; this checks what is reported.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_REPEATED_ISSUES } from '../../src/config/load.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const DOC = 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: same }\nspec: { name: Same }\n';

const CASES = [
  { name: '3,000 copies in 3 files', files: 3, per: 1000 },
  { name: 'a few duplicates, all listed', files: 1, per: 5 },
];

for (const c of CASES) {
  test(`duplicates: ${c.name}`, async () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < c.files; f++) files[`d/f${f}.yaml`] = Array(c.per).fill(DOC).join('---\n');
    const p = tmpProject(files);
    try {
      const r = await steward(['validate', 'd', '--format', 'json'], { cwd: p.dir, env: { XDG_CACHE_HOME: join(p.dir, '.xdg') } });
      assert.is(r.code, 1);
      const issues = (JSON.parse(r.stdout) as { issues: Array<{ file: string; line: number; message: string }> }).issues;
      const total = c.files * c.per - 1; // every document but the first repeats both names
      const byName = issues.filter((i) => i.message.startsWith('duplicate Dashboard "same"'));
      const bySpec = issues.filter((i) => i.message.startsWith('two dashboards are named "Same"'));
      for (const list of [byName, bySpec]) {
        assert.is(list.length, Math.min(total, MAX_REPEATED_ISSUES));
        assert.ok(
          list.every((i) => i.message.includes('(first at d/f0.yaml:')),
          list[0]!.message,
        );
        const more = list.filter((i) => /and \d+ more like it$/.test(i.message));
        if (total > MAX_REPEATED_ISSUES)
          assert.equal(
            more.map((i) => i.message.match(/and (\d+) more/)![1]),
            [String(total - MAX_REPEATED_ISSUES)],
          );
        else assert.is(more.length, 0);
      }
      // Positions are right, not 1:1 (the document each problem is in was found by its index).
      assert.ok(
        byName.every((i) => i.line > 1),
        JSON.stringify(byName.slice(0, 3)),
      );
    } finally {
      p.cleanup();
    }
  });
}

test.run();
