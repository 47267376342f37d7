// Package seamless is the operator's side of the seamless wallet: in seamless mode the platform
// calls your wallet for each balance request, bet (debit), win (credit) and rollback, signed with
// Standard Webhooks like webhook deliveries. This package verifies such a call, parses it into a
// Call and writes the answer the platform expects (the OpenAPI document's `webhooks.walletCall`):
//
//	handler := seamless.Handler(seamless.NewVerifier(secret), func(ctx context.Context, call *seamless.Call) seamless.Reply {
//		switch call.Action {
//		case seamless.ActionDebit:
//			balance, ok := wallet.Debit(call.PlayerID, call.TransactionID, call.Amount)
//			if !ok {
//				return seamless.Refuse(seamless.CodeInsufficientFunds, balance)
//			}
//			return seamless.Accept(balance)
//		...
//		}
//	})
//
// The rules your wallet must keep: apply each transaction_id once and answer a repeat as the first
// time; answer a rollback of a debit you never saw with a success, and refuse that debit if it comes
// later; answer within the platform's timeout (WALLET_TIMEOUT_MS).
package seamless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"time"

	cgs "github.com/casino-gaming/cgs-go/v2"
	"github.com/casino-gaming/cgs-go/v2/internal/signing"
)

// DefaultTolerance is how far a call's webhook-timestamp may be from your clock, either way.
const DefaultTolerance = signing.DefaultTolerance

// The reasons a call is refused; use errors.Is.
var (
	ErrRequiredHeaders     = signing.ErrRequiredHeaders
	ErrInvalidHeaders      = signing.ErrInvalidHeaders
	ErrNoSecret            = signing.ErrNoSecret
	ErrInvalidSecret       = signing.ErrInvalidSecret
	ErrMessageTooOld       = signing.ErrMessageTooOld
	ErrMessageTooNew       = signing.ErrMessageTooNew
	ErrNoMatchingSignature = signing.ErrNoMatchingSignature
	// ErrInvalidCall is a signed body that is not a wallet call as the contract describes it.
	ErrInvalidCall = errors.New("the signed body is not a wallet call")
	// ErrInvalidReply is a Reply the platform would not accept.
	ErrInvalidReply = errors.New("invalid wallet reply")
)

// Action is what the platform asks of your wallet.
type Action string

// The actions.
const (
	// ActionBalance asks for the player's balance; nothing moves.
	ActionBalance Action = "balance"
	// ActionDebit takes a bet's Amount. It is never retried: without an answer in time it is
	// followed by a rollback naming it.
	ActionDebit Action = "debit"
	// ActionCredit pays a win's Amount (it may be zero). Retried until answered with a success.
	ActionCredit Action = "credit"
	// ActionRollback gives back the debit RolledBackTransactionID. Retried until answered with a
	// success.
	ActionRollback Action = "rollback"
)

// Call is a wallet call as the platform sends it. Transaction and round ids are the provider's,
// prefixed with its slug ("pragmatic-play:tx-1001"), so they are unique across providers.
type Call struct {
	// ID is the call's webhook-id: the same on every retry of this call.
	ID string `json:"-"`
	// SignedAt is when this attempt was signed (webhook-timestamp).
	SignedAt time.Time `json:"-"`

	Action    Action `json:"action"`
	SessionID string `json:"session_id"`
	PlayerID  string `json:"player_id"`
	GameID    string `json:"game_id"`
	Currency  string `json:"currency"`
	// TransactionID is the key to apply a debit, credit or rollback once by.
	TransactionID string `json:"transaction_id,omitempty"`
	// RoundID is the round of a debit or credit (and of a rollback, when known).
	RoundID string `json:"round_id,omitempty"`
	// Amount of a debit or credit (of a rollback: the debit's, when known).
	Amount cgs.Decimal `json:"amount,omitempty"`
	// RolledBackTransactionID is the debit a rollback gives back.
	RolledBackTransactionID string `json:"rolled_back_transaction_id,omitempty"`
	// RoundClosed: the provider closed the round with this debit or credit.
	RoundClosed bool `json:"round_closed,omitempty"`
	// BetID names the sportsbook bet whose stake (debit), payout (credit), clawback (debit) or
	// discard (rollback) this is; RoundID is the same.
	BetID string `json:"bet_id,omitempty"`
}

// check holds the call to the contract: the members every call has, and those its action needs.
func (c *Call) check() error {
	var needs []string
	switch c.Action {
	case ActionBalance:
	case ActionDebit, ActionCredit:
		needs = []string{"transaction_id", "round_id", "amount"}
	case ActionRollback:
		needs = []string{"transaction_id", "rolled_back_transaction_id"}
	default:
		return fmt.Errorf("%w: unknown action %q", ErrInvalidCall, c.Action)
	}
	members := map[string]string{
		"session_id": c.SessionID, "player_id": c.PlayerID, "game_id": c.GameID, "currency": c.Currency,
		"transaction_id": c.TransactionID, "round_id": c.RoundID, "amount": string(c.Amount),
		"rolled_back_transaction_id": c.RolledBackTransactionID,
	}
	for _, name := range append([]string{"session_id", "player_id", "game_id", "currency"}, needs...) {
		if members[name] == "" {
			return fmt.Errorf("%w: a %s call without %s", ErrInvalidCall, c.Action, name)
		}
	}
	if c.Amount.IsNegative() {
		return fmt.Errorf("%w: negative amount %s", ErrInvalidCall, c.Amount)
	}
	return nil
}

