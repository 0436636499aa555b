/** The drift-review report: reads (effectful, injected reader), checks and the Report value (pure), redaction. */
export { readCloud, readService, DEFAULT_REPORT_CONCURRENCY, type CloudServiceTarget, type ReadDeps, type ServiceRead } from './read.ts';
export {
  checkService,
  backupStatus,
  backupDuration,
  summarizeBackups,
  sourceKinds,
  TRANSITIONAL_PIPE_STATES,
  KNOWN_PIPE_STATES,
  UNHEALTHY_PIPE_STATES,
  KNOWN_SOURCE_KINDS,
  WAITING_ENDPOINT_STATUSES,
  DEFAULT_ENDPOINT_STATUS,
  DEFAULT_REPORT_UNLISTED_PIPES,
  DEFAULT_REPORT_UNLISTED_ENDPOINTS,
} from './checks.ts';
export { buildReport, reachesSeverity, type BuildReportOptions } from './report.ts';
export { redact, isSecretKey, REDACTED, type RedactOptions } from './redact.ts';
export type * from './types.ts';
