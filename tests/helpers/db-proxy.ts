// A TCP proxy in front of the test database: `down()` cuts every connection through it and refuses
// new ones, as a database restart does to its clients; `up()` lets them through again. `loseAnswerTo`
// lets a statement run and commit, then cuts its connection instead of passing the answer on, as a
// network failure at the worst moment does. `freeze()` stops all traffic without closing anything,
// as a database that stopped answering; `thaw()` lets what was held through.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface DatabaseProxy {
  /** The database URL, through the proxy. */
  url: string;
  down(): Promise<void>;
  up(): Promise<void>;
  /**
   * The next statement whose text contains `text` runs, and its connection is cut when Postgres
   * answers ready for the next outside a transaction (the statement's over, committed): the client
   * never sees the answer.
   * Resolves once cut.
   */
  loseAnswerTo(text: string): Promise<void>;
  freeze(): void;
  thaw(): void;
}

// ReadyForQuery, idle: the statement's transaction is over (committed, when it succeeded). Inside a
// transaction (status T, the pool's begin and statement) it is not.
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

export async function databaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const open = new Set<Socket>();
  let lose: { text: string; cut: () => void } | null = null;
  let frozen = false;
  const held: (() => void)[] = [];
  const pass = (to: Socket, chunk: Buffer) => (frozen ? held.push(() => to.write(chunk)) : to.write(chunk));
  const serve = () => createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {});
    }
    let losing: typeof lose = null;
    client.on('data', (chunk: Buffer) => {
      if (lose && chunk.includes(lose.text)) [losing, lose] = [lose, null];
      pass(upstream, chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (losing && chunk.includes(READY_FOR_QUERY)) {
        client.destroy();
        upstream.destroy();
        return losing.cut();
      }
      pass(client, chunk);
    });
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
    loseAnswerTo(text) {
      return new Promise((cut) => (lose = { text, cut }));
    },
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      held.splice(0).forEach((write) => write());
    },
  };
}
