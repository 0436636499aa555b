import type { CommandSpec } from '../context.ts';
import { applyCommand } from './apply.ts';
import { demoCommand } from './demo.ts';
import { emulatorCommand } from './emulator.ts';
import { importCommand } from './import.ts';
import { initCommand } from './init.ts';
import { planCommand } from './plan.ts';
import { renderCommand } from './render.ts';
import { reportCommand } from './report.ts';
import { showCommand } from './show.ts';
import { validateCommand } from './validate.ts';

/**
 * Every subcommand, in the order `--help` lists them. Each lives in its own file so that commands can be
 * added without touching the others; each loads its heavy code only when it runs.
 */
export const commands: CommandSpec<any>[] = [
  initCommand,
  validateCommand,
  planCommand,
  applyCommand,
  showCommand,
  reportCommand,
  importCommand,
  renderCommand,
  emulatorCommand,
  demoCommand,
];
