/**
 * The service's own state (ClickHouse Cloud `Service.state`, read with `GET …/services/{serviceId}` under the
 * `clickhouse-cloud` profile). A service that is not running takes no backups, so its old backups are what
 * they are (`backup.paused`, not `backup.stale`); a failed or deleted service is a finding of its own. Pure.
 */
import type { Finding, ObservedServiceInfo } from './types.ts';

/**
 * Every `Service.state` the ClickHouse Cloud API names (both spec snapshots, 2026-04-14 and 2026-07-31), what
 * each means for the review when it is not `running`, and whether the service then takes scheduled backups.
 * It takes none stopped or idle (scaled to zero), on the way there, on the way back (the schedule resumes once
 * it runs), while being created (no backup yet), or deleted: its old backups are then `backup.paused`. Every
 * other state, and one steward does not know, keeps `backup.stale`: `running`, `degraded` and
 * `partially_running` take backups, and a `failed` service whose backups stopped has a backup problem on top of
 * its own.
 */
const STATES: Readonly<Record<string, { severity: Finding['severity']; what: string; noBackups?: true } | undefined>> = {
  running: undefined,
  stopped: { severity: 'info', what: 'is stopped', noBackups: true },
  stopping: { severity: 'info', what: 'is stopping', noBackups: true },
  idle: { severity: 'info', what: 'is idle (scaled to zero)', noBackups: true },
  starting: { severity: 'info', what: 'is starting', noBackups: true },
  awaking: { severity: 'info', what: 'is waking from idle', noBackups: true },
  provisioning: { severity: 'info', what: 'is being provisioned', noBackups: true },
  degraded: { severity: 'warning', what: 'is degraded' },
  partially_running: { severity: 'warning', what: 'is partially running' },
  failed: { severity: 'error', what: 'has failed' },
  terminating: { severity: 'error', what: 'is being terminated', noBackups: true },
  terminated: { severity: 'error', what: 'is terminated', noBackups: true },
  softdeleting: { severity: 'error', what: 'is being deleted', noBackups: true },
  softdeleted: { severity: 'error', what: 'is deleted', noBackups: true },
};

/** Every `Service.state` the API names. */
export const SERVICE_STATES: readonly string[] = Object.keys(STATES);

/** What a state means, when the API names it (own keys only: a state `constructor` is one steward does not know). */
function meaning(k: string): { known: boolean; finding?: (typeof STATES)[string] } {
  return Object.hasOwn(STATES, k) ? { known: true, finding: STATES[k] } : { known: false };
}

/** The state as the checks compare it (`Stopped`, `STOPPED` and `stopped` are one state). */
function key(state: string): string {
  return state.trim().toLowerCase();
}

/** The service's state when it is one in which the service takes no backups, else undefined. */
export function backupsPausedBy(service: ObservedServiceInfo | undefined): string | undefined {
  const s = service?.state;
  return s !== undefined && meaning(key(s)).finding?.noBackups ? s : undefined;
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
  const { known, finding } = meaning(key(s));
  if (known && !finding) return []; // running
  if (!finding) {
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
  return [
    {
      id: 'service.state',
      severity: finding.severity,
      object,
      expected: { state: 'running' },
      actual: s,
      message: `the service ${finding.what} (state ${s})${finding.noBackups ? ': it takes no scheduled backups until it runs again' : ''}`,
    },
  ];
}
