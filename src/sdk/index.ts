// @casino-gaming/integration-service: the TypeScript SDK for operators (API v3).
export { ApiError } from './api-error.ts';
export {
  createOperatorClient,
  type CreateSessionOptions,
  type ListMethods,
  type OperatorClient,
  type OperatorClientOptions,
  type RequestOptions,
} from './operator-client.ts';
export type { RetryOptions } from './retry.ts';
export type {
  CreatedSession,
  Currency,
  FieldError,
  Game,
  GameListQuery,
  GameSession,
  Jwks,
  Page,
  PageQuery,
  Problem,
  ProblemCode,
  Provider,
  Event,
  EventListQuery,
  Round,
  RoundDetail,
  RoundListQuery,
  WalletSettings,
  WalletSettingsChanged,
  WalletSettingsInput,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointChange,
  WebhookEndpointInput,
  WebhookEndpointWithSecret,
  SessionInput,
  SessionListQuery,
  Transaction,
  TransactionListQuery,
  Wallet,
} from './types.ts';
export type { components, operations, paths } from './api.types.ts';
