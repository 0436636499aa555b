import type { SeedAlert, SeedData } from './types.ts';
import {
  DEFAULT_ALERT_IDS,
  DEFAULT_ORGANIZATION_ID,
  DEFAULT_SERVICE_IDS,
  DEFAULT_STALE_DASHBOARD_ID,
  DEFAULT_WEBHOOK_ID,
  DEFAULT_TEAM_ID,
  ENDPOINT_IDS,
} from './default-seed-ids.ts';
import { mskEndpoint, prodBackups, prodPipes, stagingBackups, stagingPipes } from './default-seed-cloud.ts';

/**
 * The default seed: what `steward emulator` serves unless `--data` says otherwise, and what `examples/`
 * is written against. Times are relative to the emulator's clock at start, so "the newest backup is older
 * than 26 h" means the same on any date. Every secret-looking value contains `FAKE-SECRET`, so a test can
 * check that no output leaks one.
 */

function alert(name: keyof typeof DEFAULT_ALERT_IDS, fields: Partial<SeedAlert>): SeedAlert {
  return {
    id: DEFAULT_ALERT_IDS[name],
    name,
    source: 'tile',
    state: 'inactive',
    channel: { type: 'webhook', webhookId: DEFAULT_WEBHOOK_ID },
    team: DEFAULT_TEAM_ID,
    silenced: false,
    createdAt: '-90d',
    updatedAt: '-30d',
    ...fields,
  };
}

const alerts: SeedAlert[] = [
  alert('Checkout errors', {
    message: 'Checkout errors above 100 in 15m',
    threshold: 100,
    thresholdType: 'above',
    interval: '15m',
    dashboard: DEFAULT_STALE_DASHBOARD_ID,
    tileId: '65f5e4a3b9e77c001a0000e1',
  }),
  alert('JVM heap high', {
    message: 'JVM heap above 90% for 5m',
    threshold: 0.9,
    thresholdType: 'above',
    interval: '5m',
    dashboard: DEFAULT_STALE_DASHBOARD_ID,
    tileId: '65f5e4a3b9e77c001a0000e2',
  }),
  alert('GC pause long', {
    message: 'GC pauses above 500 ms',
    threshold: 500,
    thresholdType: 'above',
    interval: '5m',
    dashboard: DEFAULT_STALE_DASHBOARD_ID,
    tileId: '65f5e4a3b9e77c001a0000e3',
  }),
  alert('API latency high', {
    message: 'p95 API latency above 1 s',
    threshold: 1000,
    thresholdType: 'above',
    interval: '15m',
    dashboard: DEFAULT_STALE_DASHBOARD_ID,
    tileId: '65f5e4a3b9e77c001a0000e4',
  }),
  alert('Slow queries (saved search)', {
    message: 'More than 20 slow queries in 1h',
    threshold: 20,
    thresholdType: 'above',
    interval: '1h',
    source: 'search',
    savedSearch: '65f5e4a3b9e77c001a0000c1',
    groupBy: 'service',
  }),
];

/**
 * The default seed, freshly built (callers may change it). msk-analytics is `PendingAcceptance`: the cloud
 * OpenAPI's enum for an endpoint that is not Ready yet (it has no plain `Pending`).
 */
export function defaultSeed(): SeedData {
  return {
    alerts: structuredClone(alerts),
    dashboards: [],
    organizations: [
      {
        id: DEFAULT_ORGANIZATION_ID,
        name: 'Example Org',
        services: [
          {
            id: DEFAULT_SERVICE_IDS['prod-warehouse'],
            name: 'prod-warehouse',
            state: 'running',
            reversePrivateEndpoints: [mskEndpoint('msk-prod', 'Ready', 'msk-prod'), mskEndpoint('msk-analytics', 'PendingAcceptance', 'msk-analytics')],
            pipes: prodPipes(),
            backups: prodBackups(),
          },
          {
            id: DEFAULT_SERVICE_IDS['staging-warehouse'],
            name: 'staging-warehouse',
            state: 'running',
            reversePrivateEndpoints: [
              {
                id: ENDPOINT_IDS['kafka-staging'],
                description: 'kafka-staging',
                type: 'VPC_ENDPOINT_SERVICE',
                vpcEndpointServiceName: 'com.amazonaws.vpce.eu-west-1.vpce-svc-0123456789abcdef0',
                endpointId: 'vpce-0fedcba9876543210',
                dnsNames: ['vpce-0fedcba9876543210-abcdefgh.vpce-svc-0123456789abcdef0.eu-west-1.vpce.amazonaws.com'],
                privateDnsNames: ['kafka.staging.example.internal'],
                status: 'Ready',
              },
            ],
            pipes: stagingPipes(),
            backups: stagingBackups(),
          },
        ],
      },
    ],
  };
}
