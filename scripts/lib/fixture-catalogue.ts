// The games tests and the bench launch, imported into their own databases as a real catalogue is
// (public.import_games): sessions name a game of the catalogue, and their databases carry no seed.
import postgres from 'postgres';

export const FIXTURE_GAMES = [
  { game_id: 'pragmatic-play:vs20olympgate', name: 'Olympian Gates', category: 'slots' },
  { game_id: 'pragmatic-play:vs20fruitsw', name: 'Sweet Fruits', category: 'slots' },
  { game_id: 'evolution:crazy-time', name: 'Crazy Wheel', category: 'game_show' },
  { game_id: 'evolution:lightning-roulette', name: 'Lightning Wheel', category: 'live_casino' },
  { game_id: 'evolution:vs20olympgate', name: 'Olympian Table', category: 'table_games' },
  { game_id: 'spribe:aviator', name: 'Sky Crash', category: 'crash' },
];

export async function importFixtureCatalogue(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select * from public.import_games(${sql.json(FIXTURE_GAMES)})`;
  } finally {
    await sql.end();
  }
}
