// The public contact form: anyone may send a message, nobody but staff may read one back.
import type { PostgrestSingleResponse } from '@supabase/supabase-js';
import type { TablesInsert } from '../database.types.ts';
import type { BackOfficeClient } from './client.ts';

/** The columns the API roles may insert (column grants); id, status and date are the database's. */
export type ContactMessage = Pick<
  TablesInsert<'contact_submission'>,
  'name' | 'email' | 'company' | 'phone' | 'messaging_handle' | 'message' | 'source'
>;

/**
 * Sends the form with `Prefer: return=minimal` and no `.select()`: a visitor may not read the row
 * back, and asking PostgREST for it would make RLS refuse the whole insert.
 */
export function sendContactMessage(
  db: BackOfficeClient,
  message: ContactMessage,
): PromiseLike<PostgrestSingleResponse<null>> {
  return db.from('contact_submission').insert(message).setHeader('Prefer', 'return=minimal');
}
