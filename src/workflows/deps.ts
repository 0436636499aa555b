import type { Project } from '../config/project.ts';
import type { CloudClient } from '../clients/cloud.ts';
import type { ObservabilityClient } from '../clients/observability.ts';

export interface Clock {
  now(): Date;
}

/** The services of one project: clients, clock, the secrets in play. Built by the CLI (src/cli/deps.ts). */
export interface Services {
  clock: Clock;
  observability(): ObservabilityClient;
  cloud(): CloudClient;
  /** Every secret value in play, for redaction of anything written. */
  secrets(): string[];
  /** With `--debug`: a line on stderr about a choice steward made that the output does not show (its caches). */
  debug?(line: string): void;
}

/** What every workflow receives from the command that runs it: values, never the process. */
export interface WorkflowDeps {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** The clients for a project, once its file is loaded; their requests stop when `signal` (default: the run's) aborts. */
  connect(project: Project, signal?: AbortSignal): Services;
}
