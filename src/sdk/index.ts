// @casino-gaming/integration-service: the TypeScript SDK for operators (API v3).
export { ApiError } from './api-error.ts';
export {
  createOperatorClient,
  type CreateSessionOptions,
  type OperatorClient,
  type OperatorClientOptions,
  type RequestOptions,
} from './operator-client.ts';
export type { RetryOptions } from './retry.ts';
export type { CreatedSession, FieldError, GameSession, Jwks, Problem, ProblemCode, SessionInput } from './types.ts';
export type { components, operations, paths } from './api.types.ts';
