import type { Project } from '../../config/project.ts';
import { withoutNulls } from '../../report/read.ts';
import type { CloudReader, ObservedBackup, ObservedEndpoint, ObservedPipe } from '../../report/types.ts';
import type { CommandContext } from '../context.ts';
import { createDeps } from '../deps.ts';

/**
 * The reader `steward report` reads the cloud through: the cloud client built from the project's
 * `spec.cloud` (url with `${VAR}`, key id and secret from the variables it names), with the CLI's abort
 * signal and, under --debug, the redacted HTTP trace.
 */
export function createCloudReader(project: Project, ctx: CommandContext, opts: { debug: boolean }): CloudReader {
  const c = createDeps(ctx, project, { debug: opts.debug }).cloud();
  const o = { signal: ctx.signal };
  return {
    listIngestPipes: async (org, svc) => withoutNulls(await c.listIngestPipes(org, svc, o)) as ObservedPipe[],
    listReversePrivateEndpoints: async (org, svc) => withoutNulls(await c.listReversePrivateEndpoints(org, svc, o)) as ObservedEndpoint[],
    listBackups: async (org, svc) => withoutNulls(await c.listBackups(org, svc, o)) as ObservedBackup[],
    getBackup: async (org, svc, id) => withoutNulls(await c.getBackup(org, svc, id, o)) as ObservedBackup,
  };
}
