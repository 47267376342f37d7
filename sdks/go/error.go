package cgs

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// ErrorCode is the stable, machine-readable code of an API error (the problem's `code`).
type ErrorCode string

// The codes the OpenAPI document lists (ProblemCode). Match on these, never on titles or details,
// which are for people and may change.
const (
	CodeMalformedJSON           ErrorCode = "malformed_json"
	CodeValidationFailed        ErrorCode = "validation_failed"
	CodeInvalidIdempotencyKey   ErrorCode = "invalid_idempotency_key"
	CodeInvalidSessionID        ErrorCode = "invalid_session_id"
	CodeInvalidParameters       ErrorCode = "invalid_parameters"
	CodeMissingAPIKey           ErrorCode = "missing_api_key"
	CodeInvalidAPIKey           ErrorCode = "invalid_api_key"
	CodeNotFound                ErrorCode = "not_found"
	CodeMethodNotAllowed        ErrorCode = "method_not_allowed"
	CodeIdempotencyKeyInUse     ErrorCode = "idempotency_key_in_use"
	CodePayloadTooLarge         ErrorCode = "payload_too_large"
	CodeUnsupportedMediaType    ErrorCode = "unsupported_media_type"
	CodeIdempotencyKeyReused    ErrorCode = "idempotency_key_reused"
	CodeReferenceUnavailable    ErrorCode = "reference_unavailable"
	CodeInternalError           ErrorCode = "internal_error"
	CodeServiceUnavailable      ErrorCode = "service_unavailable"
	CodeOutcomeUnknown          ErrorCode = "outcome_unknown"
	CodeInvalidProviderKey      ErrorCode = "invalid_provider_key"
	CodeInvalidSessionToken     ErrorCode = "invalid_session_token"
	CodeUnknownSession          ErrorCode = "unknown_session"
	CodeDuplicateTransaction    ErrorCode = "duplicate_transaction"
	CodeInsufficientFunds       ErrorCode = "insufficient_funds"
	CodeSessionExpired          ErrorCode = "session_expired"
	CodeSessionClosed           ErrorCode = "session_closed"
	CodeTestPlayerUnknown       ErrorCode = "test_player_unknown"
	CodeUnknownRound            ErrorCode = "unknown_round"
	CodeRoundClosed             ErrorCode = "round_closed"
	CodeRoundMismatch           ErrorCode = "round_mismatch"
	CodeUnknownTransaction      ErrorCode = "unknown_transaction"
	CodeTransactionRolledBack   ErrorCode = "transaction_rolled_back"
	CodeBetSettled              ErrorCode = "bet_settled"
	CodeInvalidRollback         ErrorCode = "invalid_rollback"
	CodeRoundsOpen              ErrorCode = "rounds_open"
	CodeAmountTooLarge          ErrorCode = "amount_too_large"
	CodeWalletRefused           ErrorCode = "wallet_refused"
	CodeWalletPending           ErrorCode = "wallet_pending"
	CodeWalletFailed            ErrorCode = "wallet_failed"
	CodeWalletUnavailable       ErrorCode = "wallet_unavailable"
	CodeTransactionPending      ErrorCode = "transaction_pending"
	CodeKYCRequired             ErrorCode = "kyc_required"
	CodePlayerRestricted        ErrorCode = "player_restricted"
	CodeStakeLimitExceeded      ErrorCode = "stake_limit_exceeded"
	CodeSessionTimeExceeded     ErrorCode = "session_time_exceeded"
	CodeExclusionActive         ErrorCode = "exclusion_active"
	CodeLossLimitReached        ErrorCode = "loss_limit_reached"
	CodeLiveKey                 ErrorCode = "live_key"
	CodeNotSeamless             ErrorCode = "not_seamless"
	CodeOperatorSuspended       ErrorCode = "operator_suspended"
	CodeExternalIDConflict      ErrorCode = "external_id_conflict"
	CodeCampaignEnded           ErrorCode = "campaign_ended"
	CodeCampaignCancelled       ErrorCode = "campaign_cancelled"
	CodeGrantCompleted          ErrorCode = "grant_completed"
	CodeFreeRoundsNotSupported  ErrorCode = "free_rounds_not_supported"
	CodeMixedProviders          ErrorCode = "mixed_providers"
	CodeStakeNotAllowed         ErrorCode = "stake_not_allowed"
	CodeFreeRoundsLimitExceeded ErrorCode = "free_rounds_limit_exceeded"
	CodeInvalidValidity         ErrorCode = "invalid_validity"
	CodeReportTooLarge          ErrorCode = "report_too_large"
)

