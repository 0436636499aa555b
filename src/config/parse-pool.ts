/**
 * Runs `processFile` over many files, on worker threads when there are enough files to pay for a worker's
 * start. `processFile` is pure and its result (resources and issues) is plain data,
 * so a worker's answer is the same as an in-process call.
 *
 * One worker per core. The files' bytes go to every worker once, in one SharedArrayBuffer, and each worker
 * takes the next batch from a shared counter (Atomics) until none is left: no batch waits for this thread,
 * which meanwhile reads and checks the live list (a cold plan of 10,000 dashboards blocks it ~0.5 s in one
 * JSON.parse and check; handing out batches from here, the workers ran dry in that time, ~0.15 s each).
 * Letting this thread parse too (`mainThread`) gives the same wall time (10,000 files, 2 cores) but 60-100
 * MiB more peak memory: its heap grows with the parse garbage and is still that large when the plan is
 * rendered.
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
  /**
   * Ctrl-C and SIGTERM (the run's signal): while the workers parse, this thread is free to see it, and the
   * workers are stopped. A file this thread parses itself cannot be interrupted until it is done.
   */
  signal?: AbortSignal;
  /** A file of this many bytes or more goes to a worker however few files there are (default BIG_FILE_BYTES). */
  bigFileBytes?: number;
}

/**
 * Below this many files to parse, a worker costs more than it saves: it needs ~60 ms to load yaml and the
 * compiled schemas and ~250 ms of cold JIT before it parses at full speed. Measured on 2 cores: 300 files
 * no faster than in this thread, 1,000 files 1.4x, 10,000 1.7x.
 */
export const PARALLEL_MIN_FILES = 500;

/**
 * A file this large may take `yaml` seconds (4 MiB of dense flow collections: ~20-40 s), and a thread parsing it
 * cannot see Ctrl-C or SIGTERM: so it is parsed on a worker, whatever the count, and this thread waits on the
 * run's signal. Below it a parse takes at most a few seconds; resource files are a few KB, so the worker's start
 * (~0.1-0.3 s) is paid only for the rare large one.
 */
export const BIG_FILE_BYTES = 256 * 1024;

/** The work of one processFiles call as every worker gets it: all the files' bytes, shared, and the batch counter. */
export interface SharedJobs {
  id: number;
  files: string[];
  isProjectFile: boolean[];
  /** Start of each file in `bytes`, plus the end of the last one. */
  offsets: number[];
  bytes: SharedArrayBuffer;
  /** One Int32: the next batch to take (Atomics.add); batches at or above `batches` do not exist. */
  next: SharedArrayBuffer;
  /** Files per batch, and how many batches there are. */
  size: number;
  batches: number;
  /** The project's marker tag: the outputs carry the dashboards' digests. */
  markerTag?: string;
  /** The project's observability API: the outputs are text rows, with the dashboards' facts under it. */
  api?: string;
}

/** A worker's messages: a batch's outputs (in file order), or that it found no batch left. */
export type WorkerAnswer = { id: number; batch: number; outputs: ParseOutput[] } | { id: number; done: true };

/** Takes the next batch of `jobs` (shared with the other threads), or undefined when none is left. */
function takeBatch(jobs: SharedJobs, counter: Int32Array): [batch: number, start: number, end: number] | undefined {
  const b = Atomics.add(counter, 0, 1);
  if (b >= jobs.batches) return undefined;
  const start = b * jobs.size;
  return [b, start, Math.min(jobs.files.length, start + jobs.size)];
}

/** The worker side: batches taken from the shared counter until none is left, each one's outputs posted. */
export function processShared(jobs: SharedJobs, env: Env, variables: VariablePolicy | undefined, post: (a: WorkerAnswer) => void): void {
  const counter = new Int32Array(jobs.next);
  const bytes = new Uint8Array(jobs.bytes);
  for (let t = takeBatch(jobs, counter); t; t = takeBatch(jobs, counter)) {
    const [batch, start, end] = t;
    const outputs: ParseOutput[] = [];
    for (let i = start; i < end; i++) {
      const r = processFile(jobs.files[i]!, bytes.subarray(jobs.offsets[i], jobs.offsets[i + 1]), env, {
        isProjectFile: jobs.isProjectFile[i] ?? false,
        ...(variables ? { variables } : {}),
      });
      const out = outputOf(r.resources, r.issues, jobs.markerTag);
      outputs.push(jobs.api === undefined ? out : asRows(out, jobs.markerTag, jobs.api));
    }
    post({ id: jobs.id, batch, outputs });
  }
  post({ id: jobs.id, done: true });
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

/** A parse worker, and when it ended (exit or error), watched from its start. */
interface ParseWorker {
  worker: Worker;
  ended: Promise<void>;
}

/** Starts `count` parse workers from `url`; returns those that started. */
function startParseWorkers(count: number, url: URL, env: Env, variables?: VariablePolicy): ParseWorker[] {
  const started: ParseWorker[] = [];
  try {
    for (let w = 0; w < count; w++) {
      const worker = new Worker(url, { workerData: { env: { ...env }, variables } });
      // Watched at once: a worker that dies before it is given work must not be waited for.
      const ended = new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.once('error', () => resolve());
      });
      started.push({ worker, ended });
    }
  } catch {
    // A worker that cannot start: the others and this thread do its share.
  }
  return started;
}

