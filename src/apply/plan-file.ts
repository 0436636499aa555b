/**
 * Saved plans (`plan --out`, `apply FILE`): checked against schemas/plan.schema.json, bound by a digest to
 * the project, environment and server that produced them, and compared with a plan recomputed from the
 * files and live state before apply writes anything.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep, win32 } from 'node:path';
import type { ErrorObject } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { CliError } from '../errors.ts';
import { readRegularFile } from '../shared/files.ts';
import { mib, parseRoom } from '../shared/json.ts';
import { canonicalJson } from '../plan/fingerprint.ts';
import type { Plan, PlanBinding, PlanItem } from '../plan/types.ts';
import { redact } from '../clients/redact.ts';

/** The first problem of a value that should be a saved plan, as `pointer: message`; undefined when it is one. */
export async function planShapeProblem(value: unknown): Promise<string | undefined> {
  // Checked without recursion before anything walks it (the schema, the digest, the comparison).
  if (depthOf(value) > MAX_PLAN_DEPTH) return `the top level nests deeper than ${MAX_PLAN_DEPTH} levels`;
  // The version first: a plan from another steward fails the schema somewhere deep, and that is not the news.
  const version = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { formatVersion?: unknown }).formatVersion : 1;
  if (version !== undefined && version !== 1) {
    return `formatVersion is ${shownValue(version)}; this steward reads plans of formatVersion 1 (was it made by another version?)`;
  }
  // Compiled ahead of time from schemas/plan.schema.json (scripts/generate.ts).
  const validate = (await import('./plan-validator.gen.ts')).Plan as ((v: unknown) => boolean) & { errors?: ErrorObject[] | null };
  if (validate(value)) return undefined;
  const e = (validate.errors ?? []).find((x) => x.keyword !== 'if') ?? validate.errors?.[0];
  if (!e) return 'does not match the plan schema';
  const where = e.instancePath === '' ? 'the top level' : e.instancePath.slice(1).replace(/\//g, '.');
  const what =
    e.keyword === 'required'
      ? `must have ${(e.params as { missingProperty: string }).missingProperty}`
      : e.keyword === 'additionalProperties'
        ? `has an unknown member ${(e.params as { additionalProperty: string }).additionalProperty}`
        : e.keyword === 'enum'
          ? `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map(shownValue).join(', ')}; found ${shownValue(valueAt(value, e.instancePath))}`
          : e.keyword === 'const'
            ? `must be ${shownValue((e.params as { allowedValue: unknown }).allowedValue)}; found ${shownValue(valueAt(value, e.instancePath))}`
            : (e.message ?? 'is invalid');
  return `${where} ${what}`;
}

/** The value at a JSON Pointer (the plan validator is compiled without ajv's verbose errors, which carry it). */
function valueAt(root: unknown, pointer: string): unknown {
  let v = root;
  for (const seg of pointer.split('/').slice(1)) {
    const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    v = v !== null && typeof v === 'object' && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;
  }
  return v;
}

