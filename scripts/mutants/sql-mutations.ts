// The plpgsql mutations `npm run mutants:sql` makes, one at a time, in a copy of supabase/migrations.
// `find` is exact text of the file today (or a regex); `occurrence` picks one when it appears more
// than once (1 = the first), and is required then. A `find` that no longer matches is reported
// loudly: change the entry with the engine (docs/mutation-testing.md, "Adding a mutation").
export interface SqlMutation {
  /** `<area>-<n>`, stable: `npm run mutants:sql -- --only rounds-3`. */
  id: string;
  /** A file of supabase/migrations. */
  file: string;
  find: string | RegExp;
  occurrence?: number;
  replace: string;
  /** The area's test files: only these run for the mutant. */
  tests: string[];
  /** What the mutant breaks, as the rule it would break. */
  description: string;
}

const ROUNDS = '20261121001600_round_engine.sql';
const SEAMLESS = '20261121001400_seamless_wallet.sql';
const LEDGER = '20261121000300_wallets_and_transactions.sql';
const SANDBOX = '20261121001500_sandbox.sql';
const WEBHOOKS = '20261121000800_webhooks.sql';
const COMPLIANCE = '20261121000900_compliance.sql';
const RESPONSIBLE = '20261121001000_responsible_gaming.sql';

const roundTests = ['tests/rounds/engine.test.ts'];
const seamlessTests = ['tests/seamless/wallet-call.test.ts', 'tests/seamless/provider-flow.test.ts'];
const ledgerTests = ['tests/ledger/ledger.test.ts', 'tests/ledger/concurrency.test.ts'];
const sandboxTests = ['tests/sandbox/test-players.test.ts'];
const webhookTests = ['tests/webhooks/delivery.test.ts', 'tests/webhooks/outbox.test.ts'];
const restrictionTests = ['tests/compliance/restrictions.test.ts'];

