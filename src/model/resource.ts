/**
 * A resource as steward works on it: a validated document of one kind and where it came from. Loaded by
 * `src/config/`, checked by `src/schema/`, planned by `src/plan/`: kept here so none of them imports another
 * for the type alone.
 */
import type { DocumentOf, ResourceKind } from '../schema/kinds.ts';

/** A validated document of one kind, with where it came from. */
export interface Resource<K extends ResourceKind = ResourceKind> {
  kind: K;
  name: string;
  file: string;
  /** 0-based document index inside the file; negative for a resource stamped from a template (src/templates/expand.ts: its origin says where its parts are). */
  index: number;
  doc: DocumentOf<K>;
  /**
   * Dashboards answered by the parse cache: what the checks and the plan need of the document, so that an
   * unchanged dashboard's document is not read (src/config/cache.ts). Always what `dashboardFacts(doc, api)` (src/schema/semantic.ts) gives.
   */
  facts?: DashboardFacts;
}

/** What the semantic checks and the plan's matching read of a dashboard (`dashboardFacts`, src/schema/semantic.ts). */
export interface DashboardFacts {
  specName: string;
  id?: string;
  /** Some tile config or filter names a source (`source: <name>`). */
  sourceNames: boolean;
  /** The checks of this dashboard alone under one API (the project's when it was cached): tile problems, then tag problems. */
  local?: [string, [LocalProblem[], LocalProblem[]]];
  /** [marker tag, digest of the normalized desired form] (src/plan/normalize.ts). */
  desired?: [string, string];
}

/** A problem of one document, located by pointer. */
export interface LocalProblem {
  pointer: string;
  message: string;
  severity: 'error' | 'warning';
}

export type AnyResource = { [K in ResourceKind]: Resource<K> }[ResourceKind];
