/**
 * Conformance harness: mock servers generated from the vendors' OpenAPI files by @stoplight/prism-cli.
 *
 * - Runs the server `prism mock --errors` runs (prism-http-server, configured as the CLI configures it) inside
 *   the test process on 127.0.0.1, port 0, so a request that breaks the spec gets a 4xx problem answer
 *   instead of a mock answer. In process rather than spawned: prism's modules load once per test file
 *   (1.4 s of CPU each time), not once per server.
 * - Static answers (the spec's examples) or dynamic ones (json-schema-faker) with a seed. Prism reseeds its
 *   generator for every answer, so with one seed every request to one operation gets the same answer.
 *   json-schema-faker's options are global to a process, so each answer is generated under its own server's
 *   options (see `loadEngine`).
 * - Every violation prism logs is collected from its log records, so a test can assert there were none:
 *   `server.violations()` (request and response), `server.requestViolations()`. A violation record belongs
 *   to the request logged just before it: prism validates a request in one go after reading its body, so
 *   its records are not interleaved with another request's.
 * - Offline: prism only loads the document it is given (the vendored files have no remote `$ref`), and
 *   nothing in it calls out at run time. `stop()` closes the server.
 *
 * Spec files: the repository's copies of the vendored contracts (test/fixtures/contracts/openapi/, made by
 * test/helpers/prism-contracts.ts), so the suite runs where only the repository is (CI).
 *
 * Spec fixes: some vendored files need small changes before prism answers sensibly. They are applied in
 * memory, never to the shared contracts or the fixtures, and each is listed in
 * `SPEC_FIXES` with the reason (also in docs/profiles.md). All five files load unchanged in prism 5.14.2;
 * the two fixes are for ClickHouse Cloud's "X or null" and its string enum of a number (below).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTRACT_FILES, contractPath, type ContractName } from './prism-contracts.ts';

/**
 * The vendored spec files by a short name: the repository's copies (test/helpers/prism-contracts.ts says how
 * they are made from ../shared/contracts, and which are cut to the paths steward uses).
 */
export const SPECS: Record<ContractName, string> = Object.fromEntries(
  (Object.keys(CONTRACT_FILES) as ContractName[]).map((n) => [n, contractPath(n)]),
) as Record<ContractName, string>;
export type SpecName = ContractName;

/** An in-memory change to a spec document before prism loads it, and why. */
export interface SpecFix {
  /** One line: what it changes and why (shown in docs/profiles.md). */
  why: string;
  apply: (doc: any) => void;
}

/**
 * Fixes per vendored file name (basename). Keep each small and documented; a fix that changes what the
 * spec allows or refuses must say so.
 */
export const SPEC_FIXES: Record<string, SpecFix[]> = {};

/**
 * ClickHouse Cloud writes "X or null" as `oneOf: [{$ref: X}, {type: 'null'}]`, and most X (ClickPipeKafkaSource,
 * ClickPipeKafkaOffset, ...) have no `type`, so `null` matches both branches and `oneOf` refuses it: taken
 * literally, the spec forbids the `null` a real server sends for every source kind a pipe does not use, and
 * prism (which checks its own answers under --errors) fails with 500 on most generated ClickPipes. The intent
 * is plainly "X or null"; `anyOf` says exactly that. It loosens nothing else (a value matching X was already
 * allowed).
 */
const NULLABLE_ONE_OF: SpecFix = {
  why: 'oneOf [X, {type: null}] becomes anyOf: X has no type, so null matched both branches and the spec refused the null real servers send',
  apply: (doc) => {
    const walk = (o: unknown): void => {
      if (Array.isArray(o)) return o.forEach(walk);
      if (o === null || typeof o !== 'object') return;
      const r = o as Record<string, unknown>;
      if (Array.isArray(r['oneOf']) && (r['oneOf'] as { type?: unknown }[]).some((b) => b && b.type === 'null')) {
        r['anyOf'] = r['oneOf'];
        delete r['oneOf'];
      }
      Object.values(r).forEach(walk);
    };
    walk(doc);
  },
};
/**
 * ClickHouse Cloud's ClickStack select item says `level: {type: number, enum: ["0.5", "0.9", "0.95", "0.99"]}`:
 * strings in the enum of a number, so no value satisfies both. Prism answers the first enum value (a string)
 * and then refuses its own answer (500 on every dashboard list with a quantile), and it would refuse the number
 * a client sends (steward sends `level: 0.95`, as HyperDX's own spec defines it). The intent is the numbers;
 * each such enum becomes numbers. Nothing else changes.
 */
