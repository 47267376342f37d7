// A reference operator wallet for seamless mode, as an operator would write one: it verifies each
// call's Standard Webhooks signature, keeps a balance per player, applies each transaction_id once
// (a retry gets the same answer), refuses a debit it cannot cover, and can be told to misbehave
// (down, slow, 500, garbage) so tests can prove what the platform does then.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Misbehaviour = 'none' | 'slow' | 'error' | 'garbage';

export interface ReferenceWallet {
  url: string;
  balances: Map<string, number>;
  /** Each call's body as it arrived, signature verified. */
  calls: Record<string, unknown>[];
  /** Calls refused for a bad signature. */
  forged: number;
  misbehave: Misbehaviour;
  slowMs: number;
  close(): Promise<void>;
}

export async function startReferenceWallet(secret: string, opening = 100): Promise<ReferenceWallet> {
  const verifier = new Webhook(secret);
  const applied = new Map<string, { status: number; body: string }>();
  const wallet: ReferenceWallet = {
    url: '', balances: new Map(), calls: [], forged: 0, misbehave: 'none', slowMs: 0, close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', async () => {
      const answer = (status: number, body: object | string) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      let call: Record<string, string>;
      try {
        call = verifier.verify(raw, req.headers as Record<string, string>) as Record<string, string>;
      } catch {
        wallet.forged++;
        return answer(401, { code: 'bad_signature' });
      }
      wallet.calls.push(call);
      if (wallet.misbehave === 'slow') await new Promise((resolve) => setTimeout(resolve, wallet.slowMs));
      if (wallet.misbehave === 'error') return answer(500, { code: 'internal' });
      if (wallet.misbehave === 'garbage') return answer(200, '<html>not json</html>');
      const player = call.player_id;
      const balance = wallet.balances.get(player) ?? opening;
      const replay = call.transaction_id ? applied.get(call.transaction_id) : undefined;
      if (replay) return answer(replay.status, replay.body);
      const amount = Number(call.amount ?? 0);
      let result: { status: number; body: object };
      if (call.action === 'balance') result = { status: 200, body: { balance: balance.toFixed(4) } };
      else if (call.action === 'debit' && amount > balance) {
        result = { status: 422, body: { code: 'insufficient_funds', balance: balance.toFixed(4) } };
      } else {
        const after = call.action === 'debit' ? balance - amount : balance + amount;
        wallet.balances.set(player, after);
        result = { status: 200, body: { balance: after.toFixed(4) } };
      }
      if (call.transaction_id && call.action !== 'balance') applied.set(call.transaction_id, { status: result.status, body: JSON.stringify(result.body) });
      answer(result.status, result.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  wallet.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet`;
  wallet.close = () => new Promise((resolve) => server.close(() => resolve()));
  return wallet;
}
