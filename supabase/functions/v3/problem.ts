// Errors an API caller may see: values with an HTTP status and a stable machine-readable code,
// turned into RFC 9457 application/problem+json here and nowhere else.

/**
 * Every code an API caller may get, declared once: its HTTP status, its title, and whether the same
 * request sent again unchanged may be answered otherwise (retryable). Retryable: a request still
 * running under the same Idempotency-Key, a database that was out of reach (nothing was written), a
 * write the database may have applied without confirming it (only the same request again, under the
 * same transaction_id or Idempotency-Key, is safe: it gets the first answer), and a seamless wallet
 * call still under way (the same call again gets its answer). Every other answer stays the same on a
 * retry until the request changes. The OpenAPI document's ProblemCode lists exactly these
 * (tests/openapi/document.test.ts).
 */
export const problems = {
  malformed_json: { status: 400, title: 'Malformed JSON', retryable: false },
  validation_failed: { status: 400, title: 'Invalid request', retryable: false },
  invalid_idempotency_key: { status: 400, title: 'Invalid Idempotency-Key', retryable: false },
  invalid_session_id: { status: 400, title: 'Invalid session id', retryable: false },
  invalid_parameters: { status: 400, title: 'Invalid query parameters', retryable: false },
  missing_api_key: { status: 401, title: 'API key required', retryable: false },
  invalid_api_key: { status: 401, title: 'Invalid API key', retryable: false },
  not_found: { status: 404, title: 'Not found', retryable: false },
  method_not_allowed: { status: 405, title: 'Method not allowed', retryable: false },
  idempotency_key_in_use: { status: 409, title: 'Request with this Idempotency-Key in progress', retryable: true },
  payload_too_large: { status: 413, title: 'Payload too large', retryable: false },
  unsupported_media_type: { status: 415, title: 'Unsupported media type', retryable: false },
  idempotency_key_reused: { status: 422, title: 'Idempotency-Key reused with another request', retryable: false },
  reference_unavailable: { status: 422, title: 'Unknown or unavailable reference', retryable: false },
  kyc_required: { status: 403, title: 'KYC verification required', retryable: false },
  live_key: { status: 403, title: 'A test key is needed', retryable: false },
  not_seamless: { status: 409, title: 'Not in seamless mode', retryable: false },
  player_restricted: { status: 403, title: 'Player restricted', retryable: false },
  operator_suspended: { status: 403, title: 'Operator suspended', retryable: false },
  exclusion_active: { status: 409, title: 'Exclusion running', retryable: false },
  // Free rounds' (the operator API's campaigns and grants).
  external_id_conflict: { status: 409, title: 'external_id used by another campaign', retryable: false },
  campaign_ended: { status: 409, title: 'Campaign ended', retryable: false },
  campaign_cancelled: { status: 409, title: 'Campaign cancelled', retryable: false },
  grant_completed: { status: 409, title: 'Free-round grant completed', retryable: false },
  free_rounds_not_supported: { status: 422, title: 'Free rounds not supported', retryable: false },
  mixed_providers: { status: 422, title: 'Games of several providers', retryable: false },
  stake_not_allowed: { status: 422, title: 'Stake not allowed', retryable: false },
  free_rounds_limit_exceeded: { status: 422, title: 'Beyond the provider\'s free-round limits', retryable: false },
  invalid_validity: { status: 422, title: 'Invalid validity window', retryable: false },
  // Reports'.
  report_too_large: { status: 422, title: 'Report too large', retryable: false },
  // The provider API's.
  invalid_provider_key: { status: 401, title: 'Invalid provider key', retryable: false },
  invalid_session_token: { status: 403, title: 'Invalid session token', retryable: false },
  unknown_session: { status: 404, title: 'Unknown session', retryable: false },
  duplicate_transaction: { status: 409, title: 'Transaction id used by another request', retryable: false },
  insufficient_funds: { status: 422, title: 'Insufficient funds', retryable: false },
  session_expired: { status: 422, title: 'Session expired', retryable: false },
  session_closed: { status: 422, title: 'Session closed', retryable: false },
  test_player_unknown: { status: 422, title: 'Unknown test player', retryable: false },
  unknown_round: { status: 422, title: 'Unknown round', retryable: false },
  round_closed: { status: 422, title: 'Round closed', retryable: false },
  round_mismatch: { status: 422, title: 'Round of another session', retryable: false },
  unknown_transaction: { status: 422, title: 'Unknown transaction', retryable: false },
  transaction_rolled_back: { status: 422, title: 'Transaction rolled back', retryable: false },
  bet_settled: { status: 422, title: 'Bet settled', retryable: false },
  invalid_rollback: { status: 422, title: 'Invalid rollback', retryable: false },
  rounds_open: { status: 409, title: 'Rounds open', retryable: false },
  wallet_refused: { status: 422, title: 'Refused by the wallet', retryable: false },
  transaction_pending: { status: 409, title: 'Bet awaiting the wallet', retryable: true },
  wallet_pending: { status: 502, title: 'Awaiting the wallet', retryable: true },
  wallet_failed: { status: 502, title: 'Wallet did not answer', retryable: false },
  wallet_unavailable: { status: 502, title: 'Wallet unavailable', retryable: true },
  amount_too_large: { status: 422, title: 'Amount too large', retryable: false },
  stake_limit_exceeded: { status: 422, title: 'Stake limit exceeded', retryable: false },
  session_time_exceeded: { status: 422, title: 'Session time exceeded', retryable: false },
  loss_limit_reached: { status: 422, title: 'Loss limit reached', retryable: false },
  // Free rounds, on the provider API.
  free_round_grant_unknown: { status: 422, title: 'Unknown free-round grant', retryable: false },
  free_round_wrong_player: { status: 422, title: 'Free rounds of another player', retryable: false },
  free_round_wrong_game: { status: 422, title: 'Free rounds of another game', retryable: false },
  free_round_stake_mismatch: { status: 422, title: 'Not the free round\'s stake', retryable: false },
  free_rounds_exhausted: { status: 422, title: 'Free rounds used up', retryable: false },
  free_round_grant_expired: { status: 422, title: 'Free rounds expired', retryable: false },
  free_round_campaign_cancelled: { status: 422, title: 'Free-round campaign cancelled', retryable: false },
  free_round_campaign_scheduled: { status: 422, title: 'Free-round campaign not started', retryable: false },
  free_round_mismatch: { status: 422, title: 'Round funded otherwise', retryable: false },
  free_round_already_paid: { status: 422, title: 'Free rounds paid out already', retryable: false },
  free_round_not_lump_sum: { status: 422, title: 'Free rounds paid per round', retryable: false },
  free_rounds_left: { status: 422, title: 'Free rounds not over', retryable: false },
  free_round_not_played: { status: 422, title: 'Free rounds not played', retryable: false },
  // The sportsbook's (the provider API's sportsbook calls).
  duplicate_bet: { status: 409, title: 'Bet id used by another bet', retryable: false },
  unknown_bet: { status: 422, title: 'Unknown bet', retryable: false },
  not_sportsbook: { status: 422, title: 'Not a sportsbook', retryable: false },
  bet_reserved: { status: 422, title: 'Bet reserved', retryable: false },
  bet_not_reserved: { status: 422, title: 'Bet not reserved', retryable: false },
  bet_discarded: { status: 422, title: 'Bet discarded', retryable: false },
  bet_not_settled: { status: 422, title: 'Bet not settled', retryable: false },
  bet_closed: { status: 422, title: 'Bet closed', retryable: false },
  invalid_settlement: { status: 422, title: 'Invalid settlement', retryable: false },
  settlement_cancelled: { status: 422, title: 'Settlement cancelled', retryable: false },
  fixture_settled: { status: 409, title: 'Fixture settled', retryable: false },
  fixture_not_settled: { status: 409, title: 'Fixture not settled', retryable: false },
  internal_error: { status: 500, title: 'Internal error', retryable: false },
  service_unavailable: { status: 503, title: 'Service unavailable', retryable: true },
  outcome_unknown: { status: 503, title: 'Outcome unknown', retryable: true },
} as const satisfies Record<string, { status: number; title: string; retryable: boolean }>;

export type ProblemCode = keyof typeof problems;

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
    ({ status: this.status, title: this.title } = problems[code]);
  }

  toResponse(): Response {
    const body = {
      type: PROBLEM_TYPE_BASE + this.code,
      title: this.title,
      status: this.status,
      detail: this.detail,
      code: this.code,
      retryable: problems[this.code].retryable,
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
