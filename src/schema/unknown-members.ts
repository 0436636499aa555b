/**
 * Members of a dashboard's tile configs and filters that steward's schema does not know. The services' specs
 * leave their objects open (no `additionalProperties: false`), so a live dashboard may carry such members at
 * any depth (a newer server's, or a mock's): import leaves them out of the file it writes, and plan leaves them
 * out of what it compares (DESIGN.md, Plan: "fields steward does not model ... left out"). Pure.
 */
import { pointerSegments } from '../shared/pointer.ts';
import { validateKind } from './validator.ts';

/** Where under `spec` unknown members are looked for: a tile's `config` and a dashboard's `filters`. */
const OPEN_PLACES = /^\/spec\/(tiles\/\d+\/config|filters\/\d+)\//;

/**
 * Deletes from `doc` (a Dashboard document, changed in place) every member under a tile's config or a filter
 * that the schema reports as unknown, calling `onDrop` with its path under `spec` (`['tiles', '0', 'config',
 * 'onClick', 'extra']`). A member is unknown when every variant that reports unknown members at that place
 * reports it (a `oneOf` variant that knows it does not count).
 */
export function dropUnknownMembers(doc: Record<string, unknown>, onDrop: (path: string[]) => void): void {
  for (let round = 0; round < 20; round++) {
    const unknown = validateKind('Dashboard', doc).filter((p) => p.atKey && /^unknown key/.test(p.message) && OPEN_PLACES.test(p.pointer));
    if (unknown.length === 0) return;
    const count = new Map<string, number>();
    for (const p of unknown) count.set(p.pointer, (count.get(p.pointer) ?? 0) + 1);
    const most = new Map<string, number>();
    for (const [ptr, n] of count) {
      const parent = ptr.slice(0, ptr.lastIndexOf('/'));
      most.set(parent, Math.max(most.get(parent) ?? 0, n));
    }
    let dropped = 0;
    for (const [ptr, n] of count) {
      const cut = ptr.lastIndexOf('/');
      if (n < most.get(ptr.slice(0, cut))!) continue;
      const segs = pointerSegments(ptr);
      const key = segs.pop()!;
      let holder: unknown = doc;
      for (const seg of segs) holder = holder && typeof holder === 'object' ? (holder as Record<string, unknown>)[seg] : undefined;
      if (!holder || typeof holder !== 'object' || !Object.hasOwn(holder, key)) continue;
      delete (holder as Record<string, unknown>)[key];
      dropped++;
      onDrop([...segs.slice(1), key]);
    }
    if (dropped === 0) return;
  }
}
