/**
 * The service's own state (ClickHouse Cloud `Service.state`, read with `GET …/services/{serviceId}` under the
 * `clickhouse-cloud` profile). A service that is not running takes no backups, so its old backups are what
 * they are (`backup.paused`, not `backup.stale`); a failed or deleted service is a finding of its own. Pure.
 */
import type { Finding, ObservedServiceInfo } from './types.ts';

/** Every `Service.state` the ClickHouse Cloud API names (both spec snapshots, 2026-04-14 and 2026-07-31). */
export const SERVICE_STATES: readonly string[] = [
  'starting',
  'stopping',
  'terminating',
  'softdeleting',
  'awaking',
  'partially_running',
  'provisioning',
  'running',
  'stopped',
  'terminated',
  'softdeleted',
  'degraded',
  'failed',
  'idle',
];

/**
 * States in which a service takes no scheduled backups: stopped or idle (scaled to zero), on the way there,
 * on the way back (the schedule resumes once it runs), being created (no backup yet), or deleted. Old
 * backups of such a service are `backup.paused`. Every other state, and a state steward does not know,
 * keeps `backup.stale`: `running`, `degraded` and `partially_running` take backups, and a `failed` service
 * whose backups stopped has a backup problem on top of its own.
 */
const NO_BACKUP_STATES = new Set([
  'stopped',
  'stopping',
  'idle',
  'starting',
  'awaking',
  'provisioning',
  'terminating',
  'terminated',
  'softdeleting',
  'softdeleted',
]);

/** What each state means for the review, when it is not `running`. */
const STATE_FINDING: Record<string, { severity: Finding['severity']; what: string }> = {
  stopped: { severity: 'info', what: 'is stopped' },
  stopping: { severity: 'info', what: 'is stopping' },
  idle: { severity: 'info', what: 'is idle (scaled to zero)' },
  starting: { severity: 'info', what: 'is starting' },
  awaking: { severity: 'info', what: 'is waking from idle' },
  provisioning: { severity: 'info', what: 'is being provisioned' },
  degraded: { severity: 'warning', what: 'is degraded' },
  partially_running: { severity: 'warning', what: 'is partially running' },
  failed: { severity: 'error', what: 'has failed' },
  terminating: { severity: 'error', what: 'is being terminated' },
  terminated: { severity: 'error', what: 'is terminated' },
  softdeleting: { severity: 'error', what: 'is being deleted' },
  softdeleted: { severity: 'error', what: 'is deleted' },
};

/** The state as the checks compare it (`Stopped`, `STOPPED` and `stopped` are one state). */
function key(state: string): string {
  return state.trim().toLowerCase();
}

/** The service's state when it is one in which the service takes no backups, else undefined. */
export function backupsPausedBy(service: ObservedServiceInfo | undefined): string | undefined {
  const s = service?.state;
  return s !== undefined && NO_BACKUP_STATES.has(key(s)) ? s : undefined;
}

/** The `service.state` finding for a service that is not plainly running, or none. */
export function checkServiceState(service: ObservedServiceInfo | undefined, serviceId: string): Finding[] {
  if (service === undefined) return [];
  const object = { kind: 'service' as const, name: 'state', id: serviceId };
  const s = service.state;
  if (s === undefined) {
    const sent = service.stateSent;
    return [
      {
        id: 'service.state',
        severity: 'warning',
        object,
        expected: { state: 'running' },
        actual: sent === undefined ? null : { state: sent },
        message: `the service's state is unknown: the answer has ${sent === undefined ? 'no state' : `state ${JSON.stringify(sent)}, which is no state`}; backups are checked as for a running service`,
      },
    ];
  }
  const k = key(s);
  if (k === 'running') return [];
  const known = STATE_FINDING[k];
  if (!known) {
    return [
      {
        id: 'service.state',
        severity: 'warning',
        object,
        expected: { state: SERVICE_STATES },
        actual: s,
        message: `the service is ${JSON.stringify(s)}, a state steward does not know; backups are checked as for a running service`,
      },
    ];
  }
  const paused = NO_BACKUP_STATES.has(k);
  return [
    {
      id: 'service.state',
      severity: known.severity,
      object,
      expected: { state: 'running' },
      actual: s,
      message: `the service ${known.what} (state ${s})${paused ? ': it takes no scheduled backups until it runs again' : ''}`,
    },
  ];
}
