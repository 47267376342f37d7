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
const WEBHOOKS = '20261121000800_webhooks.sql';
const COMPLIANCE = '20261121000900_compliance.sql';
const RESPONSIBLE = '20261121001000_responsible_gaming.sql';
// Replaces private.move_money (the sandbox migration) and the ledger's event trigger.
const LEAN = '20261125000100_lean_bet_path.sql';
// Added round_caller (replaced by the lean caller's) and replaced move_money (whose mutations moved with it to the sandbox ledger).
const ENGINE = '20261126000100_lean_engine.sql';
// Replaces round_bet, round_win and round_rollback (the lean engine's, with free rounds): their mutations live here.
const FREE_PLAY = '20261126000200_free_round_play.sql';
// Replaces the engine's small language sql helpers (debit_pending, free_round_pay, ...) with plpgsql.
const HELPERS = '20261127000900_plpgsql_helpers.sql';
// Free rounds: one player's grant cancelled (DELETE /v3/free-rounds/campaigns/{id}/players/{player_id}).
const CANCEL_GRANT = '20261127003001_cancel_one_grant.sql';
// Replaces the request paths' language sql functions (retry_delay, wallet_call_json, ...) with plpgsql.
const REQUEST_PATHS = '20261127000910_plpgsql_request_paths.sql';
// Replaces private.claim_wallet_calls (the seamless wallet migration): its mutations live here.
const NOWHERE = '20261126000500_wallet_call_nowhere.sql';
// The sportsbook (issue 35): its bets, settlements, clawbacks and tombstones.
const SPORTSBOOK = '20261126000600_sportsbook.sql';
// The sportsbook in seamless mode: replaces the sportsbook's engine calls and private.finish_wallet_call
// (the seamless wallet migration): their mutations live here.
const SPORTSBOOK_SEAMLESS = '20261127001000_sportsbook_seamless.sql';
// The sportsbook's settlement, leaner: replaces sportsbook_move and sportsbook_settle (the seamless migration's):
// their mutations live here.
const LEAN_SETTLE = '20261207003001_lean_sportsbook_settle.sql';
// Replaces the one rule per field migration's private.reference_problems.
const REFERENCES = '20261126000800_reference_problems_plpgsql.sql';
// One rule per field (issue 37): replaces put_player_restrictions and session_compliance.
const FIELDS = '20261126000400_one_rule_per_field.sql';
// The sandbox's ledger (issue 37): replaces move_money (its test branch; the live one is the same text,
// so the live mutations of move_money live here too), put_sandbox_player and reset_sandbox.
const SANDBOX_LEDGER = '20261127002000_sandbox_ledger.sql';
// Replaces list_wallets and list_transactions: a test key reads the test floats and test ledger.
const SANDBOX_LEDGER_READS = '20261127002001_sandbox_ledger_reads.sql';
// A reset ends the sportsbook's test bets and clears the demo fixtures: replaces reset_sandbox (which the
// sandbox reset free rounds migration had replaced, its mutations with it) and sandbox_fixture_outcome.
const SANDBOX_RESET_SPORTSBOOK = '20261207003000_sandbox_reset_sportsbook.sql';
// A reset writes a seamless test bet's money back to what its wallet took: replaces sportsbook_reset_sandbox (the
// sandbox reset sportsbook migration's): its mutations live here.
const RESET_UNSENT = '20261207004900_sandbox_reset_unsent_calls.sql';
// The sportsbook's placement and settlement, leaner: replaces sportsbook_place (the seamless migration's) and
// sportsbook_settle (the lean settle migration's): their mutations live here.
const LEAN_EVENTS = '20261207005200_lean_sportsbook_events.sql';
// A call a sandbox reset wrote back is never sent again: replaces retry_wallet_call (the seamless wallet
// migration's): its mutations live here.
const RESET_CALLS_STAY_FAILED = '20261207005300_reset_bets_calls_stay_failed.sql';
// Reports: closed days rolled up by the delivery runner (replaces roll_up_ggr).
const REPORT_ROLL_UP = '20261207002001_ggr_roll_up_daily.sql';
// Reports: the sportsbook apart (replaces ggr_cells, ggr_rows, roll_up_ggr_cells, roll_up_ggr_fragments and
// ggr_report): the mutations of those functions live here.
const REPORT_SPORTSBOOK = '20261207005100_ggr_sportsbook.sql';
// Reconciliation: the sportsbook's calls as lines (replaces the reconciliation_line view, no function).
const RECONCILIATION_SPORTSBOOK = '20261208000100_reconciliation_sportsbook.sql';
// Reports and reconciliation: private.reconciliation_page, still this file's.
const RECONCILIATION_PAGE = '20261126000300_reports.sql';
// Replaces round_caller (the lean caller's, one statement per table, a win reading neither the profile nor the
// jurisdiction) and round_win (free round play's): their mutations live here.
const LEAN_WIN = '20261207004100_lean_win_caller.sql';
// The delivery runner fans queued events out to their deliveries (replaces emit_event, fan_out_events,
// claim_deliveries and event_deliveries).
const FAN_OUT = '20261208000000_fan_out_queue.sql';

// A session's restrictions and a float's client status as facts the bet reads (replaces round_caller: its mutations live here).
const FACTS = '20261208000200_restrictions_and_status_as_facts.sql';
// Reports: in test mode, a bet's money a sandbox reset wrote back (adds ggr_written_back, replaces ggr_rows).
const REPORT_WRITTEN_BACK = '20261208000400_ggr_sandbox_written_back.sql';
const roundTests = ['tests/rounds/engine.test.ts'];
const seamlessTests = ['tests/seamless/wallet-call.test.ts', 'tests/seamless/provider-flow.test.ts'];
const ledgerTests = ['tests/ledger/ledger.test.ts', 'tests/ledger/concurrency.test.ts'];
const sandboxTests = ['tests/sandbox/test-players.test.ts'];
const testLedgerTests = ['tests/sandbox/test-ledger.test.ts'];
const webhookTests = ['tests/webhooks/delivery.test.ts', 'tests/webhooks/outbox.test.ts'];
const fanOutTests = ['tests/webhooks/fan-out.test.ts'];
const betFactsTests = ['tests/compliance/bet-facts.test.ts'];
const restrictionTests = ['tests/compliance/restrictions.test.ts'];
const modeSwitchTests = ['tests/seamless/mode-switch.test.ts'];
const suspendedTests = ['tests/rounds/suspended-operator.test.ts'];
const heldWinTests = ['tests/rounds/held-wins.test.ts'];
const freeRoundTests = ['tests/free-rounds/play.test.ts'];
const sportsbookTests = ['tests/sportsbook/engine.test.ts'];
const sportsbookSeamlessTests = ['tests/sportsbook/seamless.test.ts'];
const sandboxResetSportsbookTests = ['tests/sportsbook/sandbox-reset.test.ts'];
const ggrResetTests = ['tests/reports/ggr-sandbox-reset.test.ts'];

