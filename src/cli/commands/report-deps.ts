import type { Env } from '../../config/interpolate.ts';
import type { Project } from '../../config/project.ts';
import { CliError } from '../../errors.ts';
import type { CloudReader } from '../../report/types.ts';

/**
 * Builds the reader `steward report` reads the cloud through, from the project's `spec.cloud` (`url` with
 * `${VAR}`, `keyId`/`keySecret` as `{ env: NAME }`, `requestsPerMinute`, `timeoutSeconds`) and the environment.
 * The only place the report command meets the cloud client: swapped for `createCloudClient(...)` when
 * `src/clients/cloud.ts` lands. The client's four list/get methods are a `CloudReader` as they stand.
 *
 * @throws CliError until the cloud client is merged.
 */
export function createCloudReader(_project: Project, _env: Env): CloudReader {
  throw new CliError('report needs the cloud client (not merged yet)');
}