/**
 * Processes every job and returns the outputs in job order, and how many workers answered. Above
 * `minFiles` jobs, the batches go to the workers, each taking the next one as it finishes one (and this
 * thread too, with `mainThread`). If a worker fails to start or dies, what it had not answered is processed in
 * this thread, so a bug in processFile surfaces as it would without workers. (Under tsx on Node 20 a worker
 * cannot load the .ts entry and everything runs here: tests and benchmarks point `workerUrl` at the built one.)
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
  const big = jobs.some((j) => j.bytes.byteLength >= (opts.bigFileBytes ?? BIG_FILE_BYTES));
  // A big file gets its worker on one core too (there, for Ctrl-C to be seen, not for speed).
  const wanted = Math.min(opts.workers ?? (cores > 1 ? cores : big ? 1 : 0), Math.ceil(jobs.length / 50));
  if ((jobs.length <= (opts.minFiles ?? PARALLEL_MIN_FILES) && !big) || wanted < 1) {
    return { outputs: jobs.map((j) => inProcess(j, env, variables, markerTag)), workers: 0 };
  }
  opts.signal?.throwIfAborted();
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const pool = startParseWorkers(wanted, opts.workerUrl ?? new URL(`./parse-worker${ext}`, import.meta.url), env, variables);
  const count = pool.length;
  const outputs: Array<ParseOutput | undefined> = new Array(jobs.length);
  // Batches small enough that the threads finish together, large enough that messages stay few.
  const size = Math.max(8, Math.min(64, Math.ceil(jobs.length / ((count + 1) * 8))));
  const shared = sharedJobs(jobs, size, markerTag, api);
  const counter = new Int32Array(shared.next);
  const answered = new Array<boolean>(shared.batches).fill(false);
  const take = (batch: number, batchOutputs: readonly ParseOutput[]) => {
    batchOutputs.forEach((o, k) => (outputs[batch * size + k] = o));
    answered[batch] = true;
  };

  const helped = new Set<Worker>();
  // Each worker is done when it says no batch is left, or when it ends (what it took and did not answer
  // is done below).
  const finished = pool.map(
    ({ worker, ended }) =>
      new Promise<void>((resolve) => {
        void ended.then(resolve);
        worker.on('message', (m: WorkerAnswer) => {
          if (m.id !== shared.id) return;
          if ('done' in m) return resolve();
          take(m.batch, m.outputs);
          helped.add(worker);
        });
        try {
          worker.postMessage(shared);
        } catch {
          resolve();
        }
      }),
  );
  const stopAll = () => {
    for (const { worker } of pool) void worker.terminate();
  };
  // Ctrl-C or SIGTERM: the workers stop where they are, so each one's `ended` settles its wait at once, and
  // the run's reason (exit 130) is thrown below instead of their batches being done here.
  opts.signal?.addEventListener('abort', stopAll, { once: true });
  try {
    if (mainThread) {
      for (let t = takeBatch(shared, counter); t; t = takeBatch(shared, counter)) {
        opts.signal?.throwIfAborted();
        const [batch, start, end] = t;
        take(
          batch,
          jobs.slice(start, end).map((j) => inProcess(j, env, variables, markerTag)),
        );
        // Let the workers' answers in while this thread works on its own batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await Promise.all(finished);
  } finally {
    opts.signal?.removeEventListener('abort', stopAll);
    stopAll();
  }
  opts.signal?.throwIfAborted();
  // Batches a dead worker took and never answered, or that no thread took: this thread does them.
  for (let b = 0; b < shared.batches; b++) {
    if (answered[b]) continue;
    for (let i = b * size; i < Math.min(jobs.length, (b + 1) * size); i++) outputs[i] = inProcess(jobs[i]!, env, variables, markerTag);
  }
  return { outputs: outputs as ParseOutput[], workers: helped.size };
}

let nextId = 0;

/** Every job's bytes copied once into shared memory, with the batch counter at 0. */
function sharedJobs(jobs: readonly ParseJob[], size: number, markerTag: string | undefined, api: string | undefined): SharedJobs {
  const offsets = [0];
  for (const j of jobs) offsets.push(offsets[offsets.length - 1]! + j.bytes.byteLength);
  const bytes = new SharedArrayBuffer(offsets[offsets.length - 1]!);
  const view = new Uint8Array(bytes);
  jobs.forEach((j, i) => view.set(j.bytes, offsets[i]));
  return {
    id: ++nextId,
    files: jobs.map((j) => j.file),
    isProjectFile: jobs.map((j) => j.isProjectFile),
    offsets,
    bytes,
    next: new SharedArrayBuffer(4),
    size,
    batches: Math.ceil(jobs.length / size),
    ...(markerTag !== undefined ? { markerTag } : {}),
    ...(api !== undefined ? { api } : {}),
  };
}
