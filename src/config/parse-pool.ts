/**
 * Runs `processFile` over many files, on worker threads when there are enough files to pay for a worker's
 * start. `processFile` is pure and its result (resources and issues) is plain data,
 * so a worker's answer is the same as an in-process call.
 *
 * One worker per core, while this thread only hands out batches and collects answers. Letting this thread
 * parse too (`mainThread`) gives the same wall time (10,000 files, 2 cores) but 60-100 MiB more peak
 * memory: its heap grows with the parse garbage and is still that large when the plan is rendered.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Issue } from '../errors.ts';
import type { VariablePolicy } from './credentials.ts';
import type { Env } from './interpolate.ts';
import { desiredDigest } from '../plan/normalize.ts';
import type { DashboardSpec } from '../schema/kinds.ts';
import type { AnyResource } from '../model/resource.ts';
import { processFile } from './resources.ts';
import { textRowsOf, type TextRow } from './rows.ts';

export interface ParseJob {
  file: string;
  bytes: Uint8Array;
  isProjectFile: boolean;
}

/** What loading keeps of a file's result (a project file's Project document is read by loadProject). */
export interface ParseOutput {
  resources: AnyResource[];
  issues: Issue[];
  /**
   * With a marker tag, for a file without problems: per resource, the digest of a dashboard's normalized
   * form (`desiredDigest`), undefined for other kinds. Made where the file is parsed, so on worker threads
   * for a large project, instead of after the parse on this one.
   */
  digests?: Array<string | undefined>;
  /**
   * From a worker asked for them (`api`), for a file without problems whose documents JSON says exactly: the
   * resources as text rows (src/config/rows.ts), instead of `resources` and `digests`.
   */
  rows?: TextRow[];
}

export interface ParallelOptions {
  /** Worker threads; default one per core (none on one core). 0: this thread only. */
  workers?: number;
  /** Files to parse above which workers are used (default PARALLEL_MIN_FILES). */
  minFiles?: number;
  /** Whether this thread parses too, beside the workers (default false: see above). */
  mainThread?: boolean;
  /** The worker entry (tests swap in one that fails); default parse-worker next to this file. */
  workerUrl?: URL;
}

/**
 * Below this many files to parse, a worker costs more than it saves: it needs ~60 ms to load yaml and the
 * compiled schemas and ~250 ms of cold JIT before it parses at full speed. Measured on 2 cores: 300 files
 * no faster than in this thread, 1,000 files 1.4x, 10,000 1.7x.
 */
export const PARALLEL_MIN_FILES = 500;

/** A batch as sent to a worker: the files' bytes in one transferred buffer. */
export interface BatchMessage {
  id: number;
  files: string[];
  isProjectFile: boolean[];
  /** Start of each file in `bytes`, plus the end of the last one. */
  offsets: number[];
  bytes: Uint8Array;
  /** The project's marker tag: the outputs carry the dashboards' digests. */
  markerTag?: string;
  /** The project's observability API: the outputs are text rows, with the dashboards' facts under it. */
  api?: string;
}

export interface BatchAnswer {
  id: number;
  outputs: ParseOutput[];
}

/** The worker side: one batch in, its outputs out (in order). */
export function processBatch(m: BatchMessage, env: Env, variables?: VariablePolicy): BatchAnswer {
  const outputs = m.files.map((file, i) => {
    const r = processFile(file, m.bytes.subarray(m.offsets[i], m.offsets[i + 1]), env, {
      isProjectFile: m.isProjectFile[i] ?? false,
      ...(variables ? { variables } : {}),
    });
    const out = outputOf(r.resources, r.issues, m.markerTag);
    return m.api === undefined ? out : asRows(out, m.markerTag, m.api);
  });
  return { id: m.id, outputs };
}

/** A worker's output as text rows where it can be (see ParseOutput.rows). */
function asRows(out: ParseOutput, markerTag: string | undefined, api: string): ParseOutput {
  if (out.issues.length > 0) return out;
  const rows = textRowsOf(out.resources, markedDigests(out, markerTag), api);
  return rows ? { resources: [], issues: [], rows } : out;
}

/** An output's digests as the cache keeps them: [marker tag, digest] per dashboard, undefined for the rest. */
export function markedDigests(out: ParseOutput, markerTag: string | undefined): Array<[string, string] | undefined> {
  return out.resources.map((r, k) => {
    const d = out.digests?.[k];
    return r.kind === 'Dashboard' && markerTag !== undefined && d !== undefined ? [markerTag, d] : undefined;
  });
}

function inProcess(job: ParseJob, env: Env, variables?: VariablePolicy, markerTag?: string): ParseOutput {
  const r = processFile(job.file, job.bytes, env, { isProjectFile: job.isProjectFile, ...(variables ? { variables } : {}) });
  return outputOf(r.resources, r.issues, markerTag);
}

function outputOf(resources: AnyResource[], issues: Issue[], markerTag: string | undefined): ParseOutput {
  if (markerTag === undefined || issues.length > 0) return { resources, issues };
  const digests = resources.map((r) => (r.kind === 'Dashboard' ? desiredDigest(r.doc.spec as DashboardSpec, markerTag) : undefined));
  return { resources, issues, digests };
}

