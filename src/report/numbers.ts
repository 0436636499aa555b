/**
 * The numbers a server sends that the backup checks compute with: a backup's `sizeInBytes` (size jumps, the
 * charts) and `durationInSeconds` (slow backups, when a backup started or ended). The API's schema says only
 * "number", so a size of -75,000,000,000 or 1.5 bytes, or a duration of -60 s, passed the client's check and
 * became findings that mislead (a size change of -115.4%, then one of +32,562,160,970,033% against 2 B). A
 * hostile or buggy server must not produce a finding: such a member is malformed like one of the wrong type
 * (`MalformedItem`, src/clients/cloud-items.ts). The backup is kept without it and reported as a
 * `read.malformed-item` (`MalformedRead.problems` names the member and what was sent), and the review is
 * incomplete (exit 1). Pure.
 */
import type { ItemProblemSent, MalformedItem } from '../clients/cloud-items.ts';
import { isObject } from '../shared/object.ts';
import type { ReadItem, ReadList } from './types.ts';

/** A size in bytes the checks can use: a whole number from 0 to 2^53 - 1 (past it, a number has no exact units). */
export function isByteCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/**
 * The longest duration believed: 8.64e12 s, the span a Date holds either side of the epoch. Past it a number
 * is no time span: 1e308 s passed as finite, its one decimal (round1) was Infinity, written as null in
 * report.json and shown as "null – 4.7e+303h" in report.md (red team).
 */
export const MAX_SECONDS = 8.64e12;

/** A duration in seconds the checks can use: a finite number from 0 to MAX_SECONDS (fractions are fine). */
export function isSeconds(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_SECONDS;
}

const BACKUP_NUMBERS: readonly { member: string; ok: (v: unknown) => boolean; message: string }[] = [
  { member: 'sizeInBytes', ok: isByteCount, message: 'must be a whole number of bytes, 0 or more' },
  { member: 'durationInSeconds', ok: isSeconds, message: 'must be a number of seconds, 0 or more' },
];

/**
 * What is wrong with a backup's numbers, one problem per member, in the client's shape. Only numbers are
 * judged: a member that is absent, or not a number at all (the schema's to say), is none of these.
 */
export function backupNumberProblems(item: unknown): ItemProblemSent[] {
  if (!isObject(item)) return [];
  const out: ItemProblemSent[] = [];
  for (const n of BACKUP_NUMBERS) {
    const v = item[n.member];
    if (typeof v === 'number' && !n.ok(v)) {
      const message = n.member === 'durationInSeconds' && Number.isFinite(v) && v > MAX_SECONDS ? `${n.message}, at most ${MAX_SECONDS}` : n.message;
      out.push({ field: n.member, pointer: `/${n.member}`, message, missing: false, value: v });
    }
  }
  return out;
}

/**
 * A list of backups as read, with every backup whose numbers are malformed kept without them and named in
 * `malformed`: its problems join those the client found in the same backup (one record per item), or make a
 * new record at its place in the list the server sent. The input is not changed; a list that is not one is
 * returned as it is (the reader says so).
 */
export function screenBackupList<T>(list: ReadList<T>): ReadList<T> {
  if (!isObject(list) || !Array.isArray(list.items)) return list;
  const bad = Array.isArray(list.malformed) ? list.malformed : [];
  const places = sentPlaces(list.items.length, bad);
  const byIndex = new Map(bad.filter((m) => isObject(m) && typeof m.index === 'number').map((m) => [m.index!, m] as const));
  const changed = new Map<MalformedItem, MalformedItem>();
  const added: MalformedItem[] = [];
  let any = false;
  const items = list.items.map((raw, i) => {
    const problems = backupNumberProblems(raw);
    if (problems.length === 0) return raw;
    any = true;
    const sent = places[i]!;
    const m = byIndex.get(sent);
    if (m) changed.set(m, { ...m, problems: [...m.problems, ...problems] });
    else added.push({ index: sent, item: raw, problems, kept: true });
    return without(raw as Record<string, unknown>, problems) as T;
  });
  if (!any) return list;
  const malformed = [...bad.map((m) => changed.get(m) ?? m), ...added].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return { ...list, items, malformed };
}

/** A backup read on its own (the newest, by id), screened as `screenBackupList` screens a list's. */
export function screenBackupItem<T>(got: ReadItem<T>): ReadItem<T> {
  if (!isObject(got)) return got;
  const problems = backupNumberProblems(got.item);
  if (problems.length === 0) return got;
  const m = got.malformed;
  const malformed: MalformedItem = m ? { ...m, problems: [...m.problems, ...problems] } : { index: undefined, item: got.item, problems, kept: true };
  return { item: without(got.item as Record<string, unknown>, problems) as T, malformed };
}

function without(item: Record<string, unknown>, problems: readonly ItemProblemSent[]): Record<string, unknown> {
  const out = { ...item };
  for (const p of problems) delete out[p.field];
  return out;
}

/**
 * Where each item of a client's list was in the list the server sent (0-based). The list holds the items in
 * the order sent, without those left out whole, so the n-th item is the n-th sent that was not left out. A
 * looser reader's list (its malformed records naming no place) is read as sent.
 */
export function sentPlaces(count: number, bad: readonly MalformedItem[]): number[] {
  const leftOut = new Set<number>();
  for (const m of bad) if (isObject(m) && typeof m.index === 'number' && !m.kept) leftOut.add(m.index);
  const out: number[] = [];
  for (let sent = 0; out.length < count; sent++) if (!leftOut.has(sent)) out.push(sent);
  return out;
}
