/**
 * The parse cache keeps, beside each dashboard, the digest of its normalized form under the project's
 * marker tag (issue 15), so a warm plan skips normalizing the desired side. The digest a warm load brings
 * back is the one a fresh computation gives.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CACHE_DIR, PACK_FILE } from '../../src/config/cache.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { desiredDigest, normalDigest, normalizeDesired } from '../../src/plan/normalize.ts';
import type { DashboardSpec } from '../../src/schema/kinds.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = 'apiVersion: steward/v1\nkind: Project\nmetadata: { name: shop }\nspec:\n  resources: ["dash/*.yaml"]\n';
const dash = (name: string) =>
  `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: ${name} }\nspec:\n  name: ${name} board\n  tags: [team:shop]\n  tiles:\n    - { name: Errors, x: 0, y: 0, w: 6, h: 3 }\n`;

test('a warm load brings back each dashboard digest, equal to a fresh one', async () => {
  const xdg = mkdtempSync(join(tmpdir(), 'steward-xdg-'));
  const env = { XDG_CACHE_HOME: xdg };
  const p = tmpProject({ 'steward.yaml': PROJECT, 'dash/one.yaml': dash('one'), 'dash/two.yaml': dash('two') });
  try {
    const cold = await loadWorkspace({ fs: nodeFileSystem, env, cwd: p.dir }, { cache: true });
    const marker = cold.project!.markerTag;
    const pack = readFileSync(join(p.dir, CACHE_DIR, PACK_FILE), 'utf8');
    assert.ok(pack.includes(`"nd":["${marker}","sha256:`), 'the pack stores digests');
    const warm = await loadWorkspace({ fs: nodeFileSystem, env, cwd: p.dir }, { cache: true });
    assert.is(warm.stats.cache?.hits, 2);
    for (const r of warm.resources) {
      // Carried in the dashboard's facts, read without its document.
      const fresh = normalDigest(normalizeDesired(structuredClone(r.doc.spec as DashboardSpec), marker));
      assert.equal(r.facts?.desired, [marker, fresh]);
      const spec = r.doc.spec as DashboardSpec;
      // Fresh: a copy of the spec, which the remembered digest cannot answer for.
      assert.is(desiredDigest(spec, marker), normalDigest(normalizeDesired(structuredClone(spec), marker)));
      assert.is(desiredDigest(spec, 'another-marker'), normalDigest(normalizeDesired(spec, 'another-marker')));
    }
  } finally {
    p.cleanup();
    rmSync(xdg, { recursive: true, force: true });
  }
});

test.run();
