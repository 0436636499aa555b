import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CliError } from '../errors.ts';
import { inGitFolder, isInside, realPathOf } from '../shared/paths.ts';
import type { AnyResource } from '../model/resource.ts';
import { processFile } from '../config/resources.ts';
import { variablePolicy } from '../config/credentials.ts';
import type { Project } from '../config/project.ts';
import { OBSERVABILITY_PROFILES } from '../clients/profiles.ts';
import { computePlan } from '../plan/plan.ts';
import { resolveSourceNames } from '../plan/names.ts';
import type { LiveDashboardInput } from '../plan/types.ts';
import { specOf, syncDashboardSpec, undoChange } from '../render/dashboard-sync.ts';

type Dashboard = Extract<AnyResource, { kind: 'Dashboard' }>;

/**
 * The resource that declares a live dashboard, as plan matches them: pinned by metadata.id, or (no pin) by
 * spec.name when exactly one live dashboard has that name.
 */
export function declaringResource(resources: readonly AnyResource[], live: LiveDashboardInput, nameCount: ReadonlyMap<string, number>): Dashboard | undefined {
  const dashboards = resources.filter((r): r is Dashboard => r.kind === 'Dashboard');
  return (
    dashboards.find((r) => r.doc.metadata.id === live.id) ??
    ((nameCount.get(live.name) ?? 0) === 1 ? dashboards.find((r) => r.doc.metadata.id === undefined && r.doc.spec.name === live.name) : undefined)
  );
}

/**
 * Rewrites the file that declares `live` so that plan finds them equal, changing as little as it can: the
 * spec is synced node by node (yaml's Document API keeps comments, metadata and style), then each change
 * that plan does not need (a default the file left out, a `${VAR}` that expands to the live value) is undone.
 */
export function rewriteDeclaring(input: {
  resource: Dashboard;
  live: LiveDashboardInput;
  project: Project;
  env: Readonly<Record<string, string | undefined>>;
  /** The live dashboard as a file would hold it (import's own rendering, config form and source names included). */
  render: (live: LiveDashboardInput, metadataName: string) => { text: string; warnings: string[] };
  /** The redaction import applies to the live dashboards it reads: applied to the file as read, to compare like with like. */
  redactValue?: <T>(value: T) => T;
  /** Source names by id in this environment (what `render` writes for an id), to read the file as plan does. */
  sourceNames?: ReadonlyMap<string, string>;
}): { text: string; changed: number; warnings: string[]; file: string } {
  const { resource, live, project } = input;
  // A file that is a link is rewritten where it leads, as an editor does: writing the name replaced the link
  // with a copy and left the file it pointed at as it was. Loading refused links out of the project or into
  // .git; checked again, as this is a write.
  const file = realPathOf(resource.file);
  const root = realPathOf(project.dir);
  if (!isInside(root, file) || inGitFolder(relative(root, file))) throw new CliError(`refusing to rewrite ${resource.file}: it leads outside the project`);
  const original = readFileSync(file, 'utf8');
  const rendered = input.render(live, resource.name);
  const warnings = [...rendered.warnings];
  const synced = syncDashboardSpec(original, resource.index, specOf(rendered.text));
  const caps = OBSERVABILITY_PROFILES[project.spec.observability?.api ?? 'seed'].capabilities;
  const matches = (text: string): boolean => {
    // Read as plan reads it: with the project's rule for ${VAR} (spec.resourceVariablePrefix; the default rule
    // refused a `${APP_HOOK_TOKEN}` the prefix allows), and with the secrets in it redacted as import reads the
    // live dashboard (redactValue). Else a `${VAR}` holding a secret never matched the live `[redacted]`: its
    // undo was dropped and `[redacted]` written in its place, a file plan then blocked (red team, round 15).
    const r = processFile(resource.file, Buffer.from(text), input.env as Record<string, string>, {
      isProjectFile: resource.file === project.file,
      variables: variablePolicy(project.spec),
    });
    if (r.issues.some((i) => i.severity === 'error')) return false;
    const read = r.resources.find((x) => x.kind === 'Dashboard' && x.index === resource.index);
    if (!read) return false;
    const found = input.redactValue ? input.redactValue(read) : read;
    // `source: <name>` as plan reads it, the id of that source here: else every named source differs.
    const res = input.sourceNames
      ? resolveSourceNames(
          [found],
          [...input.sourceNames].map(([id, name]) => ({ id, name })),
        ).resources[0]!
      : found;
    const plan = computePlan({
      resources: [res],
      live: [live],
      state: { formatVersion: 1, alerts: {} },
      markerTag: project.markerTag,
      now: new Date(0),
      projectDir: project.dir,
      capabilities: caps,
    });
    return plan.items[0]?.action === 'noop';
  };
  let text = synced.text;
  let changed = synced.changes.length;
  if (changed === 0) return { text: original, changed: 0, warnings, file };
  if (matches(text)) {
    for (const c of [...synced.changes].reverse()) {
      if (!c.undoable) continue;
      const candidate = undoChange(text, resource.index, c);
      if (candidate !== text && matches(candidate)) {
        text = candidate;
        changed--;
      }
    }
  } else {
    warnings.push('the file still differs from the live dashboard after the rewrite (fields steward cannot express); `steward plan` shows what is left');
  }
  return { text, changed, warnings, file };
}
