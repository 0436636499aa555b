import type { Project } from '../../config/project.ts';
import { readerFromClient } from '../../report/read.ts';
import type { CloudReader } from '../../report/types.ts';
import type { CommandContext } from '../context.ts';
import { createDeps } from '../deps.ts';

/**
 * The reader `steward report` reads the cloud through: the cloud client built from the project's
 * `spec.cloud` (url with `${VAR}`, key id and secret from the variables it names), with the CLI's abort
 * signal and, under --debug, the redacted HTTP trace.
 */
export function createCloudReader(project: Project, ctx: CommandContext, opts: { debug: boolean }): CloudReader {
  return readerFromClient(createDeps(ctx, project, { debug: opts.debug }).cloud(), ctx.signal);
}
