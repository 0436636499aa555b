/**
 * A client's keep-alive connections to its origin, on node:http's Agent, and the one call attempt.ts makes of
 * them: `send` a request and tell a sink what happens to it (on a connection, the head, each chunk, the end,
 * or what failed), with a control to abort it or hold its reading.
 *
 * Why node:http and not undici (issue 15): undici writes a request on a reused keep-alive socket only after a
 * `setImmediate` (its idle-socket check, GHSA-35p6-xmwp-9g52), so each next create waited for the rest of that
 * turn of the event loop, the other answers' work included; node:http writes it at once. Side by side, eight
 * interleaved rounds of 1,000 creates at concurrency 4 against the emulator: 0.864 of the bound with undici,
 * 0.885 with this, 0.911 for node:http with no client around it. node:http's parser is also the one whose
 * errors steward's messages quote (HPE_* codes and llhttp's reasons), it skips 1xx interim answers (`100
 * Continue` included) as RFC 9110 asks, and it needs no WebAssembly.
 *
 * What the GHSA guards against holds here too: a socket in the Agent's free list that reads a byte is closed
 * (`watchIdle`; the Agent itself drops one that ends or errs), so bytes nobody asked for are never read as the
 * answer to the next request.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import { timeoutError } from './attempt.ts';
import { fromNodeHttp } from './parse-errors.ts';

/** What is sent: the path and query below the origin, the headers, the body. */
export interface SendOptions {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** Ends a request (the connection is closed) or holds the reading of its answer. */
export interface RequestControl {
  abort(reason: Error): void;
  pause(): void;
  resume(): void;
  readonly aborted: boolean;
}

/** Told what happens to one request, each at most once but the data, and nothing after the end or an error. */
export interface ResponseSink {
  /** The request is on a connected socket: from now on the server may act on it. */
  onRequestStart(control: RequestControl): void;
  /** The head of the final answer (1xx interim answers are skipped). */
  onResponseStart(control: RequestControl, status: number, headers: http.IncomingHttpHeaders, statusMessage: string): void;
  onResponseData(control: RequestControl, chunk: Buffer): void;
  onResponseEnd(control: RequestControl): void;
  onResponseError(control: RequestControl, error: Error): void;
}

export interface ConnectionsOptions {
  /** Sockets to the origin at most (null: no bound). */
  connections: number | null;
  /** A connect (TCP, and TLS for https) abandoned after this long. */
  connectTimeoutMs: number;
  /** A keep-alive socket unused this long is closed, not reused (default FREE_SOCKET_MS). */
  freeSocketMs?: number | undefined;
}

/**
 * How long an unused keep-alive socket is kept. A server or proxy closes its idle connections after a while
 * (5 s for Node's, 60 s or more for most proxies) and most do not say when; a request sent on a connection the
 * other side is closing fails unsent or half-sent, and for a create that is an unknown outcome (a settle window
 * and two lists). An apply reuses its sockets within milliseconds; a socket idle this long is not worth that
 * risk. (Where a server says its timeout, `Keep-Alive: timeout=N`, Node keeps a socket at most N - 1 s.)
 */
export const FREE_SOCKET_MS = 4000;

export interface Connections {
  /** Sends a request; the control it returns ends it at any time, while it waits for a socket or connects too. */
  send(options: SendOptions, sink: ResponseSink): RequestControl;
}

/** The connections of one client to `origin` (http: or https:, TLS verified as Node's default is). */
export function createConnections(origin: URL, opts: ConnectionsOptions): Connections {
  const secure = origin.protocol === 'https:';
  // lifo: the socket used last goes first, the one least likely to have been closed by the server meanwhile.
  const agentOptions: http.AgentOptions = {
    keepAlive: true,
    scheduling: 'lifo',
    // Applies to sockets in the free list only: one in use is the attempt's to time out (attempt.ts).
    timeout: opts.freeSocketMs ?? FREE_SOCKET_MS,
    ...(opts.connections ? { maxSockets: opts.connections } : {}),
  };
  const agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  agent.on('free', watchIdle);
  const request = secure ? https.request : http.request;
  const hostname = origin.hostname.replace(/^\[|\]$/g, '');
  return {
    send(options, sink) {
      return new Exchange(sink).start(
        () =>
          request({
            protocol: origin.protocol,
            hostname,
            port: origin.port,
            agent,
            method: options.method,
            path: options.path,
            headers: options.headers,
          }),
        options.body,
        secure,
        opts.connectTimeoutMs,
      );
    },
  };
}

/** Set on a socket while it waits in the Agent's free list; cleared when a request takes it. */
const IDLE = Symbol('steward.idle');
type Watched = Socket & { [IDLE]?: boolean };

/**
 * A socket back in the free list reads nothing: bytes there answer no request (a server out of step, or one
 * injecting an answer ahead of the next request), so the socket is closed rather than kept. (The Agent may
 * hand the socket to a queued request before this runs; that request's 'socket' event, a tick later and
 * before any read, clears the mark.)
 */
function watchIdle(socket: Watched): void {
  if (socket[IDLE] === undefined)
    socket.on('data', () => {
      if (socket[IDLE]) socket.destroy();
    });
  socket[IDLE] = true;
}

/** One request on the wire and what its sink is told. */
class Exchange implements RequestControl {
  aborted = false;
  private req: http.ClientRequest | undefined;
  private res: http.IncomingMessage | undefined;
  private ended = false;
  private connectTimer: NodeJS.Timeout | undefined;

