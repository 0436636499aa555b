import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every path under `dir` (dot files too) with its size and modification time, to tell what a run wrote
 * there. Compared before and after rather than "is there a .steward/": a developer's own `steward plan` in
 * examples/ leaves a parse cache there, which is theirs and no test's doing.
 */
export function treeSnapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const s = lstatSync(p);
      out.set(relative(dir, p), e.isDirectory() ? 'dir' : `${s.size}:${s.mtimeMs}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** The paths added, removed or changed between two snapshots, sorted. */
export function treeChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [p, v] of after) if (before.get(p) !== v) changed.add(p);
  for (const p of before.keys()) if (!after.has(p)) changed.add(p);
  return [...changed].sort();
}

/** Every `.yaml`/`.yml` file under `dir`, links followed (the examples' resource files, for tests that read them all). */
export function yamlFilesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(name)) files.push(p);
    }
  };
  walk(dir);
  return files;
}