const NUMERIC_ENUM: SpecFix = {
  why: 'a number enum written as strings (ClickStack select `level`: "0.5", "0.9", ...) becomes numbers: no value satisfied both type and enum',
  apply: (doc) => {
    const walk = (o: unknown): void => {
      if (Array.isArray(o)) return o.forEach(walk);
      if (o === null || typeof o !== 'object') return;
      const r = o as Record<string, unknown>;
      if (r['type'] === 'number' && Array.isArray(r['enum']) && r['enum'].every((v) => typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)))) {
        r['enum'] = (r['enum'] as string[]).map(Number);
      }
      Object.values(r).forEach(walk);
    };
    walk(doc);
  },
};
SPEC_FIXES[CONTRACT_FILES['clickhouse-cloud-2026-04-14'].fixture] = [NULLABLE_ONE_OF, NUMERIC_ENUM];
SPEC_FIXES[CONTRACT_FILES['clickhouse-cloud-2026-07-31'].fixture] = [NULLABLE_ONE_OF, NUMERIC_ENUM];

export interface PrismOptions {
  /** A path to an OpenAPI file, or a key of SPECS. */
  spec: string;
  /** Generated answers (json-schema-faker) instead of the spec's examples. */
  dynamic?: boolean;
  /** Seed for dynamic answers (deterministic per seed). */
  seed?: string | number;
  /** Request/response violations produce error answers (default true). */
  errors?: boolean;
  /** Extra fixes for this server only, after SPEC_FIXES. */
  fixes?: SpecFix[];
  /**
   * json-schema-faker options for dynamic answers, e.g. `{ alwaysFakeOptionals: false, optionalsProbability:
   * 0.5 }` so optional members are sometimes left out (prism's default fills every one), or `{ requiredOnly:
   * true }`. What `x-json-schema-faker` in the document would set for the CLI; applied per answer here.
   */
  jsf?: Record<string, unknown>;
}

/** One request as prism logged it. */
export interface PrismRequest {
  method: string;
  path: string;
  /** Answer status once prism logged it (0: prism refused with a problem type PROBLEM_STATUS lacks). */
  status?: number;
  violations: PrismViolation[];
}

export interface PrismViolation {
  /** `request`: steward sent something the spec refuses; `response`: the mock answer broke the spec; `error`: prism refused the request (no route, security, ...). */
  kind: 'request' | 'response' | 'error';
  method: string;
  path: string;
  message: string;
}

export interface PrismServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  spec: string;
  dynamic: boolean;
  seed?: string | number;
  /** Fixes applied in memory for this server. */
  fixes: SpecFix[];
  /** Prism's log so far, a line per record (for a failing test's message). */
  output(): string;
  /** Requests since start (or the last clear()), in arrival order. */
  requests(): PrismRequest[];
  /** All violations since start (or the last clear()). */
  violations(): PrismViolation[];
  /** Only violations caused by what the client sent (or prism refusing it). */
  requestViolations(): PrismViolation[];
  /** Forget requests and violations seen so far (between tests sharing one server). */
  clear(): void;
  /** Resolves when prism has logged everything about the requests made so far. */
  settle(ms?: number): Promise<void>;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/**
 * Prism's own packages, loaded once per test process and only when a server starts (a file that only reads
 * SPEC_FIXES pays nothing). They are prism-cli's dependencies, so they are resolved from its folder: the same
 * copies `prism mock` runs, at the version package-lock.json pins.
 */
