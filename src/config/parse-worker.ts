// Worker-thread entry of parse-pool.ts: batches of files in, processFile's outputs out. Nothing else.
import { parentPort, workerData } from 'node:worker_threads';
import type { Env } from './interpolate.ts';
import { processBatch, type BatchMessage } from './parse-pool.ts';

const { env, credentials } = workerData as { env: Env; credentials?: string[] };
parentPort?.on('message', (m: BatchMessage) => parentPort?.postMessage(processBatch(m, env, credentials)));
