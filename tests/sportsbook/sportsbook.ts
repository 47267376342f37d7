// What the sportsbook's tests share: a game of the catalogue that is a sportsbook, made for a file,
// and the engine's calls as the routes make them.
import { createHash, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { rerunConflicts } from '../../supabase/functions/_shared/database.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A new `sportsbook` game of `provider`'s (pragmatic-play by default); its code. */
export async function sportsbookGame(sql: Sql, provider = 'pragmatic-play'): Promise<string> {
  const code = `sb-${randomUUID().slice(0, 8)}`;
  await sql`insert into public.game (provider_id, code, name, category)
            select id, ${code}, 'Sportsbook Test', 'sportsbook' from public.game_provider where slug = ${provider}`;
  return code;
}

interface Outcome {
  outcome: string;
  body: Record<string, unknown> | null;
}

/** The engine's calls, as the routes make them (the fingerprint is of the request's meaning). */
export function engine(sql: Sql, keyHash: () => string) {
  const one = async (query: () => Promise<Outcome[]>) => (await rerunConflicts(query))[0];
  return {
    place: (s: string, bet: string, tx: string, amount: string, options: { odds?: string; potential?: string; twoPhase?: boolean } = {}) => {
      const [odds, potential, twoPhase] = [options.odds ?? '2', options.potential ?? String(Number(amount) * Number(options.odds ?? '2')),
        options.twoPhase ?? false];
      return one(() => sql<Outcome[]>`select * from private.sportsbook_place(${keyHash()}, ${s}, ${bet}, ${tx}, ${amount}::numeric,
        ${odds}::numeric, ${potential}::numeric, ${sql.json([{ event: 'Reds v Blues', market: '1X2', pick: '1' }])}, ${twoPhase},
        ${sha(JSON.stringify(['place', s, bet, tx, amount, odds, potential, twoPhase]))})`);
    },
    settle: (bet: string, tx: string, result: string, payout: string) =>
      one(() => sql<Outcome[]>`select * from private.sportsbook_settle(${keyHash()}, ${bet}, ${tx}, ${result}, ${payout}::numeric,
        ${sha(JSON.stringify(['settle', bet, tx, result, payout]))})`),
    unsettle: (bet: string, tx: string, settlement: string | null = null) =>
      one(() => sql<Outcome[]>`select * from private.sportsbook_unsettle(${keyHash()}, ${bet}, ${tx}, ${settlement},
        ${sha(JSON.stringify(['unsettle', bet, tx, settlement]))})`),
    commit: (bet: string, tx: string) =>
      one(() => sql<Outcome[]>`select * from private.sportsbook_commit(${keyHash()}, ${bet}, ${tx}, ${sha(JSON.stringify(['commit', bet, tx]))})`),
    discard: (bet: string, tx: string) =>
      one(() => sql<Outcome[]>`select * from private.sportsbook_discard(${keyHash()}, ${bet}, ${tx}, ${sha(JSON.stringify(['discard', bet, tx]))})`),
    close: (bet: string, tx: string) =>
      one(() => sql<Outcome[]>`select * from private.sportsbook_close(${keyHash()}, ${bet}, ${tx}, ${sha(JSON.stringify(['close', bet, tx]))})`),
  };
}