interface PrismEngine {
  getHttpOperationsFromSpec(spec: unknown): Promise<unknown[]>;
  createServer(operations: unknown[], opts: unknown): { listen(port: number, host: string): Promise<string>; close(): Promise<void> };
  createLogger(name: string, options: unknown, destination: { write(s: string): void }): unknown;
  /** The json-schema-faker prism-http generates with (one per process: its options are global). */
  jsf: { option(name: string, value?: unknown): unknown; generate: (...args: unknown[]) => unknown };
  /** Prism's generator options after its own reset, for every option a server may change. */
  jsfDefault(name: string): unknown;
}
let engine: PrismEngine | undefined;

/** Which server's request is being answered: its json-schema-faker options (see `startPrism`). */
const answering = new AsyncLocalStorage<Record<string, unknown>>();
/** Every option any server has set, so a server that sets fewer gets prism's defaults for the rest. */
const JSF_KEYS = new Set<string>();

function loadEngine(): PrismEngine {
  if (engine) return engine;
  const fromCli = createRequire(require.resolve('@stoplight/prism-cli/package.json'));
  const http = fromCli('@stoplight/prism-http');
  const fromHttp = createRequire(fromCli.resolve('@stoplight/prism-http'));
  const { JSONSchemaFaker: jsf } = fromHttp('json-schema-faker');
  const defaults: Record<string, unknown> = {};
  http.resetJSONSchemaGenerator();
  const original = jsf.generate;
  // json-schema-faker's options are process-wide, and several mock servers share this process: each answer
  // is generated under the options of the server answering it, set just before (generation is synchronous,
  // so no other answer can change them meanwhile). prism seeds `random` itself before each generation.
  jsf.generate = function (this: unknown, ...args: unknown[]) {
    const own = answering.getStore();
    if (own) for (const k of JSF_KEYS) jsf.option(k, k in own ? own[k] : defaults[k]);
    return original.apply(this, args);
  };
  engine = {
    getHttpOperationsFromSpec: http.getHttpOperationsFromSpec,
    createServer: fromCli('@stoplight/prism-http-server').createServer,
    createLogger: fromCli('@stoplight/prism-core').createLogger,
    jsf,
    jsfDefault: (k) => {
      if (!(k in defaults)) defaults[k] = jsf.option(k);
      return defaults[k];
    },
  };
  return engine;
}

/**
 * Operations per document and fixes, shared by the servers of one spec: prism compiles a validator per schema
 * object on first use and caches it by identity, so servers sharing the operations compile each schema once
 * (answering only reads them).
 */
const OPERATIONS = new Map<string, Promise<unknown[]>>();
function operationsFor(path: string, fixes: SpecFix[], doc: unknown): Promise<unknown[]> {
  const key = JSON.stringify([path, fixes.map((f) => f.why)]);
  let ops = OPERATIONS.get(key);
  if (!ops) OPERATIONS.set(key, (ops = loadEngine().getHttpOperationsFromSpec(doc)));
  return ops;
}

/** A log record of prism's (pino), as its logger writes it. */
interface PrismRecord {
  level: string;
  name?: string;
  msg?: string;
  input?: { method?: string; url?: { path?: string } };
}

