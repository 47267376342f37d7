// Production reference data shipped by the migrations (spec 2.3, 2.7, 2.11).
import { describe, expect, test } from 'vitest';
import { connect } from '../helpers/db.ts';

const CODES = (
  'USD EUR GBP BDT INR SAR AED MYR THB IDR PHP VND SGD HKD JPY KRW CNY AUD CAD CHF NZD ZAR BRL MXN ARS TRY RUB ' +
  'PLN NOK SEK DKK PKR LKR NPR KWD QAR OMR BHD EGP NGN KES'
).split(' ');

describe('reference data', () => {
  const sql = connect();

  test('the 41 currencies are there in the spec\'s order, sort_order 1 to 41, active, named, with symbols', async () => {
    const rows = await sql`select code, name, symbol, is_active, sort_order from public.currency where sort_order between 1 and 41 order by sort_order`;
    expect(rows.map((r) => r.code)).toEqual(CODES);
    expect(rows.map((r) => r.sort_order)).toEqual(CODES.map((_, i) => i + 1));
    for (const row of rows) {
      expect(row.is_active).toBe(true);
      expect(row.name.length).toBeGreaterThan(2);
      expect(row.symbol.length).toBeGreaterThan(0);
    }
  });

  test('12 providers with sort_order 1 to 12, each with a name, slug, category and its count of active games', async () => {
    const rows = await sql`
      select name, slug, category, games_count, status, sort_order,
             (select count(*)::int from public.game g where g.provider_id = gp.id and g.status = 'active') as active_games
      from public.game_provider gp where sort_order between 1 and 12 order by sort_order`;
    expect(rows.map((r) => r.sort_order)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.slug)).size).toBe(12);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'active' });
      expect(row.name && row.category).toBeTruthy();
      // Kept by the database: a catalogue is imported (the demo one by seed.sql), never typed in.
      expect(row.games_count).toBe(row.active_games);
    }
  });

  test('the messaging and brand settings have their shapes', async () => {
    const rows = await sql`select key, value from public.app_setting where key in ('messaging', 'brand') order by key`;
    const settings = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    expect(settings.messaging).toEqual({ chat_id: '', handle: expect.any(String) });
    expect(settings.brand).toEqual({ name: expect.any(String), tagline: expect.any(String) });
  });
});
