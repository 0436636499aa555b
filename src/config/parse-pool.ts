/**
 * Runs `processFile` over many files, on worker threads when there are enough of them to pay for the
 * workers' start (about 60 ms each, loading yaml and the compiled schemas). `processFile` is pure and its
 * result (resources and issues) is plain data, so a worker's answer is the same as an in-process call.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Issue } from '../errors.ts';
import type { Env } from './interpolate.ts';
import { processFile, type AnyResource } from './resources.ts';

export interface ParseJob {
  file: string;
  bytes: Uint8Array;
  isProjectFile: boolean;
}

/** What loading keeps of a file's result (a project file's Project document is read by loadProject). */
export interface ParseOutput {
  resources: AnyResource[];
  issues: Issue[];
}

export interface ParallelOptions {
  /** Worker threads; default: one per core (0 or 1 core: no workers). */
  workers?: number;
  /** Files to parse above which workers are used (default 200). */
  minFiles?: number;
}

/** Below this many files to parse, workers cost more to start than they save. */
export const PARALLEL_MIN_FILES = 200;

/** A batch as sent to a worker: the files' bytes in one transferred buffer. */
export interface BatchMessage {
  files: string[];
  isProjectFile: boolean[];
  /** Start of each file in `bytes`, plus the end of the last one. */
  offsets: number[];
  bytes: Uint8Array;
}

/** The worker side: one batch in, its outputs out (in order). */
export function processBatch(m: BatchMessage, env: Env): ParseOutput[] {
  return m.files.map((file, i) => {
    const r = processFile(file, m.bytes.subarray(m.offsets[i], m.offsets[i + 1]), env, { isProjectFile: m.isProjectFile[i] ?? false });
    return { resources: r.resources, issues: r.issues };
  });
}

function inProcess(job: ParseJob, env: Env): ParseOutput {
  const r = processFile(job.file, job.bytes, env, { isProjectFile: job.isProjectFile });
  return { resources: r.resources, issues: r.issues };
}

/**
 * Processes every job and returns the outputs in job order. Workers are used for more than `minFiles`
 * jobs; if one fails to start or dies, what it had not answered is processed in this thread, so a bug in
 * processFile surfaces exactly as it would without workers.
 */
export async function processFiles(jobs: readonly ParseJob[], env: Env, opts: ParallelOptions = {}): Promise<{ outputs: ParseOutput[]; workers: number }> {
  const count = Math.min(opts.workers ?? defaultWorkers(), Math.ceil(jobs.length / 50));
  if (jobs.length <= (opts.minFiles ?? PARALLEL_MIN_FILES) || count < 1) {
    return { outputs: jobs.map((j) => inProcess(j, env)), workers: 0 };
  }
  const outputs: Array<ParseOutput | undefined> = new Array(jobs.length);
  // Batches small enough that the workers finish together, large enough that messages stay few.
  const batch = Math.max(8, Math.min(100, Math.ceil(jobs.length / (count * 8))));
  let next = 0;
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const url = new URL(`./parse-worker${ext}`, import.meta.url);
  const workers: Worker[] = [];
  try {
    for (let w = 0; w < count; w++) workers.push(new Worker(url, { workerData: { env: { ...env } } }));
    await Promise.all(
      workers.map(async (worker) => {
        while (next < jobs.length) {
          const start = next;
          next = Math.min(jobs.length, start + batch);
          const answer = await roundTrip(worker, toMessage(jobs.slice(start, next)));
          answer.forEach((o, k) => (outputs[start + k] = o));
        }
      }),
    );
  } catch {
    // Finished below, in this thread.
  } finally {
    for (const w of workers) void w.terminate();
  }
  for (let i = 0; i < jobs.length; i++) outputs[i] ??= inProcess(jobs[i]!, env);
  return { outputs: outputs as ParseOutput[], workers: count };
}

function defaultWorkers(): number {
  const cores = availableParallelism();
  return cores > 1 ? cores : 0;
}

function toMessage(jobs: readonly ParseJob[]): BatchMessage {
  const offsets = [0];
  for (const j of jobs) offsets.push(offsets[offsets.length - 1]! + j.bytes.byteLength);
  const bytes = new Uint8Array(offsets[offsets.length - 1]!);
  jobs.forEach((j, i) => bytes.set(j.bytes, offsets[i]));
  return { files: jobs.map((j) => j.file), isProjectFile: jobs.map((j) => j.isProjectFile), offsets, bytes };
}

function roundTrip(worker: Worker, message: BatchMessage): Promise<ParseOutput[]> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (m: ParseOutput[]) => {
      done();
      resolve(m);
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