// What the provider API answers a free bet, win or payout it refuses (the operator sees them in
// round transactions and events, never from its own calls).
const (
	CodeFreeRoundGrantUnknown      ErrorCode = "free_round_grant_unknown"
	CodeFreeRoundWrongPlayer       ErrorCode = "free_round_wrong_player"
	CodeFreeRoundWrongGame         ErrorCode = "free_round_wrong_game"
	CodeFreeRoundStakeMismatch     ErrorCode = "free_round_stake_mismatch"
	CodeFreeRoundsExhausted        ErrorCode = "free_rounds_exhausted"
	CodeFreeRoundGrantExpired      ErrorCode = "free_round_grant_expired"
	CodeFreeRoundCampaignCancelled ErrorCode = "free_round_campaign_cancelled"
	CodeFreeRoundCampaignScheduled ErrorCode = "free_round_campaign_scheduled"
	CodeFreeRoundMismatch          ErrorCode = "free_round_mismatch"
	CodeFreeRoundNotLumpSum        ErrorCode = "free_round_not_lump_sum"
	CodeFreeRoundNotPlayed         ErrorCode = "free_round_not_played"
	CodeFreeRoundAlreadyPaid       ErrorCode = "free_round_already_paid"
	CodeFreeRoundsLeft             ErrorCode = "free_rounds_left"
)

// errorCodes lists the constants above, so that a test can hold them to the document.
var errorCodes = []ErrorCode{
	CodeMalformedJSON, CodeValidationFailed, CodeInvalidIdempotencyKey, CodeInvalidSessionID,
	CodeInvalidParameters, CodeMissingAPIKey, CodeInvalidAPIKey, CodeNotFound, CodeMethodNotAllowed,
	CodeIdempotencyKeyInUse, CodePayloadTooLarge, CodeUnsupportedMediaType, CodeIdempotencyKeyReused,
	CodeReferenceUnavailable, CodeInternalError, CodeServiceUnavailable, CodeOutcomeUnknown, CodeInvalidProviderKey,
	CodeInvalidSessionToken, CodeUnknownSession, CodeDuplicateTransaction, CodeInsufficientFunds,
	CodeSessionExpired, CodeSessionClosed, CodeTestPlayerUnknown, CodeUnknownRound, CodeRoundClosed,
	CodeRoundMismatch, CodeUnknownTransaction, CodeTransactionRolledBack, CodeBetSettled,
	CodeInvalidRollback, CodeRoundsOpen, CodeAmountTooLarge, CodeWalletRefused, CodeWalletPending,
	CodeWalletFailed, CodeWalletUnavailable, CodeTransactionPending, CodeKYCRequired,
	CodePlayerRestricted, CodeStakeLimitExceeded, CodeSessionTimeExceeded, CodeExclusionActive,
	CodeLossLimitReached, CodeLiveKey, CodeNotSeamless, CodeOperatorSuspended,
	CodeExternalIDConflict, CodeCampaignEnded, CodeCampaignCancelled, CodeGrantCompleted, CodeFreeRoundsNotSupported, CodeMixedProviders,
	CodeStakeNotAllowed, CodeFreeRoundsLimitExceeded, CodeInvalidValidity, CodeReportTooLarge,
	CodeDuplicateBet, CodeUnknownBet, CodeNotSportsbook, CodeBetReserved, CodeBetNotReserved,
	CodeBetDiscarded, CodeBetNotSettled, CodeBetClosed, CodeInvalidSettlement, CodeSettlementCancelled,
	CodeFixtureSettled, CodeFixtureNotSettled,
	CodeFreeRoundGrantUnknown, CodeFreeRoundWrongPlayer, CodeFreeRoundWrongGame, CodeFreeRoundStakeMismatch,
	CodeFreeRoundsExhausted, CodeFreeRoundGrantExpired, CodeFreeRoundCampaignCancelled, CodeFreeRoundCampaignScheduled,
	CodeFreeRoundMismatch, CodeFreeRoundNotLumpSum, CodeFreeRoundNotPlayed, CodeFreeRoundAlreadyPaid, CodeFreeRoundsLeft,
}