/**
 * Processes every job and returns the outputs in job order, and how many workers answered. Above
 * `minFiles` jobs, batches go to the workers (and this thread, with `mainThread`), first come first
 * served. If a worker fails to start or dies, what it had not answered is processed in this thread, so a
 * bug in processFile surfaces as it would without workers. (Under tsx on Node 20 a worker cannot load the
 * .ts entry and everything runs here: tests and benchmarks point `workerUrl` at the built one.)
 */
export async function processFiles(
  jobs: readonly ParseJob[],
  env: Env,
  opts: ParallelOptions = {},
  variables?: VariablePolicy,
  markerTag?: string,
  /** Ask the workers for text rows, with the dashboards' facts under this API (what this thread does with them: read-files.ts). */
  api?: string,
): Promise<{ outputs: ParseOutput[]; workers: number }> {
  const mainThread = opts.mainThread ?? false;
  const cores = availableParallelism();
  const count = Math.min(opts.workers ?? (cores > 1 ? cores : 0), Math.ceil(jobs.length / 50));
  if (jobs.length <= (opts.minFiles ?? PARALLEL_MIN_FILES) || count < 1) {
    return { outputs: jobs.map((j) => inProcess(j, env, variables, markerTag)), workers: 0 };
  }
  const outputs: Array<ParseOutput | undefined> = new Array(jobs.length);
  // Batches small enough that the threads finish together, large enough that messages stay few.
  const size = Math.max(8, Math.min(64, Math.ceil(jobs.length / ((count + 1) * 8))));
  let next = 0;
  const take = (): [number, number] | undefined => {
    if (next >= jobs.length) return undefined;
    const start = next;
    next = Math.min(jobs.length, start + size);
    return [start, next];
  };

  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const url = opts.workerUrl ?? new URL(`./parse-worker${ext}`, import.meta.url);
  const workers: Worker[] = [];
  const dead = new Set<Worker>();
  const answered = new Set<Worker>();
  const lanes: Array<Promise<void>> = [];
  try {
    for (let w = 0; w < count; w++) {
      const worker = new Worker(url, { workerData: { env: { ...env }, variables } });
      // A dead worker answers nothing: its lanes must stop instead of waiting for it.
      worker.once('exit', () => dead.add(worker));
      worker.once('error', () => dead.add(worker));
      workers.push(worker);
      // Several batches in flight per worker, so it never waits for this thread to hand it the next one:
      // this thread works on the live list meanwhile (parsing 28 MB at 10,000 dashboards blocks it ~0.2 s).
      const lane = async () => {
        for (let b = dead.has(worker) ? undefined : take(); b; b = dead.has(worker) ? undefined : take()) {
          const [start, end] = b;
          const answer = await roundTrip(worker, toMessage(++nextId, jobs.slice(start, end), markerTag, api));
          answer.forEach((o, k) => (outputs[start + k] = o));
          answered.add(worker);
        }
      };
      for (let l = 0; l < LANES; l++) lanes.push(lane());
    }
  } catch {
    // A worker that cannot start: the others and this thread do its share.
  }
  const lanesDone = Promise.allSettled(lanes);
  if (mainThread) {
    for (let b = take(); b; b = take()) {
      for (let i = b[0]; i < b[1]; i++) outputs[i] = inProcess(jobs[i]!, env, variables, markerTag);
      // Let the workers' answers in, so they get their next batch while this thread works on its own.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await lanesDone;
  for (const w of workers) void w.terminate();
  for (let i = 0; i < jobs.length; i++) outputs[i] ??= inProcess(jobs[i]!, env, variables, markerTag);
  return { outputs: outputs as ParseOutput[], workers: answered.size };
}

let nextId = 0;

/**
 * Batches in flight per worker: ~0.1 s of parsing at 64 files each. Measured cold at 10,000 files (2 cores):
 * 2 lanes 3.43 s, 4 3.35 s, 6 3.15 s, 12 3.23 s (median of 3; noisy).
 */
const LANES = 8;

function toMessage(id: number, jobs: readonly ParseJob[], markerTag: string | undefined, api: string | undefined): BatchMessage {
  const offsets = [0];
  for (const j of jobs) offsets.push(offsets[offsets.length - 1]! + j.bytes.byteLength);
  const bytes = new Uint8Array(offsets[offsets.length - 1]!);
  jobs.forEach((j, i) => bytes.set(j.bytes, offsets[i]));
  return {
    id,
    files: jobs.map((j) => j.file),
    isProjectFile: jobs.map((j) => j.isProjectFile),
    offsets,
    bytes,
    ...(markerTag !== undefined ? { markerTag } : {}),
    ...(api !== undefined ? { api } : {}),
  };
}

function roundTrip(worker: Worker, message: BatchMessage): Promise<ParseOutput[]> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (m: BatchAnswer) => {
      if (m.id !== message.id) return;
      done();
      resolve(m.outputs);
    };
    const onError = (e: unknown) => {
      done();
      reject(e);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`parse worker exited with code ${code}`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(message, [message.bytes.buffer as ArrayBuffer]);
  });
}
