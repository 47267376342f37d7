// A reference operator wallet for seamless mode, as an operator would write one: it verifies each
// call's Standard Webhooks signature, keeps a balance per player in exact ten-thousandths, applies
// each transaction_id once (a retry gets the same answer; a refusal applied nothing, so a retry is
// judged again), refuses a debit it cannot cover, answers
// a rollback of a debit it never saw with OK and refuses that debit if it comes later, and can be
// told to misbehave (slow, 500, garbage, answering after the timeout) or to refuse a call for a
// reason of its own, so tests can prove what the platform does then.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Misbehaviour = 'none' | 'slow' | 'error' | 'garbage';

export interface ReferenceWallet {
  url: string;
  /** Balances in ten-thousandths, by player. */
  balances: Map<string, bigint>;
  /** Each call's body as it arrived, signature verified. */
  calls: Record<string, unknown>[];
  /** Calls refused for a bad signature. */
  forged: number;
  misbehave: Misbehaviour;
  /** Decides the misbehaviour per call when set (else `misbehave` holds for all). */
  fault?: (call: Record<string, string>) => Misbehaviour;
  /**
   * When set and it gives a body for a call, the wallet refuses that call with it (422), applying
   * nothing, as an operator refuses for a reason of its own (a blocked player, a limit it keeps).
   */
  refuse?: (call: Record<string, string>) => Record<string, string> | undefined;
  /** With `slow`: how long to wait before answering (the call is applied first, as a slow wallet would). */
  slowMs: number;
  /** When set, a slow answer waits for it instead of `slowMs`: the test decides when it goes. */
  slowUntil?: Promise<unknown>;
  /** A player's balance as a decimal string. */
  balance(player: string): string;
  close(): Promise<void>;
}

const UNIT = 10_000n;
const units = (amount: string): bigint => {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * UNIT + BigInt(fraction.padEnd(4, '0').slice(0, 4)) * (amount.startsWith('-') ? -1n : 1n);
};
const decimal = (value: bigint): string => {
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  return `${sign}${magnitude / UNIT}.${(magnitude % UNIT).toString().padStart(4, '0')}`;
};

export async function startReferenceWallet(secret: string, opening = '100'): Promise<ReferenceWallet> {
  const verifier = new Webhook(secret);
  const answered = new Map<string, { status: number; body: string }>();
  // Debits applied (and their amounts), and those rolled back, by transaction_id.
  const debits = new Map<string, bigint>();
  const rolledBack = new Set<string>();
  const wallet: ReferenceWallet = {
    url: '', balances: new Map(), calls: [], forged: 0, misbehave: 'none', slowMs: 0,
    balance: (player) => decimal(wallet.balances.get(player) ?? units(opening)),
    close: async () => {},
  };
  const apply = (call: Record<string, string>): { status: number; body: object } => {
    const player = call.player_id;
    const balance = wallet.balances.get(player) ?? units(opening);
    const set = (after: bigint) => (wallet.balances.set(player, after), { status: 200, body: { balance: decimal(after) } });
    switch (call.action) {
      case 'balance':
        return { status: 200, body: { balance: decimal(balance) } };
      case 'debit': {
        const amount = units(call.amount);
        if (rolledBack.has(call.transaction_id)) return { status: 422, body: { code: 'transaction_rolled_back', balance: decimal(balance) } };
        if (amount > balance) return { status: 422, body: { code: 'insufficient_funds', balance: decimal(balance) } };
        debits.set(call.transaction_id, amount);
        return set(balance - amount);
      }
      case 'credit':
        return set(balance + units(call.amount));
      case 'rollback': {
        const target = call.rolled_back_transaction_id;
        if (rolledBack.has(target)) return { status: 200, body: { balance: decimal(balance) } };
        rolledBack.add(target);
        return set(balance + (debits.get(target) ?? 0n));
      }
      default:
        return { status: 400, body: { code: 'unknown_action' } };
    }
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
      const misbehave = wallet.fault?.(call) ?? wallet.misbehave;
      if (misbehave === 'error') return answer(500, { code: 'internal' });
      if (misbehave === 'garbage') return answer(200, '<html>not json</html>');
      const refusal = wallet.refuse?.(call);
      if (refusal) return answer(422, refusal);
      let result = call.transaction_id ? answered.get(call.transaction_id) : undefined;
      if (!result) {
        const applied = apply(call);
        result = { status: applied.status, body: JSON.stringify(applied.body) };
        if (call.transaction_id && call.action !== 'balance' && applied.status === 200) answered.set(call.transaction_id, result);
      }
      if (misbehave === 'slow') await (wallet.slowUntil ?? new Promise((resolve) => setTimeout(resolve, wallet.slowMs)));
      answer(result.status, result.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  wallet.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet`;
  wallet.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return wallet;
}
