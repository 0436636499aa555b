/** One request and its answer (auth, faults, bodies, the request log), shared by the emulator's routes. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RateLimiter } from './faults.ts';
import type { Persister } from './persist.ts';
import type { LatencyWait } from './latency.ts';
import type { Random } from './random.ts';
import type { HxStore } from './hyperdx.ts';
import type { Store } from './store.ts';
import type { RequestLogEntry } from './types.ts';

/** Largest request body accepted (413 beyond). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The request log: the newest `limit` entries, numbered since start or the last clear. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;

  constructor(
    readonly limit: number,
    private readonly onAdd?: (entry: RequestLogEntry) => void,
  ) {}

  add(entry: Omit<RequestLogEntry, 'seq'>): void {
    const full = { seq: ++this.seq, ...entry };
    this.entries.push(full);
    this.onAdd?.(full);
    // Trim in batches so a long benchmark costs O(1) per request on average.
    if (this.entries.length >= this.limit * 2) this.entries = this.entries.slice(-this.limit);
  }

  list(): RequestLogEntry[] {
    return this.entries.slice(-this.limit);
  }

  /** How many requests were logged since start or the last clear (including those trimmed away). */
  get total(): number {
    return this.seq;
  }

  clear(): void {
    this.entries = [];
    this.seq = 0;
  }
}

/** Everything the request handler needs; built once by `startEmulator`. */
export interface HandlerConfig {
  /** The API profile served: `seed` (the seed documents), `hyperdx` or `clickstack-cloud`. */
  api: 'seed' | 'hyperdx' | 'clickstack-cloud';
  /** Cloud data (every profile) and the seed profile's dashboards and alerts. */
  store: Store;
  /** The hyperdx / clickstack-cloud resources (undefined under `seed`). */
  hx: HxStore | undefined;
  /** The service the ClickStack paths belong to (clickstack-cloud). */
  clickstack: { organizationId: string; serviceId: string } | undefined;
  token: string;
  keyId: string;
  keySecret: string;
  /** Set when `--latency` is above 0. */
  latency: LatencyWait | undefined;
  limiter: RateLimiter | undefined;
  failRate: number;
  dropAfterCommit: number;
  failRng: Random;
  dropRng: Random;
  requestId: () => string;
  now: () => Date;
  persister: Persister | undefined;
  log: RequestLog;
  reset: () => Promise<void>;
  /** The whole state (`GET /__emulator/state` under hyperdx / clickstack-cloud). */
  stateOf: () => unknown;
  /**
   * Listening on a loopback interface only (the default): then requests naming a DNS host or another site's
   * origin come from a browser page, not a client, and are refused. With `--host 0.0.0.0` (a container
   * reached by its service name) the user chose to expose it, and any Host is answered.
   */
  loopbackOnly: boolean;
}

export type Api = 'observability' | 'cloud' | 'none';
export type Fault = RequestLogEntry['fault'];

export const JSON_TYPE = 'application/json; charset=utf-8';

export function credentialKind(auth: string | undefined): RequestLogEntry['credential'] {
  if (auth === undefined || auth === '') return 'none';
  const scheme = auth.slice(0, 7).toLowerCase();
  if (scheme === 'bearer ') return 'bearer';
  if (scheme.startsWith('basic ')) return 'basic';
  return 'other';
}

export function splitAuth(auth: string | undefined): { scheme: string; value: string } | undefined {
  if (auth === undefined || auth.trim() === '') return undefined;
  const t = auth.trim();
  const sp = t.indexOf(' ');
  return sp === -1 ? { scheme: t.toLowerCase(), value: '' } : { scheme: t.slice(0, sp).toLowerCase(), value: t.slice(sp + 1).trim() };
}

/** Schemes a refusal names; any other first word is not repeated (red team). */
const KNOWN_SCHEMES = new Set(['basic', 'bearer', 'digest', 'negotiate', 'ntlm', 'token', 'apikey', 'oauth', 'hoba', 'mutual', 'vapid']);

/**
 * How a refusal names the scheme given: a header with no scheme at all (`Authorization: <token>`) or an
 * unknown first word is the credential itself, which the answer, the emulator's log or a client's error
 * message would otherwise repeat (lower-cased, so not even a redactor knowing the value would find it).
 */
function schemeShown(a: { scheme: string; value: string }): string {
  if (a.value === '') return 'a credential without a scheme';
  return KNOWN_SCHEMES.has(a.scheme) ? `the ${a.scheme} scheme` : 'an unknown scheme';
}

