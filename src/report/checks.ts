import type { CloudServiceSpec } from '../schema/kinds.ts';
import type { Finding, FindingObject, MalformedRead, ObservedService, ReadPart, Severity } from './types.ts';
import { checkBackups } from './check-backups.ts';
import { checkEndpoints } from './check-endpoints.ts';
import { checkPipes } from './check-pipes.ts';
import { backupsPausedBy, checkServiceState } from './check-service.ts';
import { pushAll } from '../shared/arrays.ts';

export { summarizeBackups } from './check-backups.ts';
export { DEFAULT_ENDPOINT_STATUS, DEFAULT_REPORT_UNLISTED_ENDPOINTS } from './check-endpoints.ts';
export { DEFAULT_REPORT_UNLISTED_PIPES, sourceKinds } from './check-pipes.ts';

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const KIND_RANK: Record<FindingObject['kind'], number> = { service: 0, backup: 1, pipe: 2, endpoint: 3 };

/**
 * Checks one service's observed state against its CloudService spec. Pure: `now` is the only clock. Never
 * throws on what a server sends; anything unexpected becomes a finding. Findings come back sorted by
 * severity, then by what they concern (service, backups oldest first, pipes in file order then unlisted
 * ones by name, endpoints likewise).
 */
export function checkService(spec: CloudServiceSpec, observed: ObservedService, now: Date): Finding[] {
  const findings: Finding[] = [];
  for (const f of observed.failures) findings.push(readFailed(spec, f.part, f.message));
  for (const m of observed.malformed) findings.push(malformedItem(m));
  pushAll(findings, checkServiceState(observed.service, spec.serviceId));
  if (observed.backups) pushAll(findings, checkBackups(spec.backups ?? {}, observed.backups, now, backupsPausedBy(observed.service)));
  if (observed.pipes) pushAll(findings, checkPipes(spec.pipes ?? {}, observed.pipes));
  if (observed.endpoints) pushAll(findings, checkEndpoints(spec.reversePrivateEndpoints ?? {}, observed.endpoints));
  return sortFindings(findings);
}

/** Stable sort: severity, then object kind; within those, the order the checks emitted (see checkService). */
function sortFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_RANK[a.f.severity] - SEVERITY_RANK[b.f.severity] || KIND_RANK[a.f.object.kind] - KIND_RANK[b.f.object.kind] || a.i - b.i)
    .map((x) => x.f);
}

const PART_LABEL: Record<ReadPart, string> = {
  service: 'read the service',
  pipes: 'list ingest pipes',
  endpoints: 'list reverse private endpoints',
  backups: 'list backups',
  'newest-backup': 'get the newest backup',
};

const PART_EFFECT: Record<ReadPart, string> = {
  service: 'its state is unknown, so backups are checked as for a running service',
  pipes: 'pipe checks skipped',
  endpoints: 'endpoint checks skipped',
  backups: 'backup checks skipped',
  'newest-backup': 'backup checks use the list',
};

function readFailed(spec: CloudServiceSpec, part: ReadPart, message: string): Finding {
  return {
    id: 'read.failed',
    severity: 'error',
    object: { kind: 'service', name: part, id: spec.serviceId },
    actual: { part, error: message },
    message: `could not ${PART_LABEL[part]}: ${message} (${PART_EFFECT[part]})`,
  };
}

const PART_KIND: Record<ReadPart, FindingObject['kind']> = {
  service: 'service',
  pipes: 'pipe',
  endpoints: 'endpoint',
  backups: 'backup',
  'newest-backup': 'backup',
};
const KIND_NOUN: Record<FindingObject['kind'], string> = { pipe: 'pipe', endpoint: 'endpoint', backup: 'backup', service: 'service' };

/** Problems named in a message; the rest are in `actual`. */
const MESSAGE_PROBLEMS = 3;

/**
 * An item the server got wrong: the rest of its list was checked; this one only without the members at
 * fault, or not at all. An error, and the review is incomplete (the command exits 1 as for a failed read).
 */
function malformedItem(m: MalformedRead): Finding {
  const kind = PART_KIND[m.part];
  const object: FindingObject = { kind, name: m.name, ...(m.id !== undefined ? { id: m.id } : {}) };
  const shown = m.problems.slice(0, MESSAGE_PROBLEMS).join('; ');
  const more = m.problems.length > MESSAGE_PROBLEMS ? ` (and ${m.problems.length - MESSAGE_PROBLEMS} more)` : '';
  const idNote = m.id !== undefined && !m.name.includes(m.id) ? ` (id ${m.id})` : '';
  const effect = m.kept ? `checked without ${m.problems.length === 1 ? 'that member' : 'those members'}` : `left out of the checks`;
  return {
    id: 'read.malformed-item',
    severity: 'error',
    object,
    actual: { part: m.part, ...(m.position !== undefined ? { position: m.position } : {}), problems: m.problems, kept: m.kept },
    message: `the server sent ${KIND_NOUN[kind]} "${m.name}"${idNote} malformed: ${shown}${more}; ${effect}, so its review is incomplete`,
  };
}