const RE_PROBLEM_TYPE = /#([A-Z_]+)/;
const RE_RESPONDING = /Responding with "(\d+)"/;
const ANSI = /\u001b\[[0-9;]*m/g;

/** Resolves a SPECS key or a path and applies its fixes (and `extra`) to a fresh copy of the document. */
export function loadSpec(spec: string, extra: SpecFix[] = []): { path: string; doc: any; fixes: SpecFix[] } {
  const path = spec in SPECS ? SPECS[spec as SpecName] : spec;
  const fixes = [...(SPEC_FIXES[basename(path)] ?? []), ...extra];
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  for (const f of fixes) f.apply(doc);
  return { path, doc, fixes };
}

/** The same, written to a temp file (for a reader that needs a file); `cleanup` removes it. */
export function prepareSpec(spec: string, extra: SpecFix[] = []): { file: string; fixes: SpecFix[]; cleanup: () => void } {
  const { path, doc, fixes } = loadSpec(spec, extra);
  if (fixes.length === 0) return { file: path, fixes, cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'steward-prism-'));
  const file = join(dir, basename(path));
  writeFileSync(file, JSON.stringify(doc));
  return { file, fixes, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts a prism mock server for one spec, in this process, on 127.0.0.1 port 0; resolves when it listens.
 * It is the server `prism mock --errors [--dynamic --seed N]` runs (prism-http-server with the CLI's
 * configuration), minus the CLI's process and pretty-printer: the log records are read as prism writes them.
 */
export async function startPrism(opts: PrismOptions): Promise<PrismServer> {
  const prism = loadEngine();
  const jsf = opts.jsf ?? {};
  for (const k of Object.keys(jsf)) {
    prism.jsfDefault(k);
    JSF_KEYS.add(k);
  }
  const { path, doc, fixes } = loadSpec(opts.spec, opts.fixes ?? []);
  let output = '';
  let requests: PrismRequest[] = [];
  let lastLine = Date.now();
  const onRecord = (r: PrismRecord): void => {
    lastLine = Date.now();
    const msg = (r.msg ?? '').replace(ANSI, '');
    const method = (r.input?.method ?? '').toUpperCase();
    const reqPath = r.input?.url?.path ?? '';
    output += `[${r.name ?? ''}]${r.input ? ` ${method} ${reqPath}` : ''} ${r.level} ${msg}\n`;
    if (r.name === 'HTTP SERVER' && msg === 'Request received') {
      requests.push({ method, path: reqPath, violations: [] });
      // The rest of this request's handling (prism's generation included) runs in this async context.
      answering.enterWith(jsf);
    } else if (r.name === 'HTTP SERVER' && r.level === 'error' && msg.startsWith('Request terminated with error: ')) {
      const message = msg.slice('Request terminated with error: '.length);
      const q = findLast(requests, (x) => x.method === method && x.path === reqPath) ?? requests.at(-1);
      const type = RE_PROBLEM_TYPE.exec(message)?.[1];
      // Under --errors, an answer of prism's own that breaks the spec is replaced by a 500 VIOLATIONS
      // problem: that is the spec's (or prism's) fault, not the client's.
      q?.violations.push({ kind: type === 'VIOLATIONS' ? 'response' : 'error', method, path: reqPath, message });
      // The status of prism's own problem answer, which replaces a mock answer it had started (0 when the
      // problem type is one this table lacks).
      if (q) q.status = (type && PROBLEM_STATUS[type]) || q.status || 0;
    } else if (r.name === 'VALIDATOR' && r.level === 'error') {
      // A violation belongs to the request logged just before it: prism validates a request in one go
      // after reading its body. Output violations are logged as "Violation: response.body ...".
      const q = requests.at(-1);
      const kind: PrismViolation['kind'] = /^Violation: response\b/.test(msg) ? 'response' : 'request';
      q?.violations.push({ kind, method: q.method, path: q.path, message: msg });
    } else if (r.name === 'NEGOTIATOR' && r.level === 'info') {
      const m = RE_RESPONDING.exec(msg);
      const q = requests.at(-1);
      if (m && q) q.status = Number(m[1]);
    }
  };
  const logger = prism.createLogger(
    'CLI',
    { level: 'info', formatters: { level: (label: string) => ({ level: label }) } },
    {
      write: (line: string) => {
        for (const l of line.split('\n')) if (l.trim() !== '') onRecord(JSON.parse(l) as PrismRecord);
      },
    },
  ) as { child(b: object): unknown };
  const operations = await operationsFor(path, fixes, doc);
  if (operations.length === 0) throw new Error(`prism found no operations in ${path}`);
  const server = prism.createServer(operations, {
    cors: true,
    config: {
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: opts.errors ?? true,
      upstreamProxy: undefined,
      isProxy: false,
      mock: { dynamic: !!opts.dynamic, ignoreExamples: false, seed: opts.seed === undefined ? null : String(opts.seed) },
    },
    components: { logger: logger.child({ name: 'HTTP SERVER' }) },
  });
  const address = await server.listen(0, '127.0.0.1');
  const url = new URL(address);
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopped ??= server.close());
  return {
    url: url.origin,
    port: Number(url.port),
    spec: path,
    dynamic: !!opts.dynamic,
    seed: opts.seed,
    fixes,
    output: () => output,
    requests: () => requests,
    violations: () => requests.flatMap((r) => r.violations),
    requestViolations: () => requests.flatMap((r) => r.violations.filter((v) => v.kind !== 'response')),
    clear: () => {
      requests = [];
    },
    settle: async (ms = 50) => {
      // A request's last record (its status, or why prism refused it) is written around the time the answer
      // is sent: wait until every request has one and the log has been quiet for `ms` (at most 5 s).
      const start = Date.now();
      const deadline = start + 5_000;
      const done = (): boolean => requests.every((r) => r.status !== undefined) && Date.now() - Math.max(lastLine, start) >= ms;
      while (!done() && Date.now() < deadline) await sleep(Math.max(5, ms / 5));
    },
    stop,
  };
}

const PROBLEM_STATUS: Record<string, number> = {
  NO_PATH_MATCHED_ERROR: 404,
  NO_METHOD_MATCHED_ERROR: 405,
  UNAUTHORIZED: 401,
  UNPROCESSABLE_ENTITY: 422,
  INVALID_CONTENT_TYPE: 415,
  NOT_ACCEPTABLE: 406,
  VIOLATIONS: 500,
};

function findLast<T>(xs: T[], f: (x: T) => boolean): T | undefined {
  for (let i = xs.length - 1; i >= 0; i--) if (f(xs[i]!)) return xs[i];
  return undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A handle filled by `usePrism`'s before hook. */
export interface PrismHandle {
  readonly server: PrismServer;
}

interface HookSuite {
  before(fn: () => unknown): void;
  after(fn: () => unknown): void;
}

/**
 * Shares prism servers across the tests of one uvu suite: starts every one in `before` (in parallel) and
 * stops them in `after`. Returns one handle per option set, in order.
 *
 * ```ts
 * const test = suite('conformance: report');
 * const [stat, dyn] = usePrism(test, [{ spec: 'clickhouse-cloud-2026-07-31' }, { spec: 'clickhouse-cloud-2026-07-31', dynamic: true, seed: 1 }]);
 * test('...', async () => { ... stat.server.url ... });
 * ```
 */
export function usePrism<const T extends readonly PrismOptions[]>(s: HookSuite, options: T): { [K in keyof T]: PrismHandle } {
  const servers: (PrismServer | undefined)[] = options.map(() => undefined);
  s.before(async () => {
    const started = await Promise.allSettled(options.map((o) => startPrism(o)));
    started.forEach((r, i) => {
      if (r.status === 'fulfilled') servers[i] = r.value;
    });
    const failed = started.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
    if (failed) {
      await Promise.all(servers.map((x) => x?.stop()));
      throw failed.reason;
    }
  });
  s.after(async () => {
    await Promise.all(servers.map((x) => x?.stop()));
  });
  return servers.map((_, i) => ({
    get server(): PrismServer {
      const x = servers[i];
      if (!x) throw new Error(`prism server ${i} (${options[i]!.spec}) is not running: use it inside the suite's tests`);
      return x;
    },
  })) as { [K in keyof T]: PrismHandle };
}

/** Human-readable list of violations for an assertion message. */
export function formatViolations(vs: PrismViolation[]): string {
  return vs.map((v) => `${v.kind} ${v.method} ${v.path}: ${v.message}`).join('\n');
}

/** Where this file lives, for tests that need repo-relative paths. */
export const HELPERS_DIR = dirname(fileURLToPath(import.meta.url));
