/**
 * The cloud lists are per service, and each item says which service it is of (`serviceId`). A server (or a
 * proxy) that mixes in the items of another service of the project made them count for this one: another service's pipe named
 * like a missing one hid pipe.missing, another's Ready endpoint hid this one's endpoint.status. Such an item is
 * now left out of the checks as malformed (and the GET of the newest backup answering another's is not used) (read.malformed-item, the review incomplete, exit 1).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_SERVICE_IDS } from '../../src/emulator/default-seed-ids.ts';
import type { Report } from '../../src/report/types.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';

const PROD = DEFAULT_SERVICE_IDS['prod-warehouse'];
const OTHER = DEFAULT_SERVICE_IDS['staging-warehouse'];

type Item = Record<string, unknown>;

for (const api of ['seed', 'clickhouse-cloud'] as const) {
  test(`cloud.api ${api}: another service's pipe, endpoint and backup in this service's answers do not count for it`, async () => {
    const x = await examplesWithEmulator();
    const proxy = await startProxy(x.env['STEWARD_CLOUD_URL']!, {
      rewrite: (_req, path, status, text) => {
        if (status !== 200 || !path.includes(`/services/${PROD}/`)) return text;
        // The GET of the newest backup answers another service's backup.
        if (/\/backups\/[^/]+$/.test(path))
          return JSON.stringify({ ...(JSON.parse(text) as Item), result: { ...(JSON.parse(text) as { result: Item }).result, serviceId: OTHER } });
        const body = JSON.parse(text) as { result: Item[] };
        if (/\/(ingestpipes|clickpipes)$/.test(path))
          body.result.push({ ...body.result[0]!, id: '0a0a0a0a-0000-4000-8000-000000000001', serviceId: OTHER, name: 'sessions-from-kafka', state: 'Running' });
        if (/ReversePrivateEndpoints$/i.test(path))
          body.result = body.result.map((e) => (e['description'] === 'msk-analytics' ? { ...e, serviceId: OTHER, status: 'Ready' } : e));
        return JSON.stringify(body);
      },
    });
    try {
      const { writeFileSync, readFileSync } = await import('node:fs');
      const f = `${x.dir}/steward.yaml`;
      writeFileSync(f, readFileSync(f, 'utf8').replace('\n  cloud:\n', `\n  cloud:\n    api: ${api}\n`));
      // The project reviews the other service too.
      const prodFile = readFileSync(`${x.dir}/cloud/prod-warehouse.yaml`, 'utf8');
      const org = /organizationId: (\S+)/.exec(prodFile)![1]!;
      writeFileSync(
        `${x.dir}/cloud/staging-warehouse.yaml`,
        `apiVersion: steward/v1\nkind: CloudService\nmetadata:\n  name: staging-warehouse\nspec:\n  organizationId: ${org}\n  serviceId: ${OTHER}\n`,
      );
      const r = await steward(['report', '--out', 'reports', '--format', 'json'], { cwd: x.dir, env: { ...x.env, STEWARD_CLOUD_URL: proxy.url } });
      assert.is(r.code, 1, r.stderr);
      const prod = (JSON.parse(r.stdout) as Report).services.find((s) => s.name === 'prod-warehouse')!;
      const newest = prod.findings.find((f) => f.id === 'backup.in-progress')!.object.id!;
      const ids = prod.findings.map((f) => `${f.id} ${f.object.name}`);
      assert.ok(ids.includes('pipe.missing sessions-from-kafka'), ids.join('\n'));
      assert.ok(ids.includes('endpoint.missing msk-analytics'), ids.join('\n'));
      assert.equal(
        prod.malformedItems.map((m) => [m.part, m.name, m.kept]),
        [
          ['pipes', 'sessions-from-kafka', false],
          ['endpoints', 'msk-analytics', false],
          ['newest-backup', newest, false],
        ],
      );
      // The list's word on the newest backup stands.
      assert.ok(prod.backups.some((b) => b.id === newest));
      assert.match(prod.malformedItems[0]!.problems[0]!, `serviceId: must be this service's (${PROD}), got "${OTHER}", another CloudService of this project`);
      assert.not.ok(prod.pipes.some((p) => p.name === 'sessions-from-kafka'));
    } finally {
      await proxy.close();
      await x.cleanup();
    }
  });
}

test.run();