// FieldError is one failing field of an invalid request: a JSON Pointer into the request body
// (Pointer, "#/currency") or the name of a query or path parameter (Parameter), with its own code.
type FieldError struct {
	Pointer   string `json:"pointer,omitempty"`
	Parameter string `json:"parameter,omitempty"`
	Code      string `json:"code"`
	Detail    string `json:"detail"`
}

// Error is an API error: the RFC 9457 problem the API answered with. Use errors.As to get it:
//
//	var apiErr *cgs.Error
//	if errors.As(err, &apiErr) && apiErr.Code == cgs.CodeReferenceUnavailable { ... }
//
// An answer that is not a problem (a proxy's HTML page, say) is an Error too, with the HTTP status,
// an empty Code, and Retryable set for the statuses that mean "try again later".
type Error struct {
	Type      string       `json:"type"`
	Title     string       `json:"title"`
	Status    int          `json:"status"`
	Detail    string       `json:"detail"`
	Code      ErrorCode    `json:"code"`
	Retryable bool         `json:"retryable"`
	Errors    []FieldError `json:"errors,omitempty"`
	// Balance and Currency come with insufficient_funds, and with wallet_refused when the wallet gave one.
	Balance  *Decimal `json:"balance,omitempty"`
	Currency string   `json:"currency,omitempty"`
	// Reason comes with invalid_settlement: payout_above_potential or result_payout_mismatch.
	Reason string `json:"reason,omitempty"`
	// WalletCode comes with wallet_refused: the code the operator's seamless wallet refused with.
	WalletCode string `json:"wallet_code,omitempty"`

	// Header holds the answer's headers (Retry-After, WWW-Authenticate, Allow, ...).
	Header http.Header `json:"-"`
	// RetryAfter is the answer's Retry-After, zero when absent.
	RetryAfter time.Duration `json:"-"`
	// Attempts is how many requests the call made, retries included.
	Attempts int `json:"-"`
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("cgs: %d", e.Status)
	if e.Code != "" {
		msg += " " + string(e.Code)
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	} else if e.Title != "" {
		msg += ": " + e.Title
	}
	for _, f := range e.Errors {
		where := f.Pointer
		if where == "" {
			where = f.Parameter
		}
		msg += fmt.Sprintf(" [%s %s]", where, f.Code)
	}
	return msg
}

// FieldErrors are the failing fields for one pointer ("#/currency") or parameter name ("limit").
func (e *Error) FieldErrors(field string) []FieldError {
	var found []FieldError
	for _, f := range e.Errors {
		if f.Pointer == field || f.Parameter == field {
			found = append(found, f)
		}
	}
	return found
}

// IsRetryable reports whether err is an API error the API marked retryable, or one whose status
// says the request may succeed later (too many requests, a gateway's failure, an unavailable
// service). It is what the client retries on.
func IsRetryable(err error) bool {
	var apiErr *Error
	return errors.As(err, &apiErr) && apiErr.Retryable
}

// HasCode reports whether err is an API error with the given code.
func HasCode(err error, code ErrorCode) bool {
	var apiErr *Error
	return errors.As(err, &apiErr) && apiErr.Code == code
}
