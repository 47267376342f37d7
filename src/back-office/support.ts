// Support tickets and their conversation. A client opens tickets in its own name and writes on its
// own tickets; staff see and answer all (the policies in the support migration decide).
import type { PostgrestResponse, PostgrestSingleResponse } from '@supabase/supabase-js';
import type { Tables, TablesInsert } from '../database.types.ts';
import type { BackOfficeClient } from './client.ts';

/**
 * What a ticket is opened with; status, assignment and dates are the database's. `priority` is for
 * staff: a client's own ticket opens at `normal`, and any other value is refused by the policy.
 */
export type NewTicket = Pick<TablesInsert<'support_ticket'>, 'client_id' | 'subject' | 'priority'>;
/** A message in the caller's own name (`author_id` must be the signed-in user). */
export type NewMessage = Pick<TablesInsert<'support_ticket_message'>, 'ticket_id' | 'author_id' | 'body'>;

/** A client's tickets, newest first. */
export function clientTickets(
  db: BackOfficeClient,
  clientId: string,
): PromiseLike<PostgrestResponse<Tables<'support_ticket'>>> {
  return db.from('support_ticket').select('*').eq('client_id', clientId).order('created_at', { ascending: false });
}

export function openTicket(
  db: BackOfficeClient,
  ticket: NewTicket,
): PromiseLike<PostgrestSingleResponse<Tables<'support_ticket'>>> {
  return db.from('support_ticket').insert(ticket).select().single();
}

/** A ticket's conversation, oldest first (index (ticket_id, created_at)). */
export function ticketMessages(
  db: BackOfficeClient,
  ticketId: string,
): PromiseLike<PostgrestResponse<Tables<'support_ticket_message'>>> {
  return db.from('support_ticket_message').select('*').eq('ticket_id', ticketId).order('created_at');
}

export function postMessage(
  db: BackOfficeClient,
  message: NewMessage,
): PromiseLike<PostgrestSingleResponse<Tables<'support_ticket_message'>>> {
  return db.from('support_ticket_message').insert(message).select().single();
}
