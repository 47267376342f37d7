// The catalogue's free-round terms: their form is held by the database whoever writes them, the
// demo provider's games carry them from the migrations (the sandbox needs no seed), and the events
// free rounds raise (three-part types) are ones the outbox takes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connect, signUp } from '../helpers/db.ts';

const sql = connect();

async function newGame(): Promise<string> {
  const [game] = await sql`
    insert into public.game (provider_id, code, name, category)
    select id, ${`terms-${randomUUID()}`}, 'Terms Test', 'slots' from public.game_provider where slug = 'pragmatic-play'
    returning id`;
  return game.id;
}

const write = async (stakes: unknown) => {
  const gameId = await newGame();
  try {
    await sql`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, stakes)
              values (${gameId}, 'per_round', 10, ${sql.json(stakes as never)})`;
    return 'ok';
  } catch (error) {
    return (error as { code?: string; constraint_name?: string }).constraint_name ?? String(error);
  }
};

describe('free-round terms', () => {
  it('takes stakes per currency as positive amounts of at most 4 decimals', async () => {
    expect(await write({ EUR: [0.1, 0.25, 1], SEK: [1, 2.5] })).toBe('ok');
    expect(await write({ EUR: [0.0001, 123456789.1234] })).toBe('ok');
  });

  it.each([
    ['an empty object', {}], ['an array', [0.1]], ['a lower-case currency', { eur: [0.1] }], ['no stake', { EUR: [] }],
    ['a string stake', { EUR: ['0.1'] }], ['a zero stake', { EUR: [0] }], ['a negative stake', { EUR: [-1] }],
    ['five decimals', { EUR: [0.00001] }], ['beyond numeric(20,4)', { EUR: [1e16] }], ['a stake list that is no list', { EUR: 0.1 }],
  ])('refuses %s, naming the rule', async (_, stakes) => {
    expect(await write(stakes)).toBe('game_free_rounds_stakes_format');
  });

  it('refuses a payout mode it does not know, and limits beyond 1,000 rounds or 30 days', async () => {
    const gameId = await newGame();
    const attempt = (mode: string, rounds: number, days: number) =>
      sql`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
          values (${gameId}, ${mode}, ${rounds}, ${days}, '{"EUR": [1]}')`.then(() => 'ok', (e) => e.constraint_name);
    expect(await attempt('per_spin', 10, 30)).toBe('game_free_rounds_payout_mode_check');
    expect(await attempt('lump_sum', 1001, 30)).toBe('game_free_rounds_max_rounds_range');
    expect(await attempt('lump_sum', 10, 31)).toBe('game_free_rounds_max_validity_days_range');
    expect(await attempt('lump_sum', 1000, 30)).toBe('ok');
  });

  it('ships the demo provider\'s games with free rounds, one paid in one sum at the end', async () => {
    const games = await sql`
      select g.code, f.payout_mode, f.max_rounds, f.stakes -> 'EUR' as eur from public.game_free_rounds f
      join public.game g on g.id = f.game_id join public.game_provider gp on gp.id = g.provider_id
      where gp.slug = 'cgs-sandbox' order by g.code`;
    expect(games.map((g) => [g.code, g.payout_mode])).toEqual([
      ['fruit-stand', 'per_round'], ['high-roller', 'lump_sum'], ['lucky-sevens', 'per_round'],
    ]);
    expect(games.every((g) => Array.isArray(g.eur) && g.eur.length > 0)).toBe(true);
  });

  it('lets the outbox take the free-round events\' three-part types, and still no other form', async () => {
    const client = (await signUp(sql, 'outbox')).id;
    await expect(sql`select private.emit_event(${client}, false, 'free_rounds.grant.created', '{}'::jsonb)`).resolves.toBeDefined();
    await expect(sql`select private.emit_event(${client}, false, 'free_rounds.grant.created.again', '{}'::jsonb)`)
      .rejects.toMatchObject({ constraint_name: 'event_type_format' });
    await expect(sql`select private.emit_event(${client}, false, 'Free.Grant', '{}'::jsonb)`)
      .rejects.toMatchObject({ constraint_name: 'event_type_format' });
  });
});
