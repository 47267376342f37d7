// A TCP proxy in front of the test database: `down()` cuts every connection through it and refuses
// new ones, as a database restart does to its clients; `up()` lets them through again.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface DatabaseProxy {
  /** The database URL, through the proxy. */
  url: string;
  down(): Promise<void>;
  up(): Promise<void>;
}

export async function databaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const open = new Set<Socket>();
  const serve = () => createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  let server: Server = serve();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(databaseUrl);
  [url.hostname, url.port] = ['127.0.0.1', String(port)];
  return {
    url: url.toString(),
    async down() {
      open.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
    async up() {
      server = serve();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
  };
}
