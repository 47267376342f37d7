// The public lists: anyone, signed in or not, reads currencies and game providers.
import type { PostgrestResponse } from '@supabase/supabase-js';
import type { Tables } from '../database.types.ts';
import type { BackOfficeClient } from './client.ts';

/** Currencies in display order; `activeOnly` for what operators can play in today. */
export function currencies(
  db: BackOfficeClient,
  { activeOnly = false } = {},
): PromiseLike<PostgrestResponse<Tables<'currency'>>> {
  const query = db.from('currency').select('*');
  return (activeOnly ? query.eq('is_active', true) : query).order('sort_order').order('code');
}

/** Game providers in display order; `activeOnly` leaves out those in maintenance or inactive. */
export function gameProviders(
  db: BackOfficeClient,
  { activeOnly = false } = {},
): PromiseLike<PostgrestResponse<Tables<'game_provider'>>> {
  const query = db.from('game_provider').select('*');
  return (activeOnly ? query.eq('status', 'active') : query).order('sort_order').order('name');
}
