// Worker-thread entry of parse-pool.ts: the shared jobs in, each batch's outputs out, then "done". Nothing else.
import { parentPort, workerData } from 'node:worker_threads';
import type { VariablePolicy } from './credentials.ts';
import type { Env } from './interpolate.ts';
import { processShared, type SharedJobs } from './parse-pool.ts';

const { env, variables } = workerData as { env: Env; variables?: VariablePolicy };
parentPort?.on('message', (m: SharedJobs) => processShared(m, env, variables, (a) => parentPort?.postMessage(a)));
