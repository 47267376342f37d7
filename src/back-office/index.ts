// @casino-gaming/integration-service/back-office: the typed Supabase client for the back-office app.
export { type ApiKeySummary, clientApiKeys, clientWallets, latestTransactions } from './account.ts';
export { currencies, gameProviders } from './catalogue.ts';
export { type BackOfficeClient, type BackOfficeClientOptions, createBackOfficeClient } from './client.ts';
export { type ContactMessage, sendContactMessage } from './contact.ts';
export {
  issueApiKey,
  type IssueApiKeyArgs,
  type IssuedApiKey,
  recordTransaction,
  resolveRound,
  type RecordTransactionArgs,
  revokeApiKey,
  type RevokedApiKey,
} from './staff.ts';
export { clientTickets, type NewMessage, type NewTicket, openTicket, postMessage, ticketMessages } from './support.ts';
export type { Database, Enums, Json, Tables, TablesInsert, TablesUpdate } from '../database.types.ts';