  constructor(private readonly sink: ResponseSink) {}

  start(make: () => http.ClientRequest, body: string | undefined, secure: boolean, connectTimeoutMs: number): this {
    const req = (this.req = make());
    req.on('socket', (socket: Watched) => {
      if (socket[IDLE]) socket[IDLE] = false;
      if (!socket.connecting) return this.started();
      this.connectTimer = setTimeout(() => req.destroy(timeoutError('socket', connectTimeoutMs)), connectTimeoutMs);
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        clearTimeout(this.connectTimer);
        this.started();
      });
    });
    req.on('error', (error) => this.fail(error));
    req.on('close', () => clearTimeout(this.connectTimer));
    // A 101 steward never asks for: with a listener, node:http hands the socket over instead of reading on.
    req.on('upgrade', (_res, socket: Socket) => {
      socket.destroy();
      this.fail(switching());
    });
    req.on('response', (res) => this.respond(res));
    req.end(body);
    return this;
  }

  private started(): void {
    if (!this.aborted && !this.ended) this.sink.onRequestStart(this);
  }

  private respond(res: http.IncomingMessage): void {
    this.res = res;
    if (this.aborted || this.ended) return void res.destroy();
    // node:http skips 100 and 102-199 itself; a 101 without an Upgrade field comes here. Nothing after it on
    // this connection is HTTP/1.1 steward can read.
    if ((res.statusCode ?? 0) < 200) {
      this.req?.destroy();
      return this.fail(switching());
    }
    res.on('data', (chunk: Buffer) => {
      if (!this.aborted && !this.ended) this.sink.onResponseData(this, chunk);
    });
    res.on('end', () => {
      if (this.aborted || this.ended) return;
      this.ended = true;
      this.sink.onResponseEnd(this);
    });
    // Closed before the body was whole: node:http says "aborted" (ECONNRESET), after the head was read.
    res.on('error', (error) => this.fail(error));
    res.on('aborted', () => this.fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
    this.sink.onResponseStart(this, res.statusCode ?? 0, res.headers, res.statusMessage ?? '');
  }

  private fail(error: Error): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.connectTimer);
    this.sink.onResponseError(this, fromNodeHttp(error) ?? error);
  }

  abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    clearTimeout(this.connectTimer);
    this.req?.destroy(reason);
    this.res?.destroy(reason);
  }

  pause(): void {
    this.res?.pause();
  }

  resume(): void {
    this.res?.resume();
  }
}

function switching(): Error {
  return new Error('the server answered 101 Switching Protocols, which steward never asks for');
}
