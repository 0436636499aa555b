/**
 * A raw `net` server on 127.0.0.1 that answers every request with the bytes it is given, as written (no
 * HTTP library on the server side, so the answer may be anything: two Content-Length fields, a bad status
 * line, a chunk size that is not one). Counts the requests, by their request line.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface RawAnswer {
  /** What is written, as latin1 (one byte per character). */
  bytes: string;
  /** Close the connection (FIN) after writing. */
  end?: boolean;
}

export interface RawServer {
  url: string;
  /** Request lines received (`POST /x HTTP/1.1`). */
  requests: string[];
  /** Connections accepted. */
  readonly connections: number;
  close(): Promise<void>;
}

/** A raw server that writes the answer to every request: `answer`'s bytes, then a FIN if it says so. */
export function startRawAnswerServer(answer: RawAnswer): Promise<RawServer> {
  return startRawServer((_n, socket) => {
    socket.write(Buffer.from(answer.bytes, 'latin1'));
    if (answer.end) socket.end();
  });
}

/** A raw server that reads each request (a Content-Length body, keep-alive) and hands the n-th (from 0) to `script`. */
export async function startRawServer(script: (n: number, socket: Socket) => void): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  let n = 0;
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    socket.on('data', (d: Buffer) => {
      buffered += d.toString('latin1');
      for (;;) {
        const head = buffered.indexOf('\r\n\r\n');
        if (head < 0) return;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buffered.slice(0, head))?.[1] ?? 0);
        if (buffered.length < head + 4 + length) return;
        requests.push(buffered.slice(0, buffered.indexOf('\r\n')));
        buffered = buffered.slice(head + 4 + length);
        script(n++, socket);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
