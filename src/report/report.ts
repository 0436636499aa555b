import { checkService, sourceKinds, summarizeBackups } from './checks.ts';
import type { ServiceRead } from './read.ts';
import { redact } from './redact.ts';
import type { EndpointSummary, PipeSummary, Report, ServiceReport, SeverityCounts } from './types.ts';
import { compareText as cmp } from '../shared/text.ts';

export interface BuildReportOptions {
  /** The clock reading the report is as of. */
  now: Date;
  /** Values that must appear in no output (configured credentials); see `redact`. */
  secrets?: readonly string[];
}

/**
 * Turns what was read into the Report value: checks every service, summarises backups, pipes and endpoints,
 * counts findings, and redacts the whole value. Pure. The result is the only thing renderers get, so every
 * output is redacted by construction.
 */
export function buildReport(reads: readonly ServiceRead[], opts: BuildReportOptions): Report {
  const services = reads.map((r) => buildServiceReport(r, opts.now)).sort((a, b) => cmp(a.name, b.name) || cmp(a.serviceId, b.serviceId));
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  let readFailures = 0;
  let malformedItems = 0;
  for (const s of services) {
    for (const f of s.findings) counts[f.severity]++;
    readFailures += s.readFailures.length;
    malformedItems += s.malformedItems.length;
  }
  const report: Report = {
    formatVersion: 1,
    generatedAt: opts.now.toISOString(),
    services,
    summary: { services: services.length, ...counts, readFailures, malformedItems },
  };
  return redact(report, { secrets: opts.secrets ?? [] });
}

function buildServiceReport(r: ServiceRead, now: Date): ServiceReport {
  const { observed, spec } = r;
  const listedPipes = new Set((spec.pipes?.expected ?? []).map((p) => p.name));
  const listedEndpoints = new Set((spec.reversePrivateEndpoints?.expected ?? []).map((e) => e.description));
  const pipes: PipeSummary[] = (observed.pipes ?? [])
    .map((p) => {
      const out: PipeSummary = { name: p.name, sourceKinds: sourceKinds(p), listed: listedPipes.has(p.name) };
      if (p.id !== undefined) out.id = p.id;
      if (typeof p.state === 'string') out.state = p.state;
      return out;
    })
    .sort((a, b) => cmp(a.name, b.name) || cmp(a.id ?? '', b.id ?? ''));
  const endpoints: EndpointSummary[] = (observed.endpoints ?? [])
    .map((e) => {
      const out: EndpointSummary = { description: e.description, listed: listedEndpoints.has(e.description) };
      if (e.id !== undefined) out.id = e.id;
      if (typeof e.type === 'string') out.type = e.type;
      if (typeof e.status === 'string') out.status = e.status;
      return out;
    })
    .sort((a, b) => cmp(a.description, b.description) || cmp(a.id ?? '', b.id ?? ''));
  return {
    name: r.name,
    organizationId: spec.organizationId,
    serviceId: spec.serviceId,
    findings: checkService(spec, observed, now),
    backups: summarizeBackups(observed.backups ?? [], now),
    backupLimits: { ...(spec.backups ?? {}) },
    pipes,
    endpoints,
    ...(observed.service?.state !== undefined ? { state: observed.service.state } : {}),
    readFailures: observed.failures.map((f) => ({ ...f })),
    malformedItems: observed.malformed.map((m) => ({ ...m, problems: [...m.problems] })),
  };
}

/** Whether any finding reaches `threshold` (error reaches warning too). */
export function reachesSeverity(report: Report, threshold: 'error' | 'warning'): boolean {
  return threshold === 'error' ? report.summary.error > 0 : report.summary.error + report.summary.warning > 0;
}
