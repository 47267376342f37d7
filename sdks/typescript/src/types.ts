// The SDK's public types, all derived from the types openapi-typescript generates from the OpenAPI
// description (api.types.ts): nothing here restates a field by hand.
import type { components, operations } from './api.types.ts';

type Schemas = components['schemas'];

/** A session as `GET /v3/sessions/{id}` returns it: `launch_url` only while it can be launched. */
export type GameSession = Schemas['GameSession'];
/** A session as `POST /v3/sessions` returns it: always with its `launch_url`. */
export type CreatedSession = operations['createSession']['responses'][201]['content']['application/json'];
/** RFC 9457 problem details, as every error response carries them. */
export type Problem = Schemas['Problem'];
export type ProblemCode = Schemas['ProblemCode'];
export type FieldError = Schemas['FieldError'];
export type Jwks = Schemas['Jwks'];

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
type CamelCased<T> = { [K in keyof T as CamelCase<K & string>]: T[K] };

export type Game = Schemas['Game'];
export type Provider = Schemas['Provider'];
export type Currency = Schemas['Currency'];
export type Jurisdiction = Schemas['Jurisdiction'];
export type PlayerRestrictions = Schemas['PlayerRestrictions'];
export type SandboxPlayer = Schemas['SandboxPlayer'];
export type SandboxPlayerBalances = Schemas['SandboxPlayerBalances'];
export type SandboxPlayerInput = CamelCased<WithDefaultsOptional<Schemas['SandboxPlayerRequest'], 'behaviour'>>;
export type WalletCheckReport = Schemas['WalletCheckReport'];
export type SandboxReset = Schemas['SandboxReset'];
export type SandboxFixtureSettled = Schemas['SandboxFixtureSettled'];
/** How a demo sportsbook fixture ended (`void`: POST .../void). */
export type SandboxFixtureOutcome = Schemas['SandboxFixtureOutcomeRequest']['outcome'];
export type SportsbookBet = Schemas['SportsbookBet'];
export type SportsbookSettlement = Schemas['SportsbookSettlement'];
export type PlayerRestrictionsInput = CamelCased<Schemas['PlayerRestrictionsInput']>;
export type Wallet = Schemas['Wallet'];
export type Transaction = Schemas['Transaction'];
export type Round = Schemas['Round'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** An endpoint as created or after a rotation: with its signing secret, shown this once. */
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointCreated'];
/** A request body with the fields the document gives a default made optional, as they are on the wire. */
type WithDefaultsOptional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;
export type WebhookEndpointInput = CamelCased<WithDefaultsOptional<Schemas['WebhookEndpointRequest'], 'event_types'>>;
export type WebhookEndpointChange = CamelCased<Schemas['WebhookEndpointUpdate']>;
export type Event = Schemas['Event'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WalletSettings = Schemas['WalletSettings'];
/** Wallet settings as a change answers them: with the signing secret when one was made. */
export type WalletSettingsChanged = Schemas['WalletSettingsUpdated'];
export type WalletSettingsInput = CamelCased<WithDefaultsOptional<Schemas['WalletSettingsRequest'], 'rotate_secret'>>;
/** A round as `GET /v3/rounds/{id}` returns it: with its transactions. */
export type RoundDetail = Schemas['RoundDetail'];
export type FreeRoundCampaign = Schemas['FreeRoundCampaign'];
export type FreeRoundGrant = Schemas['FreeRoundGrant'];
/** What `freeRounds.campaigns.create` takes: the request body's fields, camelCased (`externalId`, `gameIds`, `betAmount`). */
export type FreeRoundCampaignInput = CamelCased<Schemas['FreeRoundCampaignRequest']>;
/** How many grants `freeRounds.campaigns.addPlayers` made, and how many existed. */
export type FreeRoundPlayersAdded = Schemas['FreeRoundPlayersAdded'];
/** `GET /v3/reports/ggr`: cells of one currency, grouped as asked, and each currency's totals. */
export type GgrReport = Schemas['GgrReport'];
export type GgrCell = Schemas['GgrCell'];
/** What `reports.ggr` groups by. */
export type GgrDimension = 'day' | 'provider' | 'game' | 'currency' | 'player';
/** One round transaction as `GET /v3/reconciliation/transactions` lists it. */
export type ReconciliationLine = Schemas['ReconciliationLine'];
export type ReconciliationTotal = Schemas['ReconciliationTotal'];
/** A page of reconciliation lines; the first (no cursor) carries the range's `totals`. */
export type ReconciliationPage = Schemas['ReconciliationPage'];
/** `GET /v3/statements/{month}`. */
export type Statement = Schemas['Statement'];

/** One page of a list: `data`, and `next_cursor` (null on the last page) to ask for the next. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** What a list method takes: the operation's query parameters, camelCased (`updatedSince`, `playerId`). */
type ListQuery<Op extends keyof operations> = CamelCased<NonNullable<operations[Op]['parameters']['query']>>;
export type SessionListQuery = ListQuery<'listSessions'>;
export type GameListQuery = ListQuery<'listGames'>;
export type TransactionListQuery = ListQuery<'listTransactions'>;
export type RoundListQuery = ListQuery<'listRounds'>;
export type EventListQuery = ListQuery<'listEvents'>;
export type FreeRoundCampaignListQuery = ListQuery<'listFreeRoundCampaigns'>;
export type FreeRoundGrantListQuery = ListQuery<'listFreeRoundGrants'>;
export type SportsbookBetListQuery = ListQuery<'listSportsbookBets'>;
/** `from`, `to` (UTC days), filters, and `groupBy` as a list (sent comma-separated). */
export type GgrReportQuery = Omit<ListQuery<'getGgrReport'>, 'groupBy'> & { groupBy?: GgrDimension[] };
/** A UTC `date`, or `from` and `to`; `limit` and `cursor` for pages. */
export type ReconciliationQuery = ListQuery<'listReconciliationTransactions'>;
/** `limit` and `cursor`, which every list takes. */
export type PageQuery = ListQuery<'listWallets'>;

/** The POST /v3/sessions body on the wire. */
export type SessionRequest = Schemas['SessionRequest'];

/** What `sessions.create` takes: the request body's fields, camelCased (`playerId`, `gameId`, `currency`, `country`). */
export type SessionInput = CamelCased<SessionRequest>;
