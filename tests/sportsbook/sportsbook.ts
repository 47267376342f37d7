// What the sportsbook's tests share: a game of the catalogue that is a sportsbook, made for a file.
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';

/** A new `sportsbook` game of `provider`'s (pragmatic-play by default); its code. */
export async function sportsbookGame(sql: Sql, provider = 'pragmatic-play'): Promise<string> {
  const code = `sb-${randomUUID().slice(0, 8)}`;
  await sql`insert into public.game (provider_id, code, name, category)
            select id, ${code}, 'Sportsbook Test', 'sportsbook' from public.game_provider where slug = ${provider}`;
  return code;
}
