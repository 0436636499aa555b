import type { StewardAlert, StewardCloudService, StewardDashboard, StewardProject } from './types.gen.ts';

export type { StewardAlert, StewardCloudService, StewardDashboard, StewardProject };

export const RESOURCE_KINDS = ['Dashboard', 'Alert', 'CloudService'] as const;
export const ALL_KINDS = ['Project', ...RESOURCE_KINDS] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];
export type Kind = (typeof ALL_KINDS)[number];

export const SCHEMA_FILES: Record<Kind, string> = {
  Project: 'project.schema.json',
  Dashboard: 'dashboard.schema.json',
  Alert: 'alert.schema.json',
  CloudService: 'cloud-service.schema.json',
};

export type DashboardSpec = StewardDashboard['spec'];
export type Tile = NonNullable<DashboardSpec['tiles']>[number];
export type Series = NonNullable<Tile['series']>[number];
export type AlertSpec = StewardAlert['spec'];
export type CloudServiceSpec = StewardCloudService['spec'];
export type ProjectSpec = StewardProject['spec'];

export type DocumentOf<K extends Kind> = K extends 'Project'
  ? StewardProject
  : K extends 'Dashboard'
    ? StewardDashboard
    : K extends 'Alert'
      ? StewardAlert
      : StewardCloudService;
