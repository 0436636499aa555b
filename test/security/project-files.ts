/** A minimal project (a url nothing listens on, one dashboard) for the tests of where steward writes. */
import { join } from 'node:path';

/** steward.yaml with `extra` appended to its spec (indented by the caller). */
export const project = (extra = '') => `apiVersion: steward/v1
kind: Project
metadata: { name: p }
spec:
  resources: ["dashboards/**/*.yaml"]
  observability:
    url: http://127.0.0.1:9
    token: { env: STEWARD_OBS_TOKEN }
${extra}`;

export const DASH = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: d }
spec: { name: D, tiles: [] }
`;

/** The token and a cache folder of the test's own. */
export const ENV = (dir: string) => ({ STEWARD_OBS_TOKEN: 'tok-'.padEnd(24, 'x'), XDG_CACHE_HOME: join(dir, '.xdg') });
