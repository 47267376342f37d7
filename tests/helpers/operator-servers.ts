// Servers an operator could run, for the tests of outgoing calls: an HTTPS server with a certificate
// for a made-up name, answering the Host header and TLS server name it saw; and a server whose answer
// never ends, counting what it got written before the connection closed.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { SignedPost } from '../../supabase/functions/_shared/standard-webhooks.ts';
import { selfSigned } from './self-signed.ts';

export interface NamedServer {
  port: number;
  /** Its certificate (for `name` only), as the caller's `ca`. */
  cert: string;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const closing = (server: Server) => () => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});

/** On 127.0.0.1, known as `name`: answers `{ host, sni }`. */
export async function namedHttpsServer(name: string): Promise<NamedServer> {
  const tls = selfSigned(name);
  let connections = 0;
  const server = createHttpsServer({ cert: tls.cert, key: tls.key }, (req, res) => req.resume().on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ host: req.headers.host, sni: (req.socket as TLSSocket).servername, user_agent: req.headers['user-agent'] }));
  })).on('connection', () => connections++);
  return { port: await listening(server), cert: tls.cert, connections: () => connections, close: closing(server) };
}

export interface FloodServer {
  /** http://127.0.0.1:port */
  base: string;
  /** What the answer to `path` got written before its connection closed, once it has. */
  written(path: string): Promise<number>;
  close(): Promise<void>;
}

/** Answers every POST 200 with `bytes` announced and sent for as long as the connection takes them. */
export async function floodServer(bytes: number): Promise<FloodServer> {
  const closed = new Map<string, { bytes: Promise<number>; resolve: (bytes: number) => void }>();
  const entry = (path: string) => {
    if (!closed.has(path)) {
      let resolve!: (bytes: number) => void;
      closed.set(path, { bytes: new Promise((r) => (resolve = r)), resolve });
    }
    return closed.get(path)!;
  };
  const server = createHttpServer((req, res) => req.resume().on('end', () => {
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let sent = 0;
    res.on('close', () => entry(req.url!).resolve(sent));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes) });
    const pump = () => {
      while (sent < bytes && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  }));
  return { base: `http://127.0.0.1:${await listening(server)}`, written: (path) => entry(path).bytes, close: closing(server) };
}

/** A signed POST of `{}` to `url`, with a secret of its own. */
type Given = 'url' | 'secrets' | 'messageId' | 'body' | 'timeoutMs' | 'now';
export const signedPost = (url: string, fields: Omit<SignedPost, Given>): Omit<SignedPost, 'now'> => ({
  url, secrets: [`whsec_${randomBytes(32).toString('base64')}`], messageId: randomUUID(), body: '{}', timeoutMs: 20_000, ...fields,
});
