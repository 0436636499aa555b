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
}

export type AnyResource = { [K in ResourceKind]: Resource<K> }[ResourceKind];
