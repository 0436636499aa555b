import type { StewardAlert, StewardCloudService, StewardDashboard, StewardProject, StewardTemplate, StewardTemplateInstance } from './types.gen.ts';

export type { StewardAlert, StewardCloudService, StewardDashboard, StewardProject, StewardTemplate, StewardTemplateInstance };

/** Template and TemplateInstance are read like the others, and expanded away before anything plans (src/templates/). */
export const RESOURCE_KINDS = ['Dashboard', 'Alert', 'CloudService', 'Template', 'TemplateInstance'] as const;
export const ALL_KINDS = ['Project', ...RESOURCE_KINDS] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];
export type Kind = (typeof ALL_KINDS)[number];

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
      : K extends 'CloudService'
        ? StewardCloudService
        : K extends 'Template'
          ? StewardTemplate
          : StewardTemplateInstance;
