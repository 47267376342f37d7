// Errors an API caller may see: values with an HTTP status and a stable machine-readable code,
// turned into RFC 9457 application/problem+json here and nowhere else.

const catalogue = {
  malformed_json: [400, 'Malformed JSON'],
  validation_failed: [400, 'Invalid request'],
  invalid_idempotency_key: [400, 'Invalid Idempotency-Key'],
  invalid_session_id: [400, 'Invalid session id'],
  invalid_parameters: [400, 'Invalid query parameters'],
  missing_api_key: [401, 'API key required'],
  invalid_api_key: [401, 'Invalid API key'],
  not_found: [404, 'Not found'],
  method_not_allowed: [405, 'Method not allowed'],
  idempotency_key_in_use: [409, 'Request with this Idempotency-Key in progress'],
  payload_too_large: [413, 'Payload too large'],
  unsupported_media_type: [415, 'Unsupported media type'],
  idempotency_key_reused: [422, 'Idempotency-Key reused with another request'],
  reference_unavailable: [422, 'Unknown or unavailable provider or currency'],
  kyc_required: [403, 'KYC verification required'],
  live_key: [403, 'A test key is needed'],
  not_seamless: [409, 'Not in seamless mode'],
  player_restricted: [403, 'Player restricted'],
  operator_suspended: [403, 'Operator suspended'],
  exclusion_active: [409, 'Exclusion running'],
  // The provider API's.
  invalid_provider_key: [401, 'Invalid provider key'],
  invalid_session_token: [403, 'Invalid session token'],
  unknown_session: [404, 'Unknown session'],
  duplicate_transaction: [409, 'Transaction id used by another request'],
  insufficient_funds: [422, 'Insufficient funds'],
  session_expired: [422, 'Session expired'],
  session_closed: [422, 'Session closed'],
  test_player_unknown: [422, 'Unknown test player'],
  unknown_round: [422, 'Unknown round'],
  round_closed: [422, 'Round closed'],
  round_mismatch: [422, 'Round of another session'],
  unknown_transaction: [422, 'Unknown transaction'],
  transaction_rolled_back: [422, 'Transaction rolled back'],
  bet_settled: [422, 'Bet settled'],
  invalid_rollback: [422, 'Invalid rollback'],
  rounds_open: [409, 'Rounds open'],
  wallet_refused: [422, 'Refused by the wallet'],
  transaction_pending: [409, 'Bet awaiting the wallet'],
  wallet_pending: [502, 'Awaiting the wallet'],
  wallet_failed: [502, 'Wallet did not answer'],
  wallet_unavailable: [502, 'Wallet unavailable'],
  amount_too_large: [422, 'Amount too large'],
  stake_limit_exceeded: [422, 'Stake limit exceeded'],
  session_time_exceeded: [422, 'Session time exceeded'],
  loss_limit_reached: [422, 'Loss limit reached'],
  internal_error: [500, 'Internal error'],
  service_unavailable: [503, 'Service unavailable'],
  outcome_unknown: [503, 'Outcome unknown'],
} as const satisfies Record<string, readonly [number, string]>;

export type ProblemCode = keyof typeof catalogue;

/**
 * The answers worth sending again unchanged: a request still running under the same Idempotency-Key,
 * a database that was out of reach (nothing was written), a write the database may have applied
 * without confirming it (only the same request again, under the same transaction_id or
 * Idempotency-Key, is safe: it gets the first answer), and a seamless wallet call still under way
 * (the same call again gets its answer). Every other answer stays the same on a retry until the
 * request changes.
 */
const RETRYABLE = new Set<ProblemCode>([
  'idempotency_key_in_use', 'service_unavailable', 'outcome_unknown', 'transaction_pending', 'wallet_pending', 'wallet_unavailable',
]);

/**
 * One failing field: a JSON Pointer into the request body (`pointer`) or the name of a query
 * parameter (`parameter`), a stable code and a sentence.
 */
export type FieldError = ({ pointer: string } | { parameter: string }) & {
  code: string;
  detail: string;
};

export const PROBLEM_TYPE_BASE = 'https://docs.cgs.example/problems/';

export class Problem extends Error {
  override readonly name = 'Problem';
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extras: { errors?: FieldError[]; headers?: Record<string, string>; members?: Record<string, unknown> } = {},
  ) {
    super(detail);
    [this.status, this.title] = catalogue[code];
  }

  toResponse(): Response {
    const body = {
      type: PROBLEM_TYPE_BASE + this.code,
      title: this.title,
      status: this.status,
      detail: this.detail,
      code: this.code,
      retryable: RETRYABLE.has(this.code),
      ...(this.extras.errors ? { errors: this.extras.errors } : {}),
      ...this.extras.members,
    };
    return new Response(JSON.stringify(body), {
      status: this.status,
      headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...this.extras.headers },
    });
  }
}

/** A JSON Pointer (RFC 6901) to a top-level member, in the URI fragment form RFC 9457 shows. */
export function pointerTo(member: string): string {
  return `#/${member.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}
