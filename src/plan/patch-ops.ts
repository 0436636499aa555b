import type { Operation } from 'fast-json-patch';
import { escapeSegment } from '../shared/pointer.ts';

/**
 * What `compare({}, value)` gives (one add per member, in member order, undefined members left out) without
 * its deep copy of every value: the ops share the values with the plan's `after`, which nothing changes once
 * the plan is made. For 1,000 creates the copies were a quarter of planning them.
 */
export function addAll(value: object): Operation[] {
  const ops: Operation[] = [];
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) ops.push({ op: 'add', path: `/${escapeSegment(k)}`, value: v });
  }
  return ops;
}