/** Why a Bearer credential is refused, or undefined when it is the right token. */
export function bearerProblem(auth: string | undefined, token: string): string | undefined {
  const a = splitAuth(auth);
  if (!a) return 'Unauthorized: missing Authorization header (expected "Bearer <token>")';
  if (a.scheme !== 'bearer') return `Unauthorized: the observability API takes "Authorization: Bearer <token>", not ${schemeShown(a)}`;
  if (a.value !== token) return 'Unauthorized: invalid access token';
  return undefined;
}

/** Why a Basic credential is refused, or undefined when it is the right key id and secret. */
export function basicProblem(auth: string | undefined, keyId: string, keySecret: string): string | undefined {
  const a = splitAuth(auth);
  if (!a) return 'Unauthorized: missing Authorization header (expected "Basic <base64 of keyId:keySecret>")';
  if (a.scheme !== 'basic') return `Unauthorized: the cloud API takes "Authorization: Basic <credentials>", not ${schemeShown(a)}`;
  const decoded = Buffer.from(a.value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return 'Unauthorized: Basic credentials must encode "keyId:keySecret"';
  if (decoded.slice(0, colon) !== keyId || decoded.slice(colon + 1) !== keySecret) return 'Unauthorized: invalid API key id or secret';
  return undefined;
}

/** One request and its answer; logs the answer when it is sent. */
export class Exchange {
  readonly headers: Record<string, string | number> = {};
  private readonly started = performance.now();
  private readonly time: string;
  private done = false;

  constructor(
    private readonly cfg: HandlerConfig,
    readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly method: string,
    readonly path: string,
    readonly api: Api,
    private readonly logged: boolean,
  ) {
    this.time = logged ? cfg.now().toISOString() : '';
  }

  send(status: number, body: string | Buffer, fault?: Fault): void {
    if (this.done) return;
    this.done = true;
    this.headers['content-type'] = JSON_TYPE;
    this.headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    this.res.writeHead(status, this.headers);
    this.res.end(body);
    this.record(status, fault);
  }

  empty(status: number): void {
    if (this.done) return;
    this.done = true;
    this.res.writeHead(status, this.headers);
    this.res.end();
    this.record(status, undefined);
  }

  /** An error body in the shape of the API the path belongs to. */
  error(status: number, message: string, fault?: Fault): void {
    const body =
      this.api === 'cloud' ? `{"status":${status},"error":${JSON.stringify(message)},"requestId":"${this.cfg.requestId()}"}` : JSON.stringify({ message });
    this.send(status, body, fault);
  }

  /** Cuts the connection without an answer (the change stays committed). */
  drop(): void {
    if (this.done) return;
    this.done = true;
    this.req.socket.destroy();
    this.record(0, 'drop-after-commit');
  }

  private record(status: number, fault: Fault): void {
    if (!this.logged) return;
    const entry: Omit<RequestLogEntry, 'seq'> = {
      time: this.time,
      method: this.method,
      path: this.path,
      status,
      ms: Math.round((performance.now() - this.started) * 100) / 100,
      credential: credentialKind(this.req.headers.authorization),
    };
    if (fault) entry.fault = fault;
    this.cfg.log.add(entry);
  }
}

export function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) chunks.push(c);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Reads a JSON body; answers 400/413 itself and returns undefined when there is none to use. */
export async function readJson(ex: Exchange): Promise<{ value: unknown } | undefined> {
  const body = await readBody(ex.req);
  if (body === undefined) {
    ex.headers['connection'] = 'close';
    ex.error(413, `body: larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
    return undefined;
  }
  if (body.length === 0) {
    ex.error(400, 'body: must be a JSON object, got an empty body');
    return undefined;
  }
  try {
    return { value: JSON.parse(body.toString('utf8')) };
  } catch (err) {
    ex.error(400, `body: not valid JSON (${(err as Error).message})`);
    return undefined;
  }
}

export function decodeSegment(s: string | undefined): string | undefined {
  if (s === undefined || s === '') return undefined;
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

export function methodNotAllowed(ex: Exchange, allow: string): void {
  ex.headers['allow'] = allow;
  ex.error(405, `method ${ex.method} is not allowed on ${ex.path} (allowed: ${allow})`);
}

export async function persist(cfg: HandlerConfig, ex: Exchange): Promise<boolean> {
  if (!cfg.persister) return true;
  try {
    await cfg.persister.save();
    return true;
  } catch (err) {
    ex.error(500, (err as Error).message);
    return false;
  }
}
