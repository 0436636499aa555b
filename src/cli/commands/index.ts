import type { CommandSpec } from '../context.ts';
import { validateCommand } from './validate.ts';
import { reportCommand } from './report.ts';

/**
 * Every subcommand, in the order `--help` lists them. Each lives in its own file so that commands can be
 * added without touching the others.
 */
export const commands: CommandSpec<any>[] = [validateCommand, reportCommand];
