/** The Report for the default seed at the fixed clock, read through an in-memory reader (no HTTP). */
import { readCloud } from '../../src/report/read.ts';
import { buildReport } from '../../src/report/report.ts';
import type { CloudReader, Report } from '../../src/report/types.ts';
import type { CloudServiceSpec } from '../../src/schema/kinds.ts';
import { defaultSeed, NOW, PROD_SPEC, STAGING_SPEC, type CloudData } from './seed.ts';

export function memoryReader(data: CloudData): CloudReader {
  const svc = (org: string, id: string) => {
    const s = data[org]?.[id];
    if (!s) throw new Error(`HTTP 404: no service ${id}`);
    return s;
  };
  return {
    listIngestPipes: async (o, s) => ({ items: structuredClone(svc(o, s).pipes), malformed: [] }),
    listReversePrivateEndpoints: async (o, s) => ({ items: structuredClone(svc(o, s).endpoints), malformed: [] }),
    listBackups: async (o, s) => ({ items: structuredClone(svc(o, s).backups), malformed: [] }),
    getBackup: async (o, s, id) => {
      const b = svc(o, s).backups.find((x) => x.id === id);
      if (!b) throw new Error(`HTTP 404: no backup ${id}`);
      return { item: structuredClone(b), malformed: undefined };
    },
  };
}

export async function seedReport(opts: { data?: CloudData; secrets?: string[]; prodSpec?: CloudServiceSpec } = {}): Promise<Report> {
  const reads = await readCloud({ reader: memoryReader(opts.data ?? defaultSeed()) }, [
    { name: 'prod-warehouse', spec: opts.prodSpec ?? PROD_SPEC },
    { name: 'staging-warehouse', spec: STAGING_SPEC },
  ]);
  return buildReport(reads, { now: NOW, secrets: opts.secrets ?? [] });
}