/** A value from the file, short: the message is one line (the renderer escapes what a terminal would run). */
function shownValue(v: unknown): string {
  // JSON.stringify says null of a number JSON.parse read as infinite (1e999): shown as what it is.
  const text = typeof v === 'number' && !Number.isFinite(v) ? `${v} (a number too large)` : (JSON.stringify(v) ?? String(v));
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * A plan file as `steward plan --out` writes it, checked against the plan schema before anything reads it
 * (`apply FILE` and `show FILE` alike: a hand-edited plan is untrusted input); one clear line when it is not.
 */
export async function readPlanFile(path: string, shown: string): Promise<Plan> {
  let bytes: Buffer;
  try {
    // A regular file of a bounded size: /dev/zero would read until memory ran out, a fifo would hang.
    bytes = readRegularFile(path, MAX_PLAN_BYTES);
    if (bytes.length > MAX_PLAN_BYTES)
      throw Object.assign(new Error(`larger than ${MAX_PLAN_BYTES / 1024 / 1024} MiB, more than any plan steward writes`), { code: 'EFBIG' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'ENOTREG' || code === 'EISDIR' ? 'not a regular file' : (e as Error).message;
    throw new CliError(`cannot read plan ${shown}: ${why}`, { code: 'config', cause: e });
  }
  // Counted before JSON.parse, as a response body is: 192 MiB of `{},` (well within the size bound) held show
  // and apply six minutes, then Node stopped out of heap with a native stack trace (red team, round 16).
  const room = parseRoom(bytes);
  if (room) {
    throw new CliError(
      `cannot read plan ${shown}: its ${mib(bytes.length)} hold ${room.values.toLocaleString('en-US')} JSON values or more, which would take about ${mib(room.need)} to read, more than the ${mib(room.free)} this process has left (Node's heap limit; NODE_OPTIONS=--max-old-space-size raises it)`,
      { code: 'config' },
    );
  }
  const text = planText(bytes);
  let plan: unknown;
  try {
    plan = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${shown} is not a steward plan: not valid JSON (${(e as Error).message}); make one with \`steward plan --out ${shown}\``, {
      code: 'config',
      cause: e,
    });
  }
  const problem = await planShapeProblem(plan);
  if (problem !== undefined) {
    throw new CliError(`${shown} is not a steward plan (${problem}); make one with \`steward plan --out ${shown}\``, { code: 'config' });
  }
  return plan as Plan;
}

/**
 * A plan file's text. `steward plan --out` writes UTF-8 without a byte-order mark, but a plan that passed through
 * an editor or a Windows shell may carry one (Notepad's UTF-8 BOM; Windows PowerShell 5's `>` writes UTF-16LE):
 * the mark says how to read the bytes and is not part of the JSON.
 */
function planText(bytes: Buffer): string {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  // TextDecoder drops a leading byte-order mark of its encoding (ignoreBOM: false).
  return new TextDecoder(encoding).decode(bytes);
}

/** The longest text Node can hold in one string is about 512 MiB: a plan file is read whole into one. */
const MAX_PLAN_BYTES = 500 * 1024 * 1024;

/** Deeper than any plan steward writes (a dashboard body is about 10 levels below the top). */
const MAX_PLAN_DEPTH = 64;

function depthOf(root: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > MAX_PLAN_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/** Items as they are bound: what the service said of them (plan --server-validate) is advice, not bound. */
function boundItems(items: readonly PlanItem[]): unknown[] {
  return items.map((i) => {
    const { serverValidation: _v, ...rest } = i;
    return rest;
  });
}

/**
 * sha256 over the items and the binding (project, file, environment, server, options): of the text
 * `canonicalJson({ items: boundItems(items), binding })`, hashed item by item rather than made whole (10,000
 * items: one string of several MiB, and its garbage). `test/apply/plan-file.test.ts` holds it to that text.
 */
export function planDigest(items: readonly PlanItem[], binding: PlanBinding): string {
  const h = createHash('sha256');
  // Keys sorted: "binding" before "items".
  h.update(`{"binding":${canonicalJson(binding)},"items":[`);
  items.forEach((item, i) => {
    // A member that is undefined is not written: an item without a server validation needs no copy.
    const bound = item.serverValidation === undefined ? item : boundItems([item])[0];
    h.update((i === 0 ? '' : ',') + canonicalJson(bound));
  });
  h.update(']}');
  return `sha256:${h.digest('hex')}`;
}

/**
 * The server as the binding names it: the observability URL with any `user:password@` and credential query
 * parameters (`?token=`, `api_key=`) masked. The plan file is an artifact and `--format json` goes to CI logs;
 * apply compares the same masked form, so a plan still binds to its server.
 */
export function bindingServer(url: string): string {
  return redact(url);
}

/**
 * The project file as the binding names it: relative to the repository root (the nearest folder above
 * with `.git`), so that CI jobs with different checkout paths agree; the absolute path outside a repository.
 */
export function bindingFile(projectFile: string): string {
  let dir = dirname(projectFile);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return relative(dir, projectFile).split(sep).join('/');
    const up = dirname(dir);
    if (up === dir) return projectFile;
    dir = up;
  }
}

/** Ids for new dashboard filters, derived from the plan's seed: the same inputs give the same ids. */
export function seededIds(seed: string): () => string {
  let n = 0;
  return () => createHash('sha256').update(`${seed}:${n++}`).digest('hex').slice(0, 24);
}

/**
 * Checks a saved plan against what apply is about to do, before any write: its digest, then what it was
 * made for. Throws a CliError naming the first difference.
 */
export function checkBinding(plan: Plan, here: Omit<PlanBinding, 'idSeed' | 'options'>): void {
  const b = plan.binding!;
  if (planDigest(plan.items, b) !== plan.digest) {
    throw new PlanMismatchError('plan was changed after it was made: its digest does not match its items; make it again with `steward plan --out`');
  }
  if (b.project !== here.project || b.file !== here.file) {
    throw new PlanMismatchError(
      `plan was made for another project (${b.project || '(unnamed)'}, ${b.file}), not ${here.project || '(unnamed)'} (${here.file})`,
    );
  }
  if ((b.env ?? undefined) !== (here.env ?? undefined)) {
    throw new PlanMismatchError(`plan was made for ${b.env ? `--env ${b.env}` : 'no --env'}, not ${here.env ? `--env ${here.env}` : 'no --env'}`);
  }
  if (b.server !== here.server) {
    throw new PlanMismatchError(`plan was made for another server (${b.server}), not ${here.server}`);
  }
  // Paths are saved relative to the project folder, inside it (a plan narrowed to a path outside has nothing
  // to apply, and is never saved). One that leaves it was written by hand: refused before anything looks at
  // the path, so that the answer does not say whether it exists.
  if (b.options.paths.some((p) => isAbsolute(p) || win32.isAbsolute(p) || p.split(/[\\/]/).includes('..'))) {
    throw new PlanMismatchError('plan names a path outside its project (binding.options.paths); make it again with `steward plan --out`');
  }
}

/** The first difference between the saved items and those recomputed from the files and live state. */
export function firstDifference(saved: readonly PlanItem[], fresh: readonly PlanItem[]): string | undefined {
  const a = boundItems(saved) as Array<Record<string, unknown>>;
  const b = boundItems(fresh) as Array<Record<string, unknown>>;
  const key = (i: Record<string, unknown>) => `${String(i['kind'])} ${String(i['name'])}${i['id'] !== undefined ? ` (${String(i['id'])})` : ''}`;
  const freshByKey = new Map(b.map((i) => [key(i), i]));
  const savedKeys = new Set(a.map(key));
  for (const i of a) {
    const f = freshByKey.get(key(i));
    if (!f) return `the plan has ${key(i).toLowerCase()}, which the files do not give`;
    if (canonicalJson(i) !== canonicalJson(f)) {
      const fields = [...new Set([...Object.keys(i), ...Object.keys(f)])].filter((k) => canonicalJson(i[k]) !== canonicalJson(f[k])).sort();
      return `${key(i).toLowerCase()} differs in ${fields.join(', ')}`;
    }
  }
  for (const i of b) if (!savedKeys.has(key(i))) return `the files give ${key(i).toLowerCase()}, which the plan lacks`;
  if (canonicalJson(a) !== canonicalJson(b)) return 'the items are in another order';
  return undefined;
}

export class PlanMismatchError extends CliError {
  constructor(message: string) {
    super(message, { code: 'stale-plan' });
  }
}

/** metadata.name of the Project document in the project file ('' when it has none). */
export async function projectName(projectFile: string): Promise<string> {
  // uniqueKeys: false: the file was loaded (duplicates refused) before; the parser's own check is quadratic.
  for (const doc of parseAllDocuments(readFileSync(projectFile, 'utf8'), { uniqueKeys: false })) {
    const v = doc.toJS({ maxAliasCount: 100 }) as { kind?: unknown; metadata?: { name?: unknown } } | null;
    if (v && v.kind === 'Project') return typeof v.metadata?.name === 'string' ? v.metadata.name : '';
  }
  return '';
}
