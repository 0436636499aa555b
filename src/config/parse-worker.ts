// Worker-thread entry of parse-pool.ts: batches of files in, processFile's outputs out. Nothing else.
import { parentPort, workerData } from 'node:worker_threads';
import type { VariablePolicy } from './credentials.ts';
import type { Env } from './interpolate.ts';
import { processBatch, type BatchMessage } from './parse-pool.ts';

const { env, variables } = workerData as { env: Env; variables?: VariablePolicy };
parentPort?.on('message', (m: BatchMessage) => parentPort?.postMessage(processBatch(m, env, variables)));
