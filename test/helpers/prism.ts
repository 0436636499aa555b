/**
 * Conformance harness: mock servers generated from the vendors' OpenAPI files by @stoplight/prism-cli.
 *
 * - Runs `prism mock` as a child process on 127.0.0.1, port 0 (prism prints the port it got), with
 *   `--errors`, so a request that breaks the spec gets a 4xx problem answer instead of a mock answer.
 * - Static answers (the spec's examples) or dynamic ones (json-schema-faker) with a `--seed`. Prism resets
 *   its generator for every request, so with one seed every request to one operation gets the same answer;
 *   another seed needs another process (share one per spec, mode and seed: see `usePrism`).
 * - Every violation prism logs is collected from its output, so a test can assert there were none:
 *   `server.violations()` (request and response), `server.requestViolations()`. A violation line belongs to
 *   the request logged just before it: prism validates a request in one go after reading its body, so its
 *   lines are not interleaved with another request's.
 * - Offline: prism only loads the local file (the vendored files have no remote `$ref`), and nothing in
 *   it calls out at run time. `stop()` ends the process by its id.
 *
 * Spec files: the repository's copies of the vendored contracts (test/fixtures/contracts/openapi/, made by
 * test/helpers/prism-contracts.ts), so the suite runs where only the repository is (CI).
 *
 * Spec fixes: some vendored files need small changes before prism answers sensibly. They are applied in
 * memory (written to a temp copy), never to the shared contracts or the fixtures, and each is listed in
 * `SPEC_FIXES` with the reason (also in docs/profiles.md). All five files load unchanged in prism 5.14.2;
 * the two fixes are for ClickHouse Cloud's "X or null" and its string enum of a number (below).
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
   * true }`. Set in memory as the document's `x-json-schema-faker` extension, which prism reads.
   */
  jsf?: Record<string, unknown>;
  /** Milliseconds to wait for prism to listen (default 30 s: the machine may be busy). */
  startTimeoutMs?: number;
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
  pid: number;
  spec: string;
  dynamic: boolean;
  seed?: string | number;
  /** Fixes applied in memory for this server. */
  fixes: SpecFix[];
  /** Everything prism printed so far. */
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

