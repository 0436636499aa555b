// The refresh-per-resource peer of `steward plan` (bench/plan.ts): the same pipeline from the built modules,
// except that live state is read as a Terraform-style provider refreshes it: the ids from one list call,
// then one GET /api/v2/dashboards/{id} per dashboard, through the real observability client with its
// default concurrency (4) and NO client-side rate limit. Prints the plan as JSON, as `--format json` does.
import { nodeFileSystem } from '../dist/config/fs.js';
import { loadWorkspace } from '../dist/config/load.js';
import { createObservabilityClient } from '../dist/clients/observability.js';
import { computePlan } from '../dist/plan/plan.js';
import { readState } from '../dist/apply/state.js';

const env = process.env;
const cwd = process.cwd();
const loaded = await loadWorkspace({ fs: nodeFileSystem, env, cwd }, { requireProject: true, cache: true });
if (loaded.issues.some((i) => i.severity === 'error')) throw new Error('the bench project has errors');
const project = loaded.project;
const client = createObservabilityClient({ url: env.STEWARD_OBS_URL, token: env.STEWARD_OBS_TOKEN });
const ids = (await client.listDashboards()).map((d) => d.id);
const live = await Promise.all(ids.map((id) => client.getDashboard(id)));
const plan = computePlan({
  resources: loaded.resources,
  live,
  state: readState(project.statePath),
  markerTag: project.markerTag,
  now: new Date(),
  projectDir: project.dir,
});
process.stdout.write(JSON.stringify(plan, null, 2) + '\n');
