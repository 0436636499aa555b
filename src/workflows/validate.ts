/**
 * The validate workflow: load the files (offline), run every check, count what was found. It renders
 * nothing: `steward validate` prints the value in the chosen format.
 */
import { ValidationError, type Issue } from '../errors.ts';
import { markerTagIssue, type Project } from '../config/project.ts';
import type { WorkflowDeps } from './deps.ts';

export interface ValidateOptions {
  paths?: string[] | undefined;
  config?: string | undefined;
  /** The environment overlay (--env). */
  env?: string | undefined;
  cache?: boolean | undefined;
}

export interface Validation {
  files: number;
  /** Resources found, by the words the summary uses: dashboard, alert, cloud service. */
  counts: Record<string, number>;
  issues: Issue[];
  /** The project file, when one was found and read (its credentials are redacted from what is printed). */
  project?: Project | undefined;
}

/** Checks the files; a broken project file is returned as issues (validate reports, it does not stop). */
export async function makeValidate(
  deps: Pick<WorkflowDeps, 'cwd' | 'env'> & Partial<Pick<WorkflowDeps, 'signal'>>,
  options: ValidateOptions,
): Promise<Validation> {
  const [{ nodeFileSystem }, { loadWorkspace }, { cacheWanted }] = await Promise.all([
    import('../config/fs.ts'),
    import('../config/load.ts'),
    import('../config/cache.ts'),
  ]);
  const counts: Record<string, number> = { dashboard: 0, alert: 0, 'cloud service': 0 };
  try {
    const loaded = await loadWorkspace(
      { fs: nodeFileSystem, env: deps.env, cwd: deps.cwd, signal: deps.signal },
      { config: options.config, envName: options.env, paths: options.paths, cache: cacheWanted(options.cache, deps.env) },
    );
    for (const r of loaded.resources) {
      const key = r.kind === 'Dashboard' ? 'dashboard' : r.kind === 'Alert' ? 'alert' : 'cloud service';
      counts[key] = (counts[key] ?? 0) + 1;
    }
    const marker = loaded.project ? markerTagIssue(loaded.project) : undefined;
    const issues = marker ? [...loaded.issues, { ...marker, file: relativeTo(deps.cwd, marker.file) }] : loaded.issues;
    return { files: loaded.files.length, counts, issues, project: loaded.project };
  } catch (e) {
    // A broken project file stops loading; it is still reported, in the chosen format.
    if (!(e instanceof ValidationError)) throw e;
    return { files: 1, counts, issues: e.issues.map((i) => ({ ...i, file: relativeTo(deps.cwd, i.file) })) };
  }
}

function relativeTo(cwd: string, file: string): string {
  return file.startsWith(cwd + '/') ? file.slice(cwd.length + 1) : file;
}