export const sqlMutations: SqlMutation[] = [
  // The round engine.
  {
    id: 'rounds-1', file: FREE_PLAY, tests: roundTests,
    find: 'if coalesce(c.available, 0) < amount then', replace: 'if coalesce(c.available, 0) <= amount then',
    description: 'a bet of the whole balance is refused as insufficient funds',
  },
  {
    id: 'rounds-2', file: FREE_PLAY, tests: roundTests,
    find: 'if coalesce(c.available, 0) < amount then', replace: 'if false then',
    description: 'a bet above the balance is not refused as insufficient_funds',
  },
  {
    id: 'rounds-3', file: FREE_PLAY, tests: roundTests,
    find: 'if coalesce(round.total_bet, 0) + amount >= 1e16 then', replace: 'if coalesce(round.total_bet, 0) + amount > 1e16 then',
    description: "a round's bets may total exactly 1e16 (16 digits before the point)",
  },
  {
    id: 'rounds-4', file: FREE_PLAY, tests: roundTests,
    find: "if round.status in ('closed', 'cancelled') then", replace: "if round.status = 'cancelled' then", occurrence: 2,
    description: 'a closed round takes another bet',
  },
  {
    id: 'rounds-5', file: FREE_PLAY, tests: roundTests,
    find: "if s.status = 'created' and s.expires_at <= now() then", replace: "if s.status = 'created' and s.expires_at > now() then",
    description: 'the launch window is inverted: a fresh session is refused, an expired one bets',
  },
  {
    id: 'rounds-6', file: FREE_PLAY, tests: roundTests,
    find: "status = case when round_closed then 'closed' else r.status end", occurrence: 1, replace: 'status = r.status',
    description: 'a bet with round_closed leaves its round open',
  },
  {
    id: 'rounds-7', file: LEAN_WIN, tests: roundTests,
    find: "status = case when round_closed then 'closed' else r.status end", replace: 'status = r.status',
    description: 'a win with round_closed leaves its round open',
  },
  {
    id: 'rounds-8', file: LEAN_WIN, tests: roundTests,
    find: "    if bet.rolled_back then\n      return query select 'transaction_rolled_back'", replace: "    if false then\n      return query select 'transaction_rolled_back'",
    description: 'a win pays on a bet that was rolled back',
  },
  {
    id: 'rounds-9', file: LEAN_WIN, tests: roundTests,
    find: '\n    and (bet.id is null or t.id = bet.id);', replace: ';',
    description: 'a win that names one bet settles every bet of its round',
  },
  {
    id: 'rounds-10', file: LEAN_WIN, tests: roundTests,
    find: "  if round.status <> 'open' then\n    return query select 'round_closed'", replace: "  if false then\n    return query select 'round_closed'",
    description: 'a closed round takes a win',
  },
  {
    id: 'rounds-11', file: LEAN_WIN, tests: [...roundTests, ...restrictionTests],
    find: 'perform private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, -amount, false);',
    replace: 'perform private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, amount, false);',
    description: "a win adds to the player's loss tally instead of taking from it",
  },
  {
    id: 'rounds-12', file: FREE_PLAY, tests: roundTests,
    find: "  if bet.settled then\n    return query select 'bet_settled'", replace: "  if false then\n    return query select 'bet_settled'",
    description: 'a bet a win settled can be rolled back',
  },
  {
    id: 'rounds-13', file: FREE_PLAY, tests: roundTests,
    find: "ledger := private.move_money(s, round.currency_code, 'adjustment', bet.amount,", occurrence: 1,
    replace: "ledger := private.move_money(s, round.currency_code, 'adjustment', -bet.amount,",
    description: 'a rollback takes the bet again instead of giving it back',
  },
  {
    id: 'rounds-14', file: FREE_PLAY, tests: roundTests,
    find: 'cancel := round.total_bet - bet.amount = 0 and round.total_win = 0', replace: 'cancel := round.total_win = 0',
    description: 'rolling back one bet cancels a round that has other bets',
  },
  {
    id: 'rounds-15', file: FREE_PLAY, tests: [...roundTests, ...restrictionTests],
    find: 'perform private.count_loss(s.client_id, s.livemode, s.player_id, round.currency_code, -bet.amount, false);',
    replace: 'perform private.count_loss(s.client_id, s.livemode, s.player_id, round.currency_code, bet.amount, false);',
    description: "a rolled-back bet stays counted in the player's losses (counted twice)",
  },
  {
    id: 'rounds-16', file: FREE_PLAY, tests: roundTests,
    find: "where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back and not t.settled", occurrence: 2,
    replace: "where t.round_id = round.id and t.kind = 'bet' and not t.settled",
    description: 'cancelling a round gives back a bet that was already rolled back (paid twice)',
  },
  {
    id: 'rounds-17', file: FREE_PLAY, tests: roundTests,
    find: 'if round.total_win > 0 or exists (select 1 from public.round_transaction t where t.round_id = round.id and t.settled) then',
    replace: 'if round.total_win > 0 then',
    description: 'staff cancel a round a win of 0 settled',
  },
  {
    id: 'rounds-18', file: FREE_PLAY, tests: roundTests,
    find: "    update public.round_transaction t set settled = true where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back;",
    replace: '    null;',
    description: 'a round closed by staff leaves its bets open to a later rollback',
  },
  {
    id: 'rounds-19', file: LEAN_WIN, tests: ['tests/rounds/interleavings.test.ts'],
    find: "where r.provider_id = c.provider_id and r.provider_round_id = round_win.round_id\n  for update;",
    replace: 'where r.provider_id = c.provider_id and r.provider_round_id = round_win.round_id;',
    description: 'a win does not lock its round (a concurrent rollback or win interleaves)',
  },
  // The lean engine: the caller read in one statement, the balance locked last by the movement.
  {
    id: 'rounds-47', file: SANDBOX_LEDGER, tests: roundTests, occurrence: 1,
    find: 'and w.balance + move_money.amount >= 0 and w.balance + move_money.amount < 1e16', replace: 'and w.balance + move_money.amount < 1e16',
    description: 'a bet whose balance another movement took fails on the wallet\'s check (an error) instead of running again',
  },
  {
    id: 'rounds-48', file: FACTS, tests: restrictionTests,
    find: 'if bet and not may_refuse and s.jurisdiction is not null then', replace: 'if false then',
    description: "a jurisdiction's maximum stake is not enforced for a player without restrictions",
  },
  {
    id: 'rounds-49', file: FACTS, tests: restrictionTests,
    find: "nullif(pr.loss_limits -> s.currency_code, '{}'::jsonb) into", replace: 'null::jsonb into',
    description: 'loss limits are never counted nor enforced',
  },
  {
    id: 'rounds-50', file: FACTS, tests: sandboxTests,
    find: "case sp.behaviour when 'failing_wallet' then 'wallet_failed' when 'slow_wallet' then 'wallet_timeout' end",
    replace: 'null::text',
    description: "a test player's failing or slow wallet takes bets",
  },
  {
    id: 'rounds-51', file: FREE_PLAY, tests: roundTests,
    find: "'transfer', amount, case when round_closed then 'closed' else 'open' end,\n            case when round_closed then now() end)",
    replace: "'transfer', amount, 'open',\n            null)",
    description: "a round's first bet with round_closed leaves it open",
  },
  {
    id: 'rounds-52', file: FREE_PLAY, tests: ['tests/webhooks/outbox.test.ts'],
    find: "    if round_closed then\n      perform private.emit_event(s.client_id, s.livemode, 'round.closed',", occurrence: 2,
    replace: "    if false then\n      perform private.emit_event(s.client_id, s.livemode, 'round.closed',",
    description: 'a round closed by its first bet is never told (round.closed)',
  },
  // The caller's read (round_caller, one statement per table; a win reads neither the profile nor the jurisdiction).
  {
    id: 'rounds-53', file: FACTS, tests: ['tests/rounds/provider-api.test.ts'],
    find: "where k.key_hash = round_caller.key_hash and k.status = 'active';", replace: 'where k.key_hash = round_caller.key_hash;',
    description: 'a revoked provider key still plays',
  },
  {
    id: 'rounds-54', file: FACTS, tests: ['tests/rounds/provider-api.test.ts'],
    find: 'gs.id = round_caller.session_id and gs.provider_id = k.provider_id', replace: 'gs.id = round_caller.session_id',
    description: "a provider's key plays another provider's session",
  },
  {
    id: 'rounds-55', file: FACTS, tests: [...suspendedTests, ...betFactsTests],
    find: "  if bet and client_active is null then\n    select p.status = 'active' into client_active",
    replace: "  if not bet and client_active is null then\n    select p.status = 'active' into client_active",
    description: "a bet without its client's status on a float (a test session's) reads none (a suspended client's test sessions bet)",
  },
  {
    id: 'rounds-56', file: FACTS, tests: sandboxTests,
    find: '  if s.livemode then\n    select w.balance, ', replace: '  if true then\n    select w.balance, ',
    description: "a test session is judged on the float, not its test player's balance and behaviour",
  },
  {
    id: 'rounds-57', file: FACTS, tests: restrictionTests,
    find: '  may_refuse := coalesce(may_refuse, false);\n', replace: '',
    description: "a player with no restrictions of their own escapes the jurisdiction's maximum stake",
  },
  // A round settles in the wallet it started in (game_round.wallet_mode), whatever the mode later.
  {
    id: 'rounds-20', file: FREE_PLAY, tests: modeSwitchTests,
    find: "seamless := coalesce(round.wallet_mode = 'seamless', seamless);", occurrence: 2,
    replace: 'seamless := seamless;',
    description: "a bet into an open round moves money in the mode in force, not the round's wallet",
  },
  {
    id: 'rounds-21', file: FREE_PLAY, tests: modeSwitchTests,
    find: "seamless := coalesce(round.wallet_mode = 'seamless', began.seamless);",
    replace: 'seamless := began.seamless;',
    description: 'a bet rolled back after a switch of mode is given back in the other wallet',
  },
  {
    id: 'rounds-22', file: FREE_PLAY, tests: [...modeSwitchTests, 'tests/seamless/provider-flow.test.ts'],
    find: "seamless := coalesce(round.wallet_mode = 'seamless', began.seamless);",
    replace: "seamless := coalesce(round.wallet_mode = 'seamless', false);",
    description: "a rollback of a bet nobody has seen (a tombstone) in seamless mode never reaches the operator",
  },
  {
    id: 'rounds-46', file: FREE_PLAY, tests: modeSwitchTests,
    find: "if seamless and bet.id is not null and private.round_transaction_state(bet) = 'wallet_pending' then",
    replace: "if seamless and private.round_transaction_state(bet) = 'wallet_pending' then",
    description: 'a seamless rollback of a bet nobody has seen is answered transaction_pending forever, and the bet after it is taken',
  },
  {
    id: 'rounds-23', file: LEAN_WIN, tests: modeSwitchTests,
    find: "seamless := round.wallet_mode = 'seamless';",
    replace: "seamless := private.lock_wallet_mode(round.client_id, round.livemode, false) = 'seamless';",
    description: "a win of an open round is paid in the mode in force, not the round's wallet",
  },
  {
    id: 'rounds-24', file: FREE_PLAY, tests: modeSwitchTests,
    find: "seamless := round.wallet_mode = 'seamless';", occurrence: 3,
    replace: "seamless := private.lock_wallet_mode(round.client_id, round.livemode, false) = 'seamless';",
    description: "staff cancelling a round give its bets back in the mode in force, not the round's wallet",
  },
  // A suspended or closed client takes no new bets.
  {
    id: 'rounds-25', file: FACTS, tests: suspendedTests,
    find: "update public.wallet w set client_active = new.status = 'active'", replace: "update public.wallet w set client_active = new.status <> 'suspended'",
    description: "a closed client's sessions take new bets",
  },
  {
    id: 'rounds-26', file: FACTS, tests: [...suspendedTests, ...betFactsTests],
    find: 'from public.profile p where p.id = s.client_id;', replace: "from public.profile p where p.status = 'active' limit 1;",
    description: "a suspended client's sessions bet while any other client is active",
  },
  {
    id: 'rounds-27', file: FREE_PLAY, tests: suspendedTests,
    find: "  if not c.client_active then\n    return query select 'operator_suspended'",
    replace: "  if false then\n    return query select 'operator_suspended'",
    description: "a suspended client's sessions take new bets",
  },
  // Held wins: private.win_limit_passed, round_win's held branches, private.review_win.
  {
    id: 'rounds-28', file: ROUNDS, tests: heldWinTests,
    find: 'round.total_win + amount > l.max_multiple * round.total_bet', replace: 'round.total_win + amount >= l.max_multiple * round.total_bet',
    description: 'a win of exactly the multiple limit is held',
  },
  {
    id: 'rounds-29', file: ROUNDS, tests: heldWinTests,
    find: 'round.total_win + amount > l.max_amount', replace: 'round.total_win + amount >= l.max_amount',
    description: 'a win of exactly the amount limit is held',
  },
  {
    id: 'rounds-30', file: ROUNDS, tests: heldWinTests,
    find: 'round.total_win + amount > l.max_multiple * round.total_bet', replace: 'amount > l.max_multiple * round.total_bet',
    description: "a round's earlier wins do not count towards its multiple limit",
  },
  {
    id: 'rounds-31', file: ROUNDS, tests: heldWinTests,
    find: 'round.total_win + amount > l.max_amount', replace: 'amount > l.max_amount',
    description: "a round's earlier wins do not count towards its amount limit",
  },
  {
    id: 'rounds-32', file: ROUNDS, tests: heldWinTests,
    find: 'and (l.game is null or l.game = round.game)', replace: 'and (l.game = round.game)',
    description: "the platform's and a provider's limits (no game) hold nothing",
  },
  {
    id: 'rounds-33', file: ROUNDS, tests: heldWinTests,
    find: 'and (l.game is null or l.game = round.game)', replace: 'and true',
    description: "one game's limit holds the wins of every game",
  },
  {
    id: 'rounds-34', file: ROUNDS, tests: heldWinTests,
    find: 'where (l.provider_id is null or l.provider_id = round.provider_id)', replace: 'where true',
    description: "one provider's limit holds the wins of every provider",
  },
  {
    id: 'rounds-35', file: ROUNDS, tests: heldWinTests,
    find: 'l.currency_code = round.currency_code and ', replace: '',
    description: "an amount limit in one currency holds wins in every currency",
  },
  {
    id: 'rounds-36', file: ROUNDS, tests: heldWinTests,
    find: 'order by l.game nulls last, l.provider_id nulls last', replace: 'order by l.game nulls first, l.provider_id nulls first',
    description: 'a held win names the least specific limit it passed, not the most specific',
  },
  {
    id: 'rounds-37', file: LEAN_WIN, tests: heldWinTests,
    find: 'set total_win = r.total_win + case when held_by is null then amount else 0 end,', replace: 'set total_win = r.total_win + amount,',
    description: "a held win counts in its round's total_win before it is paid",
  },
  {
    id: 'rounds-38', file: LEAN_WIN, tests: heldWinTests,
    find: '  if amount > 0 and held_by is null and c.loss_limits is not null then\n    perform private.count_loss',
    replace: '  if amount > 0 and c.loss_limits is not null then\n    perform private.count_loss',
    description: "a held win takes from the player's loss tally before it is paid (and even if rejected)",
  },
  {
    id: 'rounds-39', file: LEAN_WIN, tests: heldWinTests,
    find: 'case when not seamless or held_by is not null', replace: 'case when not seamless',
    description: 'a held win in seamless mode has no answer (it waits for a credit call never made)',
  },
  {
    id: 'rounds-40', file: LEAN_WIN, tests: heldWinTests,
    find: '  if amount > 0 then\n    held_by := private.win_limit_passed(round, amount);\n  end if;', replace: '',
    description: 'no win is ever held',
  },
  {
    id: 'rounds-41', file: ROUNDS, tests: heldWinTests,
    find: "  if held.status <> 'held' then\n    if held.status = decided then", replace: "  if held.status = 'rejected' then\n    if held.status = decided then",
    description: 'a released win released again is paid again',
  },
  {
    id: 'rounds-42', file: ROUNDS, tests: heldWinTests,
    find: '    if held.status = decided then\n      return held;\n    end if;', replace: '',
    description: 'deciding a held win the same way again is refused, not answered unchanged',
  },
  {
    id: 'rounds-43', file: ROUNDS, tests: heldWinTests,
    find: "    if round.wallet_mode = 'seamless' then\n      perform private.queue_wallet_call(win, s, 'credit'",
    replace: "    if private.lock_wallet_mode(round.client_id, round.livemode, false) = 'seamless' then\n      perform private.queue_wallet_call(win, s, 'credit'",
    description: "a held win released after a switch of mode is paid in the mode in force, not the round's wallet",
  },
  {
    id: 'rounds-44', file: ROUNDS, tests: heldWinTests,
    find: 'round.currency_code, -held.amount, false);', replace: 'round.currency_code, held.amount, false);',
    description: "a released win adds to the player's loss tally instead of taking from it",
  },
  {
    id: 'rounds-45', file: ROUNDS, tests: heldWinTests,
    find: '    update public.game_round r set total_win = r.total_win + held.amount where r.id = round.id;\n', replace: '',
    description: "a released win is missing from its round's total_win",
  },
  // The seamless wallet.
  {
    id: 'seamless-1', file: SPORTSBOOK_SEAMLESS, tests: seamlessTests, occurrence: 2,
    find: "if call.status <> 'pending' or call.attempts <> attempt then", replace: "if call.status <> 'pending' then",
    description: "a superseded attempt's answer finishes a wallet call",
  },
  {
    id: 'seamless-2', file: SPORTSBOOK_SEAMLESS, tests: seamlessTests, occurrence: 2,
    find: "if call.status <> 'pending' or call.attempts <> attempt then", replace: 'if call.attempts <> attempt then',
    description: 'a wallet call already finished is finished again',
  },
  {
    id: 'seamless-3', file: NOWHERE, tests: seamlessTests,
    find: "where d.status = 'pending' and d.action <> 'debit' and d.next_attempt_at <= now()",
    replace: "where d.status = 'pending' and d.next_attempt_at <= now()",
    description: 'the runner retries debits, not only credits and rollbacks',
  },
  {
    id: 'seamless-4', file: SPORTSBOOK_SEAMLESS, tests: seamlessTests,
    find: 'set total_bet = r.total_bet + t.amount,', replace: 'set total_bet = r.total_bet,',
    description: "an accepted debit is missing from its round's total",
  },
  {
    id: 'seamless-5', file: SPORTSBOOK_SEAMLESS, tests: seamlessTests,
    find: "status = case when wait is null then 'failed' else 'pending' end,", occurrence: 2, replace: "status = 'pending',",
    description: 'a credit the operator never takes is retried for ever, never failed',
  },
  {
    id: 'seamless-6', file: SPORTSBOOK_SEAMLESS, tests: seamlessTests, occurrence: 2,
    find: "    update public.round_transaction x set rolled_back = true where x.id = t.id;\n", replace: '',
    description: 'a failed debit leaves its bet standing (not rolled back)',
  },
  {
    id: 'seamless-7', file: SPORTSBOOK_SEAMLESS, tests: heldWinTests,
    find: "if t.response_body is null and not (t.kind = 'bet' and call.action = 'rollback') then",
    replace: "if not (t.kind = 'bet' and call.action = 'rollback') then",
    description: "a released held win's credit overwrites the answer the provider was given when it was held",
  },
  {
    id: 'seamless-8', file: SPORTSBOOK_SEAMLESS, tests: seamlessTests,
    find: "if t.response_body is null and not (t.kind = 'bet' and call.action = 'rollback') then",
    replace: 'if t.response_body is null then',
    description: "a failed debit's compensating rollback gives the failed bet an OK answer",
  },
  {
    id: 'seamless-9', file: HELPERS, tests: seamlessTests,
    find: "c.action = 'debit' and c.status = 'pending'", replace: "c.action = 'debit'",
    description: 'a win waits for any debit of its round, even one the operator answered',
  },
  {
    id: 'seamless-10', file: NOWHERE, tests: seamlessTests,
    find: "where d.status = 'pending' and d.action = 'debit' and d.next_attempt_at <= now()",
    replace: "where d.status = 'pending' and d.action = 'debit'",
    description: 'the runner fails a debit whose caller is still waiting for the operator',
  },
  {
    id: 'seamless-11', file: RESET_CALLS_STAY_FAILED, tests: seamlessTests,
    find: "where c.id = retry_wallet_call.call_id and c.status = 'failed' and c.action <> 'debit'",
    replace: "where c.id = retry_wallet_call.call_id and c.status = 'failed'",
    description: 'staff can send a failed debit again (the player would be charged for a bet already undone)',
  },
  {
    id: 'seamless-12', file: SPORTSBOOK_SEAMLESS, tests: restrictionTests,
    find: "perform private.count_loss(call.client_id, call.livemode, call.request->>'player_id', call.request->>'currency', -t.amount, false);\n    delete",
    replace: "perform private.count_loss(call.client_id, call.livemode, call.request->>'player_id', call.request->>'currency', t.amount, false);\n    delete",
    description: "a debit the operator refused stays counted in the player's losses (counted twice)",
  },
  {
    id: 'seamless-13', file: NOWHERE, tests: ['tests/webhooks/delivery.test.ts'],
    find: /coalesce\(private\.wallet_call_json\(c\.id, c\.attempts, c\.client_id, c\.livemode, c\.request\),\s+json_build_object\([^;]*\)\)\s+from claimed c;/,
    replace: 'private.wallet_call_json(c.id, c.attempts, c.client_id, c.livemode, c.request)\n  from claimed c;',
    description: 'a due call whose client has no wallet settings (or secret) any more is claimed as null, and the runner stops for every client',
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
    id: 'ledger-5', file: LEDGER, tests: ledgerTests,
    find: 'if amount = 0 or abs(amount) >= 1e16 then', replace: 'if abs(amount) >= 1e16 then',
    description: 'a movement of 0 is recorded',
  },
  {
    id: 'ledger-6', file: LEDGER, tests: ledgerTests,
    find: "if (type in ('deposit', 'win') and amount < 0) or ", replace: 'if ',
    description: 'a deposit or a win may take money out',
  },
  {
    id: 'ledger-7', file: LEDGER, tests: ledgerTests,
    find: 'if amount <> round(amount, 4) then', replace: 'if false then',
    description: 'an amount with more than four decimal places is rounded silently, not refused',
  },
  {
    id: 'ledger-8', file: SANDBOX_LEDGER, tests: roundTests, occurrence: 1,
    find: 'set balance = w.balance + move_money.amount', replace: 'set balance = w.balance - move_money.amount',
    description: "the engine's bet credits the float and its win debits it",
  },
  {
    id: 'ledger-9', file: SANDBOX_LEDGER, tests: roundTests, occurrence: 1,
    find: 'where w.client_id = s.client_id and w.currency_code = move_money.currency\n',
    replace: 'where w.client_id = s.client_id\n',
    description: "a round's movement in one currency moves every wallet of the client",
  },
  {
    id: 'sandbox-1', file: SANDBOX_LEDGER, tests: sandboxTests,
    find: 'set balance = p.balance + move_money.amount', replace: 'set balance = p.balance - move_money.amount',
    description: "a test player's bet credits and its win debits",
  },
  {
    // The caller's read gives a test player's balance since the lean caller (round_caller).
    id: 'sandbox-2', file: FACTS, tests: sandboxTests,
    find: "case when sp.behaviour = 'insufficient_funds' then 0 else sp.balance end", replace: 'sp.balance',
    description: 'a test player set to insufficient_funds bets anyway',
  },
  // The sandbox's ledger: the test float is its test players' balances summed, moved with a line.
  {
    id: 'sandbox-3', file: SANDBOX_LEDGER, tests: testLedgerTests,
    find: 'update public.sandbox_wallet w set balance = w.balance + move_money.amount',
    replace: 'update public.sandbox_wallet w set balance = w.balance - move_money.amount',
    description: "a test bet credits the test float and a test win debits it",
  },
  {
    id: 'sandbox-4', file: SANDBOX_LEDGER, tests: testLedgerTests,
    find: "select s.client_id, move_money.type, move_money.currency, move_money.amount, f.balance, move_money.note from test_float f",
    replace: "select s.client_id, move_money.type, move_money.currency, move_money.amount, f.balance, move_money.note from test_float f where false",
    description: 'test play moves the test float without a line in the test ledger (its round transactions name none)',
  },
  {
    id: 'sandbox-5', file: SANDBOX_LEDGER, tests: testLedgerTests,
    find: "case when made.balance > was then 'deposit' else 'withdraw' end, made.balance - was,",
    replace: "case when made.balance > was then 'deposit' else 'withdraw' end, made.balance,",
    description: "a test player's balance set again adds the whole new balance to the test float, not the difference",
  },
  {
    id: 'sandbox-6', file: SANDBOX_LEDGER, tests: testLedgerTests,
    find: "perform private.record_sandbox_transaction(new.client_id, new.currency_code, 'deposit', new.balance,",
    replace: "perform private.record_sandbox_transaction(new.client_id, new.currency_code, 'deposit', 0,",
    description: "a new test player's opening balance is not in the test float",
  },
  {
    id: 'sandbox-7', file: SANDBOX_RESET_SPORTSBOOK, tests: testLedgerTests,
    find: 'delete from public.sandbox_wallet w where w.client_id = caller.client_id;', replace: '',
    description: 'a reset leaves the test floats as they were (the next test player adds to an old sum)',
  },
  {
    id: 'sandbox-8', file: SANDBOX_LEDGER, tests: testLedgerTests,
    find: "    when numeric_value_out_of_range then\n      return query select 'float_too_large', null::text;",
    replace: "    when numeric_value_out_of_range then\n      raise;",
    description: 'a test balance that takes the test float past its maximum is a 500, not a 400 on balance',
  },
  {
    id: 'sandbox-15', file: SANDBOX_LEDGER, tests: testLedgerTests,
    find: '  perform private.lock_wallet_mode(caller.client_id, false, false);\n', replace: '',
    description: 'a reset that meets a new test player being made leaves that player without its test float',
  },
  {
    id: 'sandbox-9', file: SANDBOX_LEDGER_READS, tests: testLedgerTests,
    find: 'where not a.livemode and w.client_id = a.client_id', replace: 'where w.client_id = a.client_id',
    description: "a live key's GET /v3/wallets lists the test floats too",
  },
  {
    id: 'sandbox-10', file: SANDBOX_LEDGER_READS, tests: testLedgerTests,
    find: 'where not a.livemode and t.client_id = a.client_id', replace: 'where t.client_id = a.client_id',
    description: "a live key's GET /v3/transactions lists test lines too",
  },
  {
    id: 'sandbox-11', file: SANDBOX_LEDGER_READS, tests: testLedgerTests, occurrence: 2,
    find: 'or t.ledger_seq < list_transactions.before_seq)', replace: 'or t.ledger_seq <= list_transactions.before_seq)',
    description: "the test ledger's next page repeats the last line of the page before",
  },
  {
    id: 'sandbox-12', file: SANDBOX_RESET_SPORTSBOOK, tests: ['tests/sandbox/reset.test.ts'],
    find: "where g.client_id = caller.client_id and not g.livemode and g.status in ('pending', 'in_progress') and g.expires_at > now();",
    replace: "where g.client_id = caller.client_id and not g.livemode and g.status = 'pending' and g.expires_at > now();",
    description: 'a test grant in play stays in_progress after a reset',
  },
  {
    id: 'sandbox-13', file: SANDBOX_RESET_SPORTSBOOK, tests: ['tests/sandbox/reset.test.ts'],
    find: 'and not c.livemode and c.cancelled_at is null and c.valid_until > now();', replace: 'and c.cancelled_at is null and c.valid_until > now();',
    description: "a test key's reset cancels the live campaigns too",
  },
  {
    id: 'sandbox-14', file: SANDBOX_RESET_SPORTSBOOK, tests: ['tests/sandbox/reset.test.ts'],
    find: 'and not c.livemode and c.cancelled_at is null and c.valid_until > now();', replace: 'and not c.livemode and c.cancelled_at is null;',
    description: 'a reset cancels a test campaign already ended (its end rewritten as a cancel)',
  },
  // Webhooks.
  {
    id: 'webhooks-1', file: FAN_OUT, tests: webhookTests,
    find: "where d.status = 'pending' and d.next_attempt_at <= now()", replace: "where d.status = 'pending'",
    description: 'a delivery is claimed again within its lease, or before its retry is due',
  },
  {
    id: 'webhooks-2', file: WEBHOOKS, tests: webhookTests,
    find: " or delivery.attempts <> finish_delivery.attempt then", replace: ' then',
    description: 'the finish of a superseded attempt (a claim a later one replaced) counts',
  },
  {
    id: 'webhooks-3', file: REQUEST_PATHS, tests: webhookTests,
    find: 'make_interval(secs => greatest(s[failed_attempts]', replace: 'make_interval(secs => least(s[failed_attempts]',
    description: "a Retry-After longer than the schedule's wait is not honoured",
  },
  {
    id: 'webhooks-4', file: WEBHOOKS, tests: webhookTests,
    find: 'if finish_delivery.status_code = 410 or (endpoint.enabled', replace: 'if (endpoint.enabled',
    description: "an endpoint answering 410 Gone is retried, not disabled",
  },
  {
    id: 'webhooks-5', file: FAN_OUT, tests: [...webhookTests, ...fanOutTests],
    find: 'on e.client_id = ev.client_id and e.livemode = ev.livemode and e.enabled',
    replace: 'on e.client_id = ev.client_id and e.livemode = ev.livemode',
    description: 'a disabled endpoint is sent new events',
  },
  {
    id: 'webhooks-6', file: FAN_OUT, tests: [...webhookTests, ...fanOutTests],
    find: 'on e.client_id = ev.client_id and e.livemode = ev.livemode and e.enabled',
    replace: 'on e.client_id = ev.client_id and e.enabled',
    description: "a test event is sent to the live endpoints (and a live one to the test endpoints)",
  },
  {
    id: 'webhooks-7', file: WEBHOOKS, tests: webhookTests,
    find: 'if finish_delivery.status_code between 200 and 299 then', replace: 'if finish_delivery.status_code between 200 and 399 then',
    description: 'a redirect counts as delivered',
  },
  {
    id: 'webhooks-8', file: WEBHOOKS, tests: webhookTests,
    find: "endpoint.failing_since <= now() - interval '5 days'", replace: "endpoint.failing_since >= now() - interval '5 days'",
    description: 'an endpoint is disabled at its first failure, not after five days of them',
  },
  {
    id: 'webhooks-9', file: FAN_OUT, tests: webhookTests,
    find: 'case when s.previous_until > now() then s.previous_secret end', replace: 's.previous_secret',
    description: "a rotated secret keeps signing after its 24 hours",
  },
  {
    id: 'webhooks-10', file: WEBHOOKS, tests: webhookTests,
    find: '    update public.webhook_endpoint e set failing_since = null where e.id = delivery.endpoint_id and e.failing_since is not null;\n',
    replace: '',
    description: 'an endpoint that recovered is still disabled five days after its first failure',
  },
  {
    id: 'webhooks-11', file: LEAN, tests: ['tests/webhooks/outbox.test.ts'],
    find: "if new.type not in ('bet', 'win') then", replace: 'if true then',
    description: "a round's bets are each a transaction.created event again (the round's events report them)",
  },
  {
    id: 'webhooks-12', file: LEAN, tests: ['tests/money/wallet-settings.test.ts'],
    find: 'if new.balance_after < threshold and new.balance_after - new.amount >= threshold then',
    replace: 'if new.balance_after < threshold then',
    description: 'wallet.balance_low is sent at every movement below the alert, not once per crossing',
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
    id: 'compliance-6', file: FIELDS, tests: restrictionTests,
    find: "or (current.cool_off_until > now() and coalesce(wanted.cool_off_until, '-infinity') < current.cool_off_until)",
    replace: 'or false',
    description: 'a cool-off can be shortened or lifted before it ends',
  },
  {
    id: 'compliance-7', file: FIELDS, tests: ['tests/compliance/sessions.test.ts'],
    find: 'and (country = any (j.blocked_countries) or (cardinality', replace: 'and ((cardinality',
    description: "a jurisdiction's blocked country may launch sessions",
  },
  {
    id: 'compliance-8', file: RESPONSIBLE, tests: restrictionTests,
    find: ' or r.self_excluded_until > now() or', replace: ' or',
    description: 'a player self-excluded until a date plays',
  },
  {
    id: 'compliance-9', file: RESPONSIBLE, tests: restrictionTests,
    find: 'now() - started > make_interval(mins => r.session_time_limit_minutes)', replace: 'started - now() > make_interval(mins => r.session_time_limit_minutes)',
    description: 'the session time limit is never reached',
  },
  {
    id: 'compliance-10', file: RESPONSIBLE, tests: restrictionTests,
    find: 'day_now := case when tally.day_start = utc::date then tally.day_loss else 0 end + amount;',
    replace: 'day_now := tally.day_loss + amount;',
    description: "yesterday's losses count against today's limit",
  },
  {
    id: 'compliance-11', file: RESPONSIBLE, tests: restrictionTests,
    find: " or week_now > (limits->>'week')::numeric", replace: '',
    description: 'the weekly loss limit is not enforced',
  },
  {
    id: 'compliance-12', file: RESPONSIBLE, tests: restrictionTests,
    find: 'where j.code = jurisdiction and j.max_stake_currency = currency', replace: 'where j.code = jurisdiction',
    description: "a jurisdiction's maximum stake in one currency caps stakes in every currency",
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
  {
    id: 'sportsbook-1', file: LEAN_SETTLE, tests: sportsbookTests,
    find: "delta numeric := new_payout - bet.payout;",
    replace: "delta numeric := new_payout;",
    description: "a settlement pays its whole payout again instead of the difference from the payout in force",
  },
  {
    id: 'sportsbook-2', file: LEAN_SETTLE, tests: sportsbookTests,
    find: "    owed_added := -delta - taken;",
    replace: "    owed_added := 0;",
    description: "a clawback the balance cannot cover is dropped instead of owed",
  },
  {
    id: 'sportsbook-3', file: LEAN_SETTLE, tests: sportsbookTests,
    find: "and b.currency_code = bet.currency_code and b.owed > 0 and b.round_id <> bet.round_id",
    replace: "and b.currency_code = bet.currency_code and false",
    description: "the player's owed clawbacks are never taken from its next payouts",
  },
  {
    id: 'sportsbook-4', file: LEAN_SETTLE, tests: sportsbookTests,
    find: "    forgiven := least(delta, bet.owed);",
    replace: "    forgiven := 0;",
    description: "a rise of a bet's payout pays out while the bet itself owes a clawback",
  },
  {
    id: 'sportsbook-5', file: LEAN_SETTLE, tests: sportsbookTests,
    find: "movement := private.move_money(s, round.currency_code, 'adjustment', -take,",
    replace: "movement := private.move_money(s, round.currency_code, 'adjustment', take,",
    description: "an owed clawback taken from a payout credits the float instead of debiting it",
  },
  {
    id: 'sportsbook-6', file: LEAN_EVENTS, tests: sportsbookTests,
    find: "where t.provider_id = c.provider_id and t.kind = 'sportsbook_discard' and t.related_transaction_id = bet_id",
    replace: "where false",
    description: "a bet arriving after its discard is taken",
  },
  {
    id: 'sportsbook-7', file: LEAN_EVENTS, tests: sportsbookTests,
    find: "where t.provider_id = provider and t.kind = 'sportsbook_unsettle'",
    replace: "where false",
    description: "a settlement arriving after an unsettle that named it is applied",
  },
  {
    id: 'sportsbook-8', file: LEAN_EVENTS, tests: sportsbookTests,
    find: "refusal := private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, amount, true);",
    replace: "refusal := private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, 0, true);",
    description: "a stake is not counted against loss limits at placement",
  },
  {
    id: 'sportsbook-9', file: LEAN_SETTLE, tests: sportsbookTests,
    find: "perform private.count_loss(bet.client_id, bet.livemode, bet.player_id, bet.currency_code, -delta, false);",
    replace: "perform private.count_loss(bet.client_id, bet.livemode, bet.player_id, bet.currency_code, delta, false);",
    description: "a payout counts as a loss",
  },
  {
    id: 'sportsbook-10', file: LEAN_EVENTS, tests: sportsbookTests,
    find: "  if (result = 'lost' and payout <> 0) or ",
    replace: "  if ",
    description: "a lost bet pays",
  },
  {
    id: 'sportsbook-11', file: SPORTSBOOK_SEAMLESS, tests: sportsbookTests,
    find: "  if settlement_transaction_id is null or bet.settlement_transaction_id = settlement_transaction_id then",
    replace: "  if true then",
    description: "an unsettle naming a settlement a later one replaced undoes the later one",
  },
  {
    id: 'sportsbook-12', file: LEAN_EVENTS, tests: sportsbookTests,
    find: "  if was in ('reserved', 'discarded', 'closed') then",
    replace: "  if was in ('reserved', 'discarded') then",
    description: "a closed bet is settled again",
  },
  {
    id: 'sportsbook-13', file: LEAN_EVENTS, tests: sportsbookTests,
    find: "          case when two_phase then 'reserved' else 'open' end, amount, odds, potential_payout, selections)",
    replace: "          'open', amount, odds, potential_payout, selections)",
    description: "a two-phase bet is open before it is committed",
  },
  {
    id: 'sportsbook-14', file: LEAN_EVENTS, tests: sportsbookTests,
    find: "case when seamless then 'seamless' else 'transfer' end, amount, 'closed', now())",
    replace: "case when seamless then 'seamless' else 'transfer' end, amount, 'open', null)",
    description: "a bet's round is open: casino wins pay on it",
  },
  {
    id: 'sportsbook-15', file: SPORTSBOOK_SEAMLESS, tests: sportsbookTests,
    find: "    where b.status = 'reserved' and b.placed_at < now() - after",
    replace: "    where false",
    description: "reserved bets left too long are never discarded",
  },
  {
    id: 'sportsbook-16', file: SPORTSBOOK_SEAMLESS, tests: sportsbookTests,
    find: "  if bet.status not in ('reserved', 'discarded') then",
    replace: "  if bet.status not in ('reserved', 'discarded', 'open') then",
    description: "an open bet is discarded",
  },
  // The sportsbook in seamless mode (its calls to the operator's wallet).
  {
    id: 'sportsbook-17', file: SPORTSBOOK_SEAMLESS, tests: sportsbookSeamlessTests,
    find: "  if t.kind like 'sportsbook\\_%' then", replace: '  if false then',
    description: "a sportsbook bet's wallet call is finished by the casino's rules (a stake's bet never stands, a failed one is never discarded)",
  },
  {
    id: 'sportsbook-18', file: LEAN_EVENTS, tests: sportsbookSeamlessTests,
    find: "  seamless := private.lock_wallet_mode(s.client_id, s.livemode, false) = 'seamless';",
    replace: "  perform private.lock_wallet_mode(s.client_id, s.livemode, false);\n  seamless := false;",
    description: "a seamless operator's bet takes its stake from the float",
  },
  {
    id: 'sportsbook-19', file: LEAN_SETTLE, tests: sportsbookSeamlessTests,
    find: '      call_amount := credit - withheld;', replace: '      call_amount := credit;',
    description: "a seamless payout is credited whole, the owed clawbacks it withheld paid out again",
  },
  {
    id: 'sportsbook-20', file: LEAN_SETTLE, tests: sportsbookSeamlessTests,
    find: "    taken := case when seamless then -delta else", replace: "    taken := case when seamless then 0 else",
    description: "a seamless clawback is owed without asking the operator's wallet for it",
  },
  {
    id: 'sportsbook-21', file: SPORTSBOOK_SEAMLESS, tests: sportsbookSeamlessTests,
    find: "    set paid = b.paid + amount, owed = b.owed + amount,", replace: '    set paid = b.paid, owed = b.owed,',
    description: "a clawback the operator's wallet refused for funds is dropped instead of owed",
  },
  {
    id: 'sportsbook-22', file: SPORTSBOOK_SEAMLESS, tests: sportsbookSeamlessTests,
    find: "set status = 'accepted', balance = wallet_balance::numeric, last_error = 'refused: insufficient_funds (owed)',",
    replace: "set status = 'failed', balance = wallet_balance::numeric, last_error = 'refused: insufficient_funds (owed)',",
    description: "a clawback owed after the wallet refused it for funds can be sent again by staff, and taken twice",
  },
  {
    id: 'sportsbook-23', file: SPORTSBOOK_SEAMLESS, tests: sportsbookSeamlessTests,
    find: '    delete from public.game_round r where r.id = round.id;\n', replace: '',
    description: 'a bet whose stake the wallet refused stays placed',
  },
  {
    id: 'sportsbook-24', file: SPORTSBOOK_SEAMLESS, tests: sportsbookSeamlessTests,
    find: "    update public.sportsbook_bet b\n    set status = 'discarded',\n        settlements = b.settlements || jsonb_build_object('type', 'discard', 'transaction_id', t.transaction_id,",
    replace: "    update public.sportsbook_bet b\n    set status = b.status,\n        settlements = b.settlements || jsonb_build_object('type', 'discard', 'transaction_id', t.transaction_id,",
    description: 'a bet whose stake the wallet never answered stays open',
  },
  {
    id: 'sportsbook-25', file: SPORTSBOOK_SEAMLESS, tests: sportsbookSeamlessTests, occurrence: 1,
    find: /    insert into public\.wallet_call \(client_id, livemode, round_transaction_id, action, request, attempts\)\n    values \(call\.client_id, call\.livemode, t\.id, 'rollback',\n[^;]*;\n/,
    replace: '',
    description: "a stake the wallet never answered is not rolled back there (the slow wallet keeps it)",
  },
  {
    id: 'sportsbook-26', file: SPORTSBOOK_SEAMLESS, tests: sportsbookSeamlessTests, occurrence: 1,
    find: "if t.response_body is null and not (t.kind = 'sportsbook_place' and call.action = 'rollback') then",
    replace: 'if t.response_body is null then',
    description: "a failed stake's compensating rollback gives the failed placement an OK answer",
  },
  {
    id: 'sportsbook-27', file: LEAN_EVENTS, tests: sportsbookSeamlessTests,
    find: "  if round.wallet_mode = 'seamless' and private.debit_pending(round.id) then",
    replace: '  if false then',
    description: "a seamless bet is settled while its stake waits for the operator's wallet",
  },
  {
    id: 'sportsbook-28', file: SPORTSBOOK_SEAMLESS, tests: sportsbookSeamlessTests,
    find: "    continue when round.wallet_mode = 'seamless' and private.debit_pending(round.id);\n", replace: '',
    description: "a reserved bet whose stake waits for the operator's wallet is discarded as expired (its rollback crossing the debit)",
  },
  {
    id: 'sportsbook-29', file: LEAN_SETTLE, tests: sportsbookSeamlessTests,
    find: "        and exists (select 1 from public.game_round r where r.id = b.round_id and r.wallet_mode = round.wallet_mode)\n",
    replace: '',
    description: "a clawback owed to the float is taken from a seamless payout (or the reverse), moving money between the two wallets",
  },
  {
    id: 'sportsbook-30', file: SPORTSBOOK_SEAMLESS, tests: sportsbookSeamlessTests,
    find: "  if round.wallet_mode <> 'seamless' then\n    movement := private.move_money(s, round.currency_code, 'adjustment', bet.stake,",
    replace: "  if true then\n    movement := private.move_money(s, round.currency_code, 'adjustment', bet.stake,",
    description: "a seamless bet's discard gives its stake back to the float too",
  },
  // A sandbox reset with the sportsbook in play (the sandbox reset sportsbook migration).
  {
    id: 'sportsbook-31', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: "status := case when ending.status in ('reserved', 'open') then 'discarded'",
    replace: "status := case when ending.status = 'reserved' then 'discarded'",
    description: 'a reset leaves test bets open, to be settled against a removed player (or a new one of the same id)',
  },
  {
    id: 'sportsbook-32', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: "when ending.status = 'settled' then 'closed'", replace: "when false then 'closed'",
    description: 'a reset leaves test bets settled, to be resettled after it',
  },
  {
    id: 'sportsbook-33', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: 'payout = kept, paid = kept, owed = 0,', replace: 'payout = kept, paid = kept + b.owed, owed = b.owed,',
    description: "a removed test player's owed clawbacks are taken from the next test player of its id",
  },
  {
    id: 'sportsbook-34', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: 'delete from private.sandbox_fixture_result f where f.client_id = client_id;',
    replace: 'delete from private.sandbox_fixture_result f where false;',
    description: "a reset keeps the demo fixtures' outcomes: they cannot be settled again (fixture_settled)",
  },
  {
    id: 'sportsbook-35', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: '    where b.client_id = client_id and not b.livemode\n      and (',
    replace: '    where b.client_id = client_id\n      and (',
    description: "a test key's reset ends its live bets too",
  },
  {
    id: 'sportsbook-36', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: "      update public.game_round r set status = 'cancelled', total_bet = 0, total_win = kept where r.id = ending.round_id;\n",
    replace: '',
    description: "a bet the reset discards keeps its round closed with its stake, as if it stood",
  },
  {
    id: 'sportsbook-37', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: "      perform private.emit_event(ending.client_id, false, 'sportsbook.bet.discarded',",
    replace: "      perform private.emit_event(ending.client_id, false, 'sportsbook.bet.closed',",
    description: 'a bet the reset discards is told as closed',
  },
  {
    id: 'sportsbook-38', file: SANDBOX_RESET_SPORTSBOOK, tests: sandboxResetSportsbookTests,
    find: '  perform private.sandbox_sportsbook_lock(caller.client_id, false);\n', replace: '',
    description: "a fixture is settled while a reset runs: its outcome is kept after the reset cleared the others",
  },
  {
    id: 'sportsbook-39', file: SANDBOX_RESET_SPORTSBOOK, tests: sandboxResetSportsbookTests,
    find: "'sportsbook_bets_closed', sportsbook.bets_closed,", replace: "'sportsbook_bets_closed', sportsbook.bets_discarded,",
    description: 'the answer counts the bets closed as the bets discarded',
  },
  {
    id: 'sportsbook-reset-1', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: '                 where b.client_id = client_id and not b.livemode\n',
    replace: '                 where not b.livemode\n',
    description: "one client's reset locks every client's test bets (and, with the loop's filter, ends them)",
  },
  {
    id: 'sportsbook-reset-2', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: '    where b.client_id = client_id and not b.livemode\n      and (',
    replace: '    where not b.livemode\n      and (',
    description: "one client's reset ends every client's test bets",
  },
  {
    id: 'sportsbook-reset-3', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: 'delete from private.sandbox_fixture_result f where f.client_id = client_id;',
    replace: 'delete from private.sandbox_fixture_result f;',
    description: "one client's reset clears every client's fixture outcomes",
  },
  // The reset writes a seamless test bet's money back to what its wallet took (the sandbox reset unsent calls migration).
  {
    id: 'sportsbook-reset-4', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: '    kept := least(greatest(ending.paid - ending.owed - unsent, 0), ending.potential_payout);',
    replace: '    kept := ending.paid - ending.owed;',
    description: "a bet the reset ends keeps as paid a payout whose credit the wallet never got (the call ended failed)",
  },
  {
    id: 'sportsbook-reset-5', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: "                                   else -(c.request->>'amount')::numeric end)",
    replace: "                                   else 0 end)",
    description: "a bet the reset ends counts as taken back a clawback the wallet never gave",
  },
  {
    id: 'sportsbook-reset-6', file: RESET_UNSENT, tests: sandboxResetSportsbookTests, occurrence: 2,
    find: '           or private.sportsbook_unsent(b) is not null)', replace: '           or false)',
    description: "a bet closed while its payout's credit waited keeps that payout as paid after the reset",
  },
  {
    id: 'sportsbook-reset-7', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: "'moved', (kept - (b.paid - b.owed))::numeric(20, 4)::text,", replace: "'moved', '0.0000',",
    description: "the reset's line hides what it wrote back: the bet's lines' `moved` no longer add up to what moved",
  },
  {
    id: 'sportsbook-reset-8', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: '      update public.game_round r set total_win = kept where r.id = ending.round_id and r.total_win <> kept;\n',
    replace: '',
    description: "a settled bet's round keeps as its total_win a payout the reset wrote back",
  },
  {
    id: 'sportsbook-reset-9', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: "c.status <> 'accepted'", replace: "c.status = 'pending'",
    description: "a payout whose credit failed before the reset (its retries spent) stays counted as paid",
  },
  {
    id: 'sportsbook-reset-10', file: RESET_UNSENT, tests: sandboxResetSportsbookTests,
    find: `  if bet.settlements @> '[{"type": "sandbox_reset"}]' then`, replace: '  if false then',
    description: "a second reset writes a bet's failed calls back again",
  },
  {
    id: 'sportsbook-reset-11', file: RESET_CALLS_STAY_FAILED, tests: sandboxResetSportsbookTests,
    find: `                    where t.id = c.round_transaction_id and b.settlements @> '[{"type": "sandbox_reset"}]')`,
    replace: '                    where false)',
    description: "staff send again a call a sandbox reset wrote back: the wallet gets what the bet no longer shows",
  },
  // The leaner settlement (the lean sportsbook settle migration).
  {
    id: 'sportsbook-40', file: LEAN_SETTLE, tests: sportsbookTests,
    find: "      status = case when settling then 'settled' else 'open' end,", replace: '      status = b.status,',
    description: 'a settlement moves the money but leaves the bet open (it is settled again as a first settlement)',
  },
  {
    id: 'sportsbook-41', file: LEAN_SETTLE, tests: ['tests/sportsbook/provider-api.test.ts'],
    find: '      settled_at = case when settling then now() else b.settled_at end,', replace: '      settled_at = b.settled_at,',
    description: 'a settlement leaves settled_at as it was (the bets list filtered by settled_after misses it)',
  },
  // Free rounds played through the engine (the free round play migration).
  {
    id: 'free-1', file: FREE_PLAY, tests: freeRoundTests,
    find: "when g.status = 'completed' or g.paid_out_at is not null or g.rounds_used >= g.rounds_total then",
    replace: "when g.status = 'completed' or g.paid_out_at is not null or g.rounds_used > g.rounds_total then",
    description: "a grant takes one free bet more than its rounds",
  },
  {
    id: 'free-2', file: FREE_PLAY, tests: freeRoundTests,
    find: "when amount <> campaign.bet_amount then 'free_round_stake_mismatch'",
    replace: "when false then 'free_round_stake_mismatch'",
    description: "a free bet of another stake than the grant's is taken",
  },
  {
    id: 'free-3', file: FREE_PLAY, tests: freeRoundTests,
    find: "paid := case when per_round then private.free_round_pay(amount, g.total_win, campaign.max_win) else 0 end;",
    replace: "paid := private.free_round_pay(amount, g.total_win, campaign.max_win);",
    description: "a lump-sum game's free wins are paid as they come, and its payout again (a double credit)",
  },
  {
    id: 'free-4', file: HELPERS, tests: freeRoundTests,
    find: "return case when max_win is null then amount else least(amount, greatest(max_win - total_win, 0)) end;",
    replace: "return amount;",
    description: "a grant is paid past max_win",
  },
  {
    id: 'free-5', file: FREE_PLAY, tests: freeRoundTests,
    find: "perform private.free_round_release(g, 1, case when playable then 1 else 0 end);",
    replace: "perform private.free_round_release(g, 1, 1);",
    description: "a rollback gives the round back to a grant that can no longer be played",
  },
  {
    id: 'free-6', file: FREE_PLAY, tests: freeRoundTests,
    find: "  if g.paid_out_at is not null then\n    return query select 'free_round_already_paid'",
    replace: "  if false then\n    return query select 'free_round_already_paid'",
    description: "a lump-sum grant is paid out twice under two transaction ids",
  },
  {
    id: 'free-7', file: FREE_PLAY, tests: freeRoundTests,
    find: "  if round.free_round_grant_id is not null then\n    return query select 'free_round_mismatch'",
    replace: "  if false then\n    return query select 'free_round_mismatch'",
    description: "a cash bet enters a free round",
  },
  {
    id: 'free-8', file: FREE_PLAY, tests: freeRoundTests,
    find: "s.created_at, case when free_round_grant_id is null then amount else 0 end);",
    replace: "s.created_at, amount);",
    description: "a free bet counts as a stake for the stake limit",
  },
  {
    id: 'free-9', file: FREE_PLAY, tests: freeRoundTests,
    find: "when campaign.cancelled_at is not null or g.status = 'cancelled' then 'free_round_campaign_cancelled'",
    replace: "when g.status = 'cancelled' then 'free_round_campaign_cancelled'",
    description: "a grant in play takes new free bets after its campaign is cancelled",
  },
  {
    id: 'free-10', file: FREE_PLAY, tests: freeRoundTests,
    find: "when private.free_round_grant_status(g.status, g.expires_at, now()) = 'expired' then 'free_round_grant_expired'",
    replace: "when g.status = 'expired' then 'free_round_grant_expired'",
    description: "an expired grant plays until a job records its expiry",
  },
  {
    id: 'free-11', file: FREE_PLAY, tests: freeRoundTests,
    find: "\n      or campaign.currency_code <> s.currency_code then 'free_round_wrong_game'",
    replace: " then 'free_round_wrong_game'",
    description: "a grant plays in a session of another currency",
  },
  {
    id: 'free-12', file: FREE_PLAY, tests: freeRoundTests,
    find: "or not (s.game = any (campaign.games)) or g.game <> s.game",
    replace: "or not (s.game = any (campaign.games))",
    description: "a grant is not locked to the game its first round played",
  },
  {
    id: 'free-13', file: FREE_PLAY, tests: freeRoundTests,
    find: "when used_now = x.rounds_total and private.free_round_per_round(c.provider_id, x.game) then 'completed'",
    replace: "when false then 'completed'",
    description: "a grant whose rounds are all used and settled never completes",
  },
  {
    id: 'free-14', file: FREE_PLAY, tests: freeRoundTests,
    find: "update public.free_round_grant g set status = 'expired' from due where g.id = due.id;",
    replace: "update public.free_round_grant g set status = g.status from due where g.id = due.id;",
    description: "the job never records an expired grant (no free_rounds.grant.expired)",
  },
  {
    id: 'free-15', file: FREE_PLAY, tests: freeRoundTests,
    find: "  if g.rounds_open > 0\n     or (g.rounds_used",
    replace: "  if false\n     and (g.rounds_used",
    description: "a lump-sum grant is paid out while a round is in play",
  },
  {
    id: 'free-16', file: FREE_PLAY, tests: freeRoundTests,
    find: "rounds_open = x.rounds_open + case when round_closed then 0 else 1 end,",
    replace: "rounds_open = x.rounds_open,",
    description: "a free round in play is not counted: the grant completes (or is paid) before it settles",
  },
  {
    id: 'free-17', file: FREE_PLAY, tests: freeRoundTests,
    find: "if resolution = 'cancel' and round.free_round_grant_id is not null then",
    replace: "if false then",
    description: "staff cancel a free round: its free bets are given back as money never taken",
  },
  // One player's grant cancelled (the cancel one grant migration).
  {
    id: 'free-18', file: CANCEL_GRANT, tests: ['tests/free-rounds/campaigns-api.test.ts'],
    find: "  if status = 'completed' then\n    return query select 'grant_completed'",
    replace: "  if false then\n    return query select 'grant_completed'",
    description: "a completed grant is cancelled (and told cancelled after it was told completed)",
  },
  {
    id: 'free-19', file: CANCEL_GRANT, tests: ['tests/free-rounds/campaigns-api.test.ts'],
    find: "status := private.free_round_grant_status(g.status, g.expires_at, now());",
    replace: "status := g.status;",
    description: "a grant expired by the clock, not yet recorded, is cancelled after its campaign ended",
  },
  {
    id: 'free-20', file: CANCEL_GRANT, tests: ['tests/free-rounds/campaigns-api.test.ts'],
    find: "where c.id = cancel_free_round_grant.campaign_id and c.client_id = caller.client_id and c.livemode = caller.livemode;",
    replace: "where c.id = cancel_free_round_grant.campaign_id;",
    description: "a key cancels another client's (or the other mode's) grant",
  },
  {
    id: 'free-21', file: CANCEL_GRANT, tests: ['tests/free-rounds/campaigns-api.test.ts'],
    find: "  if status = 'cancelled' then\n    return query select 'found', private.free_round_grant_json(g, now());\n    return;\n  end if;\n",
    replace: "",
    description: "a repeat cancel writes the grant again (its updated_at, and an answer that differs from the first)",
  },
  // One rule per field: a request's currency and country against the reference lists.
  {
    id: 'fields-1', file: REFERENCES, tests: ['tests/validation/one-rule-per-field.test.ts'],
    find: "when c.code is null then 'unknown_currency'", replace: "when false then 'unknown_currency'",
    description: 'an unknown currency passes the reference check',
  },
  {
    id: 'fields-2', file: REFERENCES, tests: ['tests/sandbox/test-players.test.ts'],
    find: 'when reference_problems.active and not c.is_active then', replace: 'when false then',
    description: 'an inactive currency is taken where play needs an active one',
  },
  {
    id: 'fields-3', file: REFERENCES, tests: ['tests/validation/one-rule-per-field.test.ts'],
    find: 'and not exists (select 1 from private.country k where k.code = reference_problems.country)', replace: 'and false',
    description: 'an unassigned country code passes the reference check',
  },
  // Reports: a closed day's cells written once with its rows, read instead of its rows, never both.
  {
    id: 'reports-1', file: REPORT_ROLL_UP, tests: ['tests/reports/ggr-property.test.ts'],
    find: 'perform private.roll_up_ggr_cells(roll_up_ggr.client_id, through + 1, closed);', replace: 'null;',
    description: 'closed days are rolled up without their cells: a report by day misses them',
  },
  {
    id: 'reports-2', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: 'split := case when through is null then ggr_report.from_day - 1 else least(ggr_report.to_day, through) end;',
    replace: 'split := coalesce(least(ggr_report.to_day, through), ggr_report.from_day - 1);',
    description: 'a report the cells cannot answer (not by day) reads them anyway, one row per day',
  },
  {
    id: 'reports-3', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: 'count(distinct d.player_id) filter (where d.bet_count > 0) as players',
    replace: 'count(d.player_id) filter (where d.bet_count > 0) as players',
    description: "a day's cell counts a player once per game played, not once",
  },
  {
    id: 'reports-4', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: "when by_provider or ggr_report.provider is not null then 'provider'", replace: "when by_provider then 'provider'",
    description: "a report by day of one provider reads the cells of every provider's day",
  },
  {
    id: 'reports-5', file: REPORT_SPORTSBOOK, tests: ['tests/reports/reports-api.test.ts'],
    find: "coalesce(l.amount, sl.amount, (fc.request->>'amount')::numeric, 0)", replace: "coalesce(l.amount, (fc.request->>'amount')::numeric, 0)",
    description: 'what a test-mode free round paid is not counted in free_round_wins',
  },
  {
    id: 'reports-6', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: "where whole and p.client_id = caller.client_id and p.days && daterange(ggr_report.from_day, split, '[]')",
    replace: 'where whole and p.client_id = caller.client_id',
    description: "a report's totals count the players of closed days outside it",
  },
  // The runner's fan-out: every event's deliveries once per endpoint, none passed over, due from the event's time.
  {
    id: 'fanout-1', file: FAN_OUT, tests: fanOutTests,
    find: '  insert into private.event_fan_out_queue (event_id) values (event_id);\n', replace: '',
    description: 'an event is never fanned out to its endpoints',
  },
  {
    id: 'fanout-4', file: FAN_OUT, tests: fanOutTests,
    find: '   and e.created_at <= ev.created_at', replace: '',
    description: 'a new endpoint is sent events written before it existed',
  },
  // No fanout-5: a queued event is fanned out once (taken from the queue as it is), so the fan-out's
  // `do nothing` on a delivery already made matters only for the events the queue's migration queued.
  {
    id: 'fanout-6', file: FAN_OUT, tests: fanOutTests,
    find: 'select ev.id, e.id, e.client_id, ev.created_at', replace: 'select ev.id, e.id, e.client_id, now()',
    description: "a delivery is due from its fan-out, not its event: the claim's order is no longer the events'",
  },
  {
    id: 'fanout-7', file: FAN_OUT, tests: fanOutTests,
    find: 'limit fan_out_events.batch for update skip locked)', replace: 'limit fan_out_events.batch for update)',
    description: "a runner's claim waits for a fan-out under way elsewhere",
  },
  {
    id: 'fanout-8', file: FAN_OUT, tests: fanOutTests,
    find: '  if queued then', replace: '  if false then',
    description: "an event's deliveries as the API lists them miss those the runner has yet to make",
  },
  {
    id: 'fanout-10', file: FAN_OUT, tests: fanOutTests, occurrence: 1,
    find: '      and (cardinality(e.event_types) = 0 or found.type = any (e.event_types))\n', replace: '',
    description: "an event's listed deliveries include endpoints that do not want its type",
  },
  {
    id: 'fanout-11', file: FAN_OUT, tests: [...webhookTests, ...fanOutTests],
    find: '  perform private.fan_out_events(500);\n', replace: '',
    description: 'the runner claims deliveries without fanning events out: nothing new is sent',
  },
  {
    id: 'fanout-12', file: FAN_OUT, tests: fanOutTests,
    find: '  if queued then', replace: '  if true then',
    description: "reading an event the runner fanned out sends it to an endpoint enabled since",
  },
  {
    id: 'fanout-13', file: FAN_OUT, tests: fanOutTests,
    find: '  perform private.fan_out_events(500);', replace: '  perform private.fan_out_events(null);',
    description: 'a claim fans out the whole backlog: past the statement timeout no claim succeeds',
  },
  {
    id: 'fanout-14', file: FAN_OUT, tests: fanOutTests,
    find: '  for key share of e\n  on conflict', replace: '  on conflict',
    description: 'an endpoint deleted while a fan-out reads it fails the whole claim (a foreign-key violation)',
  },
  // Reports: the sportsbook apart, each movement in its day, exact.
  {
    id: 'reports-7', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: "case when t.kind = 'sportsbook_place' and (r.wallet_mode = 'transfer' or c.status = 'accepted') then t.amount else 0 end",
    replace: "case when t.kind = 'sportsbook_place' then t.amount else 0 end",
    description: "a seamless stake the operator's wallet never took counts as staked",
  },
  {
    id: 'reports-8', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: 'select sum(e.after - e.before)', replace: 'select sum(e.after)',
    description: "a resettlement counts the payout it puts in force, not its change: a bet's payouts are counted again",
  },
  {
    id: 'reports-9', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: "case when t.kind = 'sportsbook_discard' then t.amount else 0 end as sb_refunded", replace: '0 as sb_refunded',
    description: "a discarded bet's stake given back is not counted",
  },
  {
    id: 'reports-10', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: 'sum(d.sportsbook_refunded), sum(d.sportsbook_payouts)', replace: '0, 0',
    description: "a closed day's totals leave out the sportsbook's refunds and payouts",
  },
  // Reports: free rounds, their bets no turnover, their wins as paid.
  {
    id: 'reports-11', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: "then coalesce(l.amount, sl.amount, (fc.request->>'amount')::numeric, 0) else 0 end as free_round_wins",
    replace: 'then t.amount else 0 end as free_round_wins',
    description: "a free win counts what the provider reported, not what the campaign's max_win let it pay",
  },
  {
    id: 'reports-12', file: REPORT_SPORTSBOOK, tests: ['tests/reports/ggr-property.test.ts'],
    find: "case when t.kind = 'bet' and r.free_round_grant_id is null and (r.wallet_mode = 'transfer' or c.status = 'accepted')\n                then t.amount else 0 end as bets",
    replace: "case when t.kind = 'bet' and (r.wallet_mode = 'transfer' or c.status = 'accepted')\n                then t.amount else 0 end as bets",
    description: 'a free bet counts as turnover',
  },
  // Reconciliation: a sportsbook line moves what its wallet saw move, and carries its call.
  {
    id: 'reconciliation-1', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reports-api.test.ts'],
    find: "case when c.status = 'accepted' and c.last_error is null", replace: "case when c.last_error is null",
    description: "a seamless sportsbook call the wallet has not accepted counts as moved",
  },
  {
    id: 'reconciliation-2', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reports-api.test.ts'],
    find: "case when c.action in ('debit', 'clawback') then -1 else 1 end", replace: "1",
    description: 'a seamless stake or clawback counts as money paid to the player',
  },
  {
    id: 'reconciliation-3', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reports-api.test.ts'],
    find: "else coalesce(fl.amount, sfl.amount, 0)\n                          - coalesce(", replace: "else t.amount\n                          - coalesce(",
    description: "a transfer-mode sportsbook line moves its amount, not the float's movement (a stake positive, a resettlement its payout)",
  },
  {
    id: 'reconciliation-4', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reports-api.test.ts'],
    find: "when 'sportsbook_settle' then '{credit,clawback}'::text[]", replace: "when 'sportsbook_settle' then '{credit}'::text[]",
    description: "a settlement's clawback call is missing from its line",
  },
  {
    id: 'reconciliation-5', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reports-api.test.ts'],
    find: "case when c.action = 'clawback' then 'debit' else c.action end", replace: 'c.action',
    description: "a clawback's call shows the internal action, not the debit the wallet was sent",
  },
  {
    id: 'reconciliation-6', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reports-api.test.ts'],
    find: "- coalesce((jsonb_path_query_first(", replace: "- 0 * coalesce((jsonb_path_query_first(",
    description: "a transfer-mode payout counts in full though the float took part of it for the player's owed clawbacks",
  },
  {
    id: 'reconciliation-7', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reconciliation-sportsbook.test.ts'],
    find: "when 'sportsbook_discard' then '{rollback}'::text[]", replace: "when 'sportsbook_discard' then '{}'::text[]",
    description: "a seamless discard's line carries no rollback call and moves nothing, though the wallet gave the stake back",
  },
  {
    id: 'reconciliation-8', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reconciliation-sportsbook.test.ts'],
    find: "case when c.status = 'accepted' and c.last_error is null", replace: "case when c.status = 'accepted'",
    description: 'a seamless clawback the wallet refused for funds (owed) counts as taken',
  },
  {
    id: 'reconciliation-9', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reconciliation-sportsbook.test.ts'],
    find: "else coalesce(fl.amount, sfl.amount, 0)\n                          - coalesce(", replace: "else coalesce(fl.amount, 0)\n                          - coalesce(",
    description: "a test-mode sportsbook line moves nothing, not the test ledger's movement",
  },
  {
    id: 'reconciliation-10', file: RECONCILIATION_SPORTSBOOK, tests: ['tests/reports/reconciliation-sportsbook.test.ts'],
    find: 'coalesce(r.livemode, c.livemode) as livemode', replace: 'coalesce(c.livemode, true) as livemode',
    description: "a test-mode transfer sportsbook line is the live key's",
  },
  {
    id: 'reconciliation-11', file: RECONCILIATION_PAGE, tests: ['tests/reports/reconciliation-sportsbook.test.ts'],
    find: '    and l.livemode = caller.livemode\n  order by l.created_at, l.id', replace: '  order by l.created_at, l.id',
    description: "a key's reconciliation lists the other mode's lines too",
  },
  {
    id: 'reconciliation-12', file: RECONCILIATION_PAGE, tests: ['tests/reports/reconciliation-sportsbook.test.ts'],
    find: 'and l.created_at < reconciliation_page.ends and l.livemode = caller.livemode\n      group by',
    replace: 'and l.created_at < reconciliation_page.ends\n      group by',
    description: "a key's reconciliation totals count the other mode's lines too",
  },
  // Reports, test mode: a payout or clawback call a sandbox reset wrote back moved nothing, in its day.
  {
    id: 'reports-13', file: REPORT_WRITTEN_BACK, tests: ggrResetTests,
    find: '  where u.created_at >= ggr_written_back.starts and u.created_at < ggr_written_back.ends\n', replace: '  where false\n',
    description: "a test bet's payout a reset wrote back (its credit never made) still counts as paid",
  },
  {
    id: 'reports-14', file: REPORT_WRITTEN_BACK, tests: ggrResetTests,
    find: "case c.action when 'credit' then 1 else -1 end", replace: '1',
    description: 'a clawback a reset wrote back (never taken) counts as a credit never made: its payout falls again',
  },
  {
    id: 'reports-15', file: REPORT_WRITTEN_BACK, tests: ggrResetTests,
    find: "select (u.created_at at time zone 'UTC')::date", replace: "select (w.reset_at at time zone 'UTC')::date",
    description: "what a reset wrote back counts in the reset's day, not its call's: the call's day disagrees with its reconciliation",
  },
  {
    id: 'reports-16', file: REPORT_WRITTEN_BACK, tests: ggrResetTests,
    find: "c.action in ('credit', 'clawback') and c.status <> 'accepted'", replace: "c.action in ('credit', 'clawback')",
    description: "a test bet's calls the wallet took count as written back too, once a reset ended the bet",
  },
  {
    id: 'reports-17', file: REPORT_WRITTEN_BACK, tests: ggrResetTests,
    find: 'w.reset_at < ggr_written_back.ends and k.amount <> 0', replace: 'w.reset_at < ggr_written_back.ends and false',
    description: "where a bet's bounds kept a reset from writing a call back whole, the payouts miss the bet's payout in force",
  },
  {
    id: 'reports-18', file: REPORT_WRITTEN_BACK, tests: ggrResetTests,
    find: "select w.moved + coalesce((select sum(u.amount) from unsent u where u.round_id = w.round_id), 0) as amount",
    replace: 'select w.moved as amount',
    description: "a reset's write-back counts again in its own day, beside the calls it wrote back",
  },
  {
    id: 'reports-19', file: REPORT_WRITTEN_BACK, tests: ggrResetTests,
    find: '@.type == "sandbox_reset" && exists (@.payout)', replace: '@.type == "sandbox_reset"',
    description: 'a bet a reset ended before resets wrote money back has calls counted as written back that never were',
  },
  // A session's restrictions and a float's client status, as facts: never less than the truth, whatever the order.
  {
    id: 'facts-1', file: FACTS, tests: betFactsTests,
    find: '  perform private.lock_player(new.client_id, new.livemode, new.player_id);\n  new.restricted', replace: '  new.restricted',
    description: 'a new session reads the restrictions without the player\'s lock: one being written is missed',
  },
  {
    id: 'facts-2', file: FACTS, tests: betFactsTests,
    find: '  perform private.lock_player(new.client_id, new.livemode, new.player_id);\n  update public.game_session', replace: '  update public.game_session',
    description: "a new restriction marks the sessions without the player's lock: one being made is missed",
  },
  {
    id: 'facts-3', file: FACTS, tests: [...betFactsTests, ...restrictionTests],
    find: 'update public.game_session gs set restricted = true', replace: 'update public.game_session gs set restricted = gs.restricted',
    description: "a restriction given mid-session does not hold the session's next bet",
  },
  {
    id: 'facts-4', file: FACTS, tests: [...betFactsTests, ...restrictionTests],
    find: '  if s.restricted then', replace: '  if not s.restricted then',
    description: "a restricted session's calls read no restrictions",
  },
  {
    id: 'facts-5', file: FACTS, tests: betFactsTests,
    find: '  new.restricted := exists (', replace: '  new.restricted := false and exists (',
    description: 'a session made while its player has a restriction says it has none',
  },
  {
    id: 'facts-6', file: FACTS, tests: betFactsTests,
    find: 'where p.id = new.client_id for share;', replace: 'where p.id = new.client_id;',
    description: 'a new float reads its client\'s status unlocked: a suspension being written is missed',
  },
  {
    id: 'facts-7', file: FACTS, tests: [...betFactsTests, ...suspendedTests],
    find: '  where w.client_id = new.id and w.client_active is distinct from', replace: '  where false and w.client_active is distinct from',
    description: "a suspension leaves its client's floats active: live bets go on",
  },
  {
    id: 'facts-8', file: FACTS, tests: [...betFactsTests, ...suspendedTests],
    find: 'select w.balance, case when bet then w.client_active end into', replace: 'select w.balance, case when bet then true end into',
    description: "a live bet takes its float as active whatever its client's status",
  },
  {
    id: 'facts-9', file: FACTS, tests: betFactsTests,
    find: '  where gs.client_id = new.client_id and gs.livemode = new.livemode and gs.player_id = new.player_id',
    replace: '  where gs.client_id = new.client_id and gs.livemode = new.livemode',
    description: "a restriction marks every session of its client's, not its player's",
  },
  {
    id: 'facts-10', file: FACTS, tests: betFactsTests,
    find: '  where gs.client_id = new.client_id and gs.livemode = new.livemode and gs.player_id = new.player_id',
    replace: '  where gs.client_id = new.client_id and gs.player_id = new.player_id',
    description: "a restriction marks its player's sessions in the other mode too",
  },
];