function prismBin(): string {
  const pkgPath = require.resolve('@stoplight/prism-cli/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: string | Record<string, string> };
  const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['prism']!;
  return join(dirname(pkgPath), rel);
}

// Prism's pretty log lines, e.g.
// [4:00:12 AM] › [HTTP SERVER] post /api/v2/dashboards ℹ  info      Request received
// [4:00:12 AM] ›     [VALIDATOR] ✖  error     Request body property tiles.0 must have required property 'x'
// [4:00:12 AM] › [HTTP SERVER] post /api/v2/dashboards ✖  error     Request terminated with error: https://...#UNPROCESSABLE_ENTITY: Invalid request
// [4:00:12 AM] ›     [NEGOTIATOR] ℹ  info      > Responding with "200"
const RE_RECEIVED = /\[HTTP SERVER\] (\w+) (\S+) \S+\s+info\s+Request received/;
const RE_TERMINATED = /\[HTTP SERVER\] (\w+) (\S+) \S+\s+error\s+Request terminated with error: (.*)$/;
const RE_VALIDATOR = /\[VALIDATOR\] \S+\s+(error|warning)\s+(.*)$/;
const RE_RESPONDING = /\[NEGOTIATOR\] \S+\s+info\s+> Responding with "(\d+)"/;
const RE_LISTENING = /Prism is listening on (http:\/\/[\d.]+:(\d+))/;
const ANSI = /\u001b\[[0-9;]*m/g;

/** Resolves a SPECS key or a path, applies fixes in memory, and returns the file prism should load. */
export function prepareSpec(spec: string, extra: SpecFix[] = []): { file: string; fixes: SpecFix[]; cleanup: () => void } {
  const path = spec in SPECS ? SPECS[spec as SpecName] : spec;
  const fixes = [...(SPEC_FIXES[basename(path)] ?? []), ...extra];
  if (fixes.length === 0) return { file: path, fixes, cleanup: () => {} };
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  for (const f of fixes) f.apply(doc);
  const dir = mkdtempSync(join(tmpdir(), 'steward-prism-'));
  const file = join(dir, basename(path));
  writeFileSync(file, JSON.stringify(doc));
  const cleanup = (): void => {
    TEMP_DIRS.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  TEMP_DIRS.add(dir);
  return { file, fixes, cleanup };
}

/** Starts `prism mock` for one spec; resolves when it listens. */
export async function startPrism(opts: PrismOptions): Promise<PrismServer> {
  const jsf = opts.jsf;
  const extra = [
    ...(opts.fixes ?? []),
    ...(jsf ? [{ why: `x-json-schema-faker: ${JSON.stringify(jsf)}`, apply: (d: any) => void (d['x-json-schema-faker'] = jsf) }] : []),
  ];
  const { file, fixes, cleanup } = prepareSpec(opts.spec, extra);
  const args = [prismBin(), 'mock', file, '--host', '127.0.0.1', '--port', '0'];
  if (opts.errors ?? true) args.push('--errors');
  if (opts.dynamic) args.push('--dynamic');
  if (opts.seed !== undefined) args.push('--seed', String(opts.seed));
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { PATH: process.env['PATH'] ?? '', FORCE_COLOR: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let pending = '';
  let requests: PrismRequest[] = [];
  let lastLine = Date.now();
  let exited = false;
  const onLine = (raw: string): void => {
    const line = raw.replace(ANSI, '');
    lastLine = Date.now();
    let m: RegExpMatchArray | null;
    if ((m = line.match(RE_RECEIVED))) {
      requests.push({ method: m[1]!.toUpperCase(), path: m[2]!, violations: [] });
    } else if ((m = line.match(RE_TERMINATED))) {
      const method = m[1]!.toUpperCase();
      const r = findLast(requests, (q) => q.method === method && q.path === m![2]) ?? requests.at(-1);
      const st = /#([A-Z_]+)/.exec(m[3]!)?.[1];
      // Under --errors, an answer of prism's own that breaks the spec is replaced by a 500 VIOLATIONS
      // problem: that is the spec's (or prism's) fault, not the client's.
      r?.violations.push({ kind: st === 'VIOLATIONS' ? 'response' : 'error', method, path: m[2]!, message: m[3]! });
      // The status of prism's own problem answer, which replaces a mock answer it had started (0 when the
      // problem type is one this table lacks).
      if (r) r.status = (st && PROBLEM_STATUS[st]) || r.status || 0;
    } else if ((m = line.match(RE_VALIDATOR)) && m[1] === 'error') {
      const r = requests.at(-1);
      const msg = m[2]!;
      // Output violations are logged as "Violation: response.body ..."; request ones as plain messages
      // (errors mode) or "Violation: request...." (otherwise).
      const kind: PrismViolation['kind'] = /^Violation: response\b/.test(msg) ? 'response' : 'request';
      r?.violations.push({ kind, method: r.method, path: r.path, message: msg });
    } else if ((m = line.match(RE_RESPONDING))) {
      const r = requests.at(-1);
      if (r) r.status = Number(m[1]);
    }
  };
  const onData = (d: string): void => {
    output += d;
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const l of lines) onLine(l);
  };
  child.stdout!.setEncoding('utf8').on('data', onData);
  child.stderr!.setEncoding('utf8').on('data', onData);
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const url = await new Promise<{ url: string; port: number }>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`prism did not start within ${opts.startTimeoutMs ?? 120_000} ms:\n${output.slice(-2000)}`)),
      opts.startTimeoutMs ?? 120_000,
    );
    const check = (): void => {
      const m = output.match(RE_LISTENING);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve({ url: m[1]!, port: Number(m[2]) });
      }
    };
    const fail = (e: Error): void => {
      clearTimeout(timer);
      if (!exited) child.kill('SIGKILL');
      cleanup();
      reject(e);
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => fail(new Error(`prism exited (${code}) before listening:\n${output.slice(-2000)}`)));
    child.once('error', fail);
  });

  const pid = child.pid!;
  LIVE.add(pid);
  void exit.then(() => LIVE.delete(pid));
  return {
    ...url,
    pid,
    spec: file,
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
      // Prism logs a request's last line (its status, or why it refused it) around the time it answers, and
      // the pipe delivers it a moment later: wait until every request has one and the output has been quiet
      // for `ms` since this call (at most 5 s).
      const start = Date.now();
      const deadline = start + 5_000;
      const done = (): boolean => requests.every((r) => r.status !== undefined) && Date.now() - Math.max(lastLine, start) >= ms;
      while (!done() && Date.now() < deadline) await sleep(Math.max(5, ms / 5));
    },
    stop: async () => {
      if (!exited) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
        const killer = setTimeout(() => {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        }, 3_000);
        await exit;
        clearTimeout(killer);
      }
      cleanup();
    },
  };
}

/**
 * Prism processes still running. If the test process exits without their suites' `after` (a crash, a
 * failed `before`), they are ended by id on the way out rather than left behind, and their temp files removed.
 */
const LIVE = new Set<number>();
/** Temp copies of fixed specs not yet removed (removed on the way out too). */
const TEMP_DIRS = new Set<string>();
process.once('exit', () => {
  for (const pid of LIVE) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  for (const dir of TEMP_DIRS) rmSync(dir, { recursive: true, force: true });
});

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
 * stops them by pid in `after`. Returns one handle per option set, in order.
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