// Verifier verifies calls against your wallet's signing secrets: the current one, and after a
// rotation the previous one too (it keeps signing for a day).
type Verifier struct {
	// Secrets are the wallet settings' signing secrets (whsec_...); any one of them verifies.
	Secrets []string
	// Tolerance is how far the timestamp may be from Now, either way; DefaultTolerance when zero.
	Tolerance time.Duration
	// Now is your clock, replaceable in tests; time.Now when nil.
	Now func() time.Time
}

// NewVerifier is a Verifier for the secrets, with the default tolerance and clock.
func NewVerifier(secrets ...string) *Verifier {
	return &Verifier{Secrets: secrets}
}

// Verify checks the call's signature and timestamp, then parses and checks its body.
func (v *Verifier) Verify(payload []byte, headers http.Header) (*Call, error) {
	verifier := signing.Verifier{Secrets: v.Secrets, Tolerance: v.Tolerance, Now: v.Now}
	message, err := verifier.Verify(payload, headers)
	if err != nil {
		return nil, fmt.Errorf("seamless: %w", err)
	}
	call := &Call{}
	if err := json.Unmarshal(payload, call); err != nil {
		return nil, fmt.Errorf("seamless: %w: %v", ErrInvalidCall, err)
	}
	if err := call.check(); err != nil {
		return nil, fmt.Errorf("seamless: %w", err)
	}
	call.ID, call.SignedAt = message.ID, message.Timestamp
	return call, nil
}

// Verify checks a call against any of the secrets, with the default tolerance, and parses it.
func Verify(payload []byte, headers http.Header, secrets ...string) (*Call, error) {
	return NewVerifier(secrets...).Verify(payload, headers)
}

// CodeInsufficientFunds is the code to refuse a debit the balance cannot cover with.
const CodeInsufficientFunds = "insufficient_funds"

// Reply is your wallet's answer: Accept (the balance after the call) or Refuse (a client error with a
// code, for a debit you will not take).
type Reply struct {
	// Status is the HTTP status: http.StatusOK for Accept, http.StatusUnprocessableEntity for Refuse.
	Status  int         `json:"-"`
	Code    string      `json:"code,omitempty"`
	Balance cgs.Decimal `json:"balance,omitempty"`
}

// Accept answers that the call was applied (or was applied before), with the player's balance after
// it: {"balance": ...}.
func Accept(balance cgs.Decimal) Reply {
	return Reply{Status: http.StatusOK, Balance: balance}
}

// Refuse answers that nothing was applied: {"code": ..., "balance": ...}, unprocessable. The balance
// may be left empty. The platform refuses the bet to the provider with wallet_refused, or with
// insufficient_funds for that code.
func Refuse(code string, balance cgs.Decimal) Reply {
	return Reply{Status: http.StatusUnprocessableEntity, Code: code, Balance: balance}
}

var (
	codePattern   = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	amountPattern = regexp.MustCompile(`^(0|[1-9][0-9]{0,15})(\.[0-9]{1,4})?$`)
)

// body is the reply's JSON with the balance in canonical form, after checking it is an answer
// the platform accepts (anything else it reads as no answer: a failed debit, a credit retried).
func (r Reply) body() ([]byte, error) {
	balance := r.Balance
	if balance != "" {
		canonical, err := balance.Canonical()
		if err != nil || !amountPattern.MatchString(string(canonical)) {
			return nil, fmt.Errorf("%w: balance %q is not a decimal amount of at most 16 digits and 4 decimals, 0 or more", ErrInvalidReply, string(balance))
		}
		balance = canonical
	}
	switch {
	case r.Status >= 200 && r.Status < 300:
		if balance == "" {
			return nil, fmt.Errorf("%w: an accepted call needs the balance", ErrInvalidReply)
		}
		return json.Marshal(struct {
			Balance cgs.Decimal `json:"balance"`
		}{balance})
	case r.Status >= 400 && r.Status < 500:
		if !codePattern.MatchString(r.Code) {
			return nil, fmt.Errorf("%w: code %q is not lower-case letters, digits and _", ErrInvalidReply, r.Code)
		}
		return json.Marshal(Reply{Code: r.Code, Balance: balance})
	}
	return nil, fmt.Errorf("%w: status %d is neither 2xx nor 4xx", ErrInvalidReply, r.Status)
}

// Body is the reply's JSON body, checked against the contract.
func (r Reply) Body() ([]byte, error) { return r.body() }

// Write sends the reply. An invalid reply is sent as a server error, which the platform treats as no
// answer.
func (r Reply) Write(w http.ResponseWriter) error {
	body, err := r.body()
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, `{"code":"invalid_reply"}`)
		return err
	}
	writeJSON(w, r.Status, string(body))
	return nil
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// maxCallBytes bounds the body read: calls are small, and an unverified body is read in full.
const maxCallBytes = 64 << 10

// HandlerFunc applies one verified call and says how it went.
type HandlerFunc func(ctx context.Context, call *Call) Reply

// Handler serves your wallet URL: it verifies each call (a bad signature, a stale timestamp or a
// body outside the contract is a client error with a code, and fn never sees it), passes it to fn
// and writes fn's reply.
func Handler(v *Verifier, fn HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeJSON(w, http.StatusMethodNotAllowed, `{"code":"method_not_allowed"}`)
			return
		}
		payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxCallBytes))
		if err != nil {
			writeJSON(w, http.StatusRequestEntityTooLarge, `{"code":"payload_too_large"}`)
			return
		}
		call, err := v.Verify(payload, r.Header)
		switch {
		case errors.Is(err, ErrInvalidCall):
			writeJSON(w, http.StatusBadRequest, `{"code":"invalid_call"}`)
			return
		case err != nil:
			writeJSON(w, http.StatusUnauthorized, `{"code":"invalid_signature"}`)
			return
		}
		_ = fn(r.Context(), call).Write(w)
	})
}
