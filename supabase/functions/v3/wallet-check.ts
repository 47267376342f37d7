// The seamless wallet self-check (POST /v3/sandbox/wallet-checks): a fixed set of scenarios played
// against an operator's wallet, each passed or failed with what was seen, so an operator can prove
// its side of the contract before going live (Slotegrator offers the like). The calls are the real
// ones (callWallet, postSigned), with ids of their own so they touch nothing else.
// Runtime-neutral: the name resolver is injected; a test runs it against the reference wallet.
import { callWallet, type WalletAnswer, type WalletRequest } from '../_shared/wallet-call.ts';
import type { OutboundOptions } from '../_shared/public-url.ts';
import { postSigned } from '../_shared/standard-webhooks.ts';

export interface WalletCheckTarget extends OutboundOptions {
  url: string;
  secrets: string[];
  timeoutMs: number;
}

export interface ScenarioResult {
  scenario: string;
  passed: boolean;
  detail: string;
}

/** An amount in exact ten-thousandths. */
function units(amount: string): bigint {
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  const value = BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0').slice(0, 4));
  return amount.startsWith('-') ? -value : value;
}

/** Plays every scenario in order for a player of the operator's, in a currency. */
export async function checkWallet(target: WalletCheckTarget, player: { player_id: string; currency: string }): Promise<ScenarioResult[]> {
  const run = crypto.randomUUID();
  const base = { session_id: crypto.randomUUID(), player_id: player.player_id, game_id: 'cgs-check:wallet-check', currency: player.currency };
  const call = (fields: Partial<WalletRequest> & { action: WalletRequest['action'] }, messageId = crypto.randomUUID()) =>
    callWallet({ ...base, ...fields } as WalletRequest, { ...target, messageId });
  const id = (name: string) => `cgs-check:${run}-${name}`;
  const results: ScenarioResult[] = [];
  const record = (scenario: string, passed: boolean, detail: string) => results.push({ scenario, passed, detail });
  const said = (answer: WalletAnswer) =>
    answer.kind === 'accepted' ? `accepted, balance ${answer.balance}` : answer.kind === 'refused' ? `refused (${answer.code})` : `failed: ${answer.reason}`;

  const balance = await call({ action: 'balance' });
  record('balance', balance.kind === 'accepted', said(balance));
  const start = balance.kind === 'accepted' ? units(balance.balance) : null;

  const debit = { action: 'debit' as const, transaction_id: id('debit'), round_id: id('round'), amount: '1.0000' };
  const first = await call(debit);
  record('debit', first.kind === 'accepted' && (start === null || units(first.balance) === start - 10_000n),
    `${said(first)}; 1.0000 taken from ${balance.kind === 'accepted' ? balance.balance : 'an unknown balance'}`);
  const again = await call(debit);
  record('duplicate debit', again.kind === 'accepted' && first.kind === 'accepted' && again.balance === first.balance,
    `${said(again)}: the same transaction_id must be applied once and answered as the first time`);

  const credit = await call({ action: 'credit', transaction_id: id('credit'), round_id: id('round'), amount: '1.0000', round_closed: true });
  record('credit', credit.kind === 'accepted' && (start === null || units(credit.balance) === start), said(credit));

  const unknown = await call({ action: 'rollback', transaction_id: id('rollback-unknown'), rolled_back_transaction_id: id('never-seen') });
  record('rollback of an unknown transaction', unknown.kind === 'accepted', `${said(unknown)}: must be answered 2xx`);

  await call({ action: 'rollback', transaction_id: id('rollback-first'), rolled_back_transaction_id: id('late-debit') });
  const late = await call({ action: 'debit', transaction_id: id('late-debit'), round_id: id('round-2'), amount: '1.0000' });
  record('debit after its rollback', late.kind === 'refused', `${said(late)}: a debit whose rollback came first must be refused`);

  // A call signed with a secret that is not the operator's: it must be refused, not applied.
  const forged = await postSigned({
    ...target, secrets: [`whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`],
    messageId: crypto.randomUUID(),
    body: JSON.stringify({ ...base, action: 'credit', transaction_id: id('forged'), round_id: id('round'), amount: '1000.0000' }),
  });
  const status = 'failure' in forged ? null : forged.status;
  record('signature tampering', status !== null && status >= 400 && status < 500,
    status === null ? 'no answer' : `HTTP ${status}: a call with a wrong signature must be refused with a 4xx`);
  return results;
}