export const sqlMutations: SqlMutation[] = [
  // The round engine.
  {
    id: 'rounds-1', file: ROUNDS, tests: roundTests,
    find: 'if coalesce(available, 0) < amount then', replace: 'if coalesce(available, 0) <= amount then',
    description: 'a bet of the whole balance is refused as insufficient funds',
  },
  {
    id: 'rounds-2', file: ROUNDS, tests: roundTests,
    find: 'if coalesce(available, 0) < amount then', replace: 'if false then',
    description: 'a bet above the balance is not refused as insufficient_funds',
  },
  {
    id: 'rounds-3', file: ROUNDS, tests: roundTests,
    find: 'if coalesce(round.total_bet, 0) + amount >= 1e16 then', replace: 'if coalesce(round.total_bet, 0) + amount > 1e16 then',
    description: "a round's bets may total exactly 1e16 (16 digits before the point)",
  },
  {
    id: 'rounds-4', file: ROUNDS, tests: roundTests,
    find: "if round.status in ('closed', 'cancelled') then", replace: "if round.status = 'cancelled' then",
    description: 'a closed round takes another bet',
  },
  {
    id: 'rounds-5', file: ROUNDS, tests: roundTests,
    find: "if s.status = 'created' and s.expires_at <= now() then", replace: "if s.status = 'created' and s.expires_at > now() then",
    description: 'the launch window is inverted: a fresh session is refused, an expired one bets',
  },
  {
    id: 'rounds-6', file: ROUNDS, tests: roundTests,
    find: "status = case when round_closed then 'closed' else r.status end", occurrence: 1, replace: 'status = r.status',
    description: 'a bet with round_closed leaves its round open',
  },
  {
    id: 'rounds-7', file: ROUNDS, tests: roundTests,
    find: "status = case when round_closed then 'closed' else r.status end", occurrence: 2, replace: 'status = r.status',
    description: 'a win with round_closed leaves its round open',
  },
  {
    id: 'rounds-8', file: ROUNDS, tests: roundTests,
    find: "    if bet.rolled_back then\n      return query select 'transaction_rolled_back'", replace: "    if false then\n      return query select 'transaction_rolled_back'",
    description: 'a win pays on a bet that was rolled back',
  },
  {
    id: 'rounds-9', file: ROUNDS, tests: roundTests,
    find: '\n    and (bet.id is null or t.id = bet.id);', replace: ';',
    description: 'a win that names one bet settles every bet of its round',
  },
  {
    id: 'rounds-10', file: ROUNDS, tests: roundTests,
    find: "  if round.status <> 'open' then\n    return query select 'round_closed'", replace: "  if false then\n    return query select 'round_closed'",
    description: 'a closed round takes a win',
  },
  {
    id: 'rounds-11', file: ROUNDS, tests: [...roundTests, ...restrictionTests],
    find: 'perform private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, -amount, false);',
    replace: 'perform private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, amount, false);',
    description: "a win adds to the player's loss tally instead of taking from it",
  },
  {
    id: 'rounds-12', file: ROUNDS, tests: roundTests,
    find: "  if bet.settled then\n    return query select 'bet_settled'", replace: "  if false then\n    return query select 'bet_settled'",
    description: 'a bet a win settled can be rolled back',
  },
  {
    id: 'rounds-13', file: ROUNDS, tests: roundTests,
    find: "ledger := private.move_money(s, round.currency_code, 'adjustment', bet.amount,", occurrence: 1,
    replace: "ledger := private.move_money(s, round.currency_code, 'adjustment', -bet.amount,",
    description: 'a rollback takes the bet again instead of giving it back',
  },
  {
    id: 'rounds-14', file: ROUNDS, tests: roundTests,
    find: 'cancel := round.total_bet - bet.amount = 0 and round.total_win = 0', replace: 'cancel := round.total_win = 0',
    description: 'rolling back one bet cancels a round that has other bets',
  },
  {
    id: 'rounds-15', file: ROUNDS, tests: [...roundTests, ...restrictionTests],
    find: 'perform private.count_loss(s.client_id, s.livemode, s.player_id, round.currency_code, -bet.amount, false);',
    replace: 'perform private.count_loss(s.client_id, s.livemode, s.player_id, round.currency_code, bet.amount, false);',
    description: "a rolled-back bet stays counted in the player's losses (counted twice)",
  },
  {
    id: 'rounds-16', file: ROUNDS, tests: roundTests,
    find: "where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back and not t.settled",
    replace: "where t.round_id = round.id and t.kind = 'bet' and not t.settled",
    description: 'cancelling a round gives back a bet that was already rolled back (paid twice)',
  },
  {
    id: 'rounds-17', file: ROUNDS, tests: roundTests,
    find: 'if round.total_win > 0 or exists (select 1 from public.round_transaction t where t.round_id = round.id and t.settled) then',
    replace: 'if round.total_win > 0 then',
    description: 'staff cancel a round a win of 0 settled',
  },
  {
    id: 'rounds-18', file: ROUNDS, tests: roundTests,
    find: "    update public.round_transaction t set settled = true where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back;",
    replace: '    null;',
    description: 'a round closed by staff leaves its bets open to a later rollback',
  },
  {
    id: 'rounds-19', file: ROUNDS, tests: ['tests/rounds/interleavings.test.ts'],
    find: "where r.provider_id = began.provider_id and r.provider_round_id = round_win.round_id\n  for update;",
    replace: 'where r.provider_id = began.provider_id and r.provider_round_id = round_win.round_id;',
    description: 'a win does not lock its round (a concurrent rollback or win interleaves)',
  },
  // The seamless wallet.
  {
    id: 'seamless-1', file: SEAMLESS, tests: seamlessTests,
    find: "if call.status <> 'pending' or call.attempts <> attempt then", replace: "if call.status <> 'pending' then",
    description: "a superseded attempt's answer finishes a wallet call",
  },
  {
    id: 'seamless-2', file: SEAMLESS, tests: seamlessTests,
    find: "if call.status <> 'pending' or call.attempts <> attempt then", replace: 'if call.attempts <> attempt then',
    description: 'a wallet call already finished is finished again',
  },
  {
    id: 'seamless-3', file: SEAMLESS, tests: seamlessTests,
    find: "where d.status = 'pending' and d.action <> 'debit' and d.next_attempt_at <= now()",
    replace: "where d.status = 'pending' and d.next_attempt_at <= now()",
    description: 'the runner retries debits, not only credits and rollbacks',
  },
  {
    id: 'seamless-4', file: SEAMLESS, tests: seamlessTests,
    find: 'set total_bet = r.total_bet + t.amount,', replace: 'set total_bet = r.total_bet,',
    description: "an accepted debit is missing from its round's total",
  },
  {
    id: 'seamless-5', file: SEAMLESS, tests: seamlessTests,
    find: "status = case when wait is null then 'failed' else 'pending' end,", replace: "status = 'pending',",
    description: 'a credit the operator never takes is retried for ever, never failed',
  },
  {
    id: 'seamless-6', file: SEAMLESS, tests: seamlessTests,
    find: "    update public.round_transaction x set rolled_back = true where x.id = t.id;\n", replace: '',
    description: 'a failed debit leaves its bet standing (not rolled back)',
  },
  // The ledger and the test players' balances.
  {
    id: 'ledger-1', file: LEDGER, tests: ledgerTests,
    find: 'if balance + amount < 0 then', replace: 'if balance + amount <= 0 then',
    description: 'a withdrawal of the whole balance is refused',
  },
  {
    id: 'ledger-2', file: LEDGER, tests: ledgerTests,
    find: 'if balance + amount < 0 then', replace: 'if balance - amount < 0 then',
    description: 'the funds check has the sign of the amount backwards',
  },
  {
    id: 'ledger-3', file: LEDGER, tests: ledgerTests,
    find: 'if balance + amount >= 1e16 then', replace: 'if balance + amount > 1e16 then',
    description: 'a balance of exactly 1e16 is let through (numeric(20, 4) overflow)',
  },
  {
    id: 'ledger-4', file: LEDGER, tests: ledgerTests,
    find: '    and w.currency_code = record_transaction.currency_code\n  for update;',
    replace: '    and w.currency_code = record_transaction.currency_code;',
    description: "two movements of one wallet read the same balance (no row lock)",
  },
  {
    id: 'sandbox-1', file: SANDBOX, tests: sandboxTests,
    find: 'set balance = p.balance + amount', replace: 'set balance = p.balance - amount',
    description: "a test player's bet credits and its win debits",
  },
  {
    id: 'sandbox-2', file: SANDBOX, tests: sandboxTests,
    find: "case when p.behaviour = 'insufficient_funds' then 0 else p.balance end", replace: 'p.balance',
    description: 'a test player set to insufficient_funds bets anyway',
  },
  // Webhooks.
  {
    id: 'webhooks-1', file: WEBHOOKS, tests: webhookTests,
    find: "where d.status = 'pending' and d.next_attempt_at <= now()", replace: "where d.status = 'pending'",
    description: 'a delivery is claimed again within its lease, or before its retry is due',
  },
  {
    id: 'webhooks-2', file: WEBHOOKS, tests: webhookTests,
    find: " or delivery.attempts <> finish_delivery.attempt then", replace: ' then',
    description: 'the finish of a superseded attempt (a claim a later one replaced) counts',
  },
  {
    id: 'webhooks-3', file: WEBHOOKS, tests: webhookTests,
    find: 'make_interval(secs => greatest(s[failed_attempts]', replace: 'make_interval(secs => least(s[failed_attempts]',
    description: "a Retry-After longer than the schedule's wait is not honoured",
  },
  {
    id: 'webhooks-4', file: WEBHOOKS, tests: webhookTests,
    find: 'if finish_delivery.status_code = 410 or (endpoint.enabled', replace: 'if (endpoint.enabled',
    description: "an endpoint answering 410 Gone is retried, not disabled",
  },
  // Compliance and responsible gaming.
  {
    id: 'compliance-1', file: RESPONSIBLE, tests: restrictionTests,
    find: 'limit_amount := least(', replace: 'limit_amount := greatest(',
    description: "the stake limit is the looser of the player's and the jurisdiction's",
  },
  {
    id: 'compliance-2', file: RESPONSIBLE, tests: restrictionTests,
    find: 'if amount > limit_amount then', replace: 'if amount >= limit_amount then',
    description: 'a stake of exactly the limit is refused',
  },
  {
    id: 'compliance-3', file: RESPONSIBLE, tests: restrictionTests,
    find: ' or r.cool_off_until > now()) then', replace: ') then',
    description: 'a player cooling off plays',
  },
  {
    id: 'compliance-4', file: RESPONSIBLE, tests: restrictionTests,
    find: "if bet and (day_now > (limits->>'day')::numeric", replace: "if bet and (day_now >= (limits->>'day')::numeric",
    description: 'a bet that reaches the daily loss limit exactly is refused',
  },
  {
    id: 'compliance-5', file: RESPONSIBLE, tests: restrictionTests,
    find: "\n              or month_now > (limits->>'month')::numeric", replace: '',
    description: 'the monthly loss limit is not enforced',
  },
  {
    id: 'compliance-6', file: RESPONSIBLE, tests: restrictionTests,
    find: "or (current.cool_off_until > now() and coalesce(wanted.cool_off_until, '-infinity') < current.cool_off_until)",
    replace: 'or false',
    description: 'a cool-off can be shortened or lifted before it ends',
  },
  {
    id: 'compliance-7', file: COMPLIANCE, tests: ['tests/compliance/sessions.test.ts'],
    find: 'elsif country = any (j.blocked_countries) or (cardinality', replace: 'elsif (cardinality',
    description: "a jurisdiction's blocked country may launch sessions",
  },
  // Row-level security.
  {
    id: 'rls-1', file: LEDGER, tests: ['tests/policies/wallet.test.ts'],
    find: '"clients read their own wallets"\n  on public.wallet for select to authenticated\n  using (client_id = (select private.uid()));',
    replace: '"clients read their own wallets"\n  on public.wallet for select to authenticated\n  using (true);',
    description: "a client reads every client's wallets",
  },
  {
    id: 'rls-2', file: LEDGER, tests: ['tests/policies/transaction.test.ts'],
    find: '"clients read their own transactions"\n  on public.transaction for select to authenticated\n  using (client_id = (select private.uid()));',
    replace: '"clients read their own transactions"\n  on public.transaction for select to authenticated\n  using (true);',
    description: "a client reads every client's transactions",
  },
  {
    id: 'rls-3', file: WEBHOOKS, tests: ['tests/policies/webhooks.test.ts'],
    find: '"clients read their own webhook deliveries"\n  on public.webhook_delivery for select to authenticated\n  using (client_id = (select private.uid()));',
    replace: '"clients read their own webhook deliveries"\n  on public.webhook_delivery for select to authenticated\n  using (true);',
    description: "a client reads every client's webhook deliveries",
  },
];
