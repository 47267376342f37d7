// A TCP server that accepts connections and never says a word: a database or API that hangs.
import { createServer, type Socket } from 'node:net';

export interface BlackHole {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Drops the connections and stops listening. */
  close(): Promise<void>;
}

export async function blackHole(): Promise<BlackHole> {
  const held: Socket[] = [];
  const server = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    accepted: () => held.length,
    close: async () => {
      held.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
