/** The ids and markers of the default seed (default-seed.ts), shared by its parts. */

export const DEFAULT_ORGANIZATION_ID = '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31';
export const DEFAULT_SERVICE_IDS = {
  'prod-warehouse': '9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d',
  'staging-warehouse': '2c3d4e5f-6a7b-4c8d-9e0f-a1b2c3d4e5f6',
} as const;
export const DEFAULT_ALERT_IDS = {
  'Checkout errors': '65f5e4a3b9e77c001a000001',
  'JVM heap high': '65f5e4a3b9e77c001a000002',
  'GC pause long': '65f5e4a3b9e77c001a000003',
  'API latency high': '65f5e4a3b9e77c001a000004',
  'Slow queries (saved search)': '65f5e4a3b9e77c001a000005',
} as const;
export const DEFAULT_WEBHOOK_ID = '65f5e4a3b9e77c001a0000aa';
export const DEFAULT_TEAM_ID = '65f5e4a3b9e77c001a0000bb';
/** The dashboard the seeded tile alerts point at: it no longer exists (the default seed has no dashboards). */
export const DEFAULT_STALE_DASHBOARD_ID = '65f5e4a3b9e77c001a0000d0';
/** The marker inside every fake credential of the default seed. */
export const FAKE_SECRET_MARKER = 'FAKE-SECRET';

export const FAKE_CERT = `-----BEGIN CERTIFICATE-----\nMIIB${FAKE_SECRET_MARKER}-emulator-placeholder-not-a-real-certificate\n-----END CERTIFICATE-----\n`;

export const ENDPOINT_IDS = {
  'msk-prod': 'e1d2c3b4-a5f6-4788-9a0b-1c2d3e4f5a60',
  'msk-analytics': 'e1d2c3b4-a5f6-4788-9a0b-1c2d3e4f5a61',
  'kafka-staging': 'e1d2c3b4-a5f6-4788-9a0b-1c2d3e4f5a62',
} as const;
