// Package webhook verifies the events the platform delivers to your webhook endpoints, signed with
// Standard Webhooks v1, and parses them:
//
//	func hooks(w http.ResponseWriter, r *http.Request) {
//		payload, _ := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
//		event, err := webhook.Verify(payload, r.Header, os.Getenv("CGS_WEBHOOK_SECRET"))
//		if err != nil {
//			http.Error(w, "bad signature", http.StatusBadRequest)
//			return
//		}
//		// event.ID is the same on every retry of this event: key on it.
//	}
//
// Verify the raw body as received: a body decoded and encoded again no longer matches its
// signature.
package webhook

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	cgs "github.com/casino-gaming/cgs-go/v2"
	"github.com/casino-gaming/cgs-go/v2/internal/signing"
)

// DefaultTolerance is how far a delivery's webhook-timestamp may be from your clock, either way.
const DefaultTolerance = signing.DefaultTolerance

// The reasons a delivery is refused; use errors.Is. Any of them means: answer a client error, do
// not act.
var (
	ErrRequiredHeaders     = signing.ErrRequiredHeaders
	ErrInvalidHeaders      = signing.ErrInvalidHeaders
	ErrNoSecret            = signing.ErrNoSecret
	ErrInvalidSecret       = signing.ErrInvalidSecret
	ErrMessageTooOld       = signing.ErrMessageTooOld
	ErrMessageTooNew       = signing.ErrMessageTooNew
	ErrNoMatchingSignature = signing.ErrNoMatchingSignature
	ErrInvalidPayload      = errors.New("the signed body is not an event")
)

// Verifier verifies deliveries against your endpoint's secrets: the current one, and during a
// rotation the previous one too (the platform signs with both for a day).
type Verifier struct {
	// Secrets are the endpoint's signing secrets (whsec_...); any one of them verifies.
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

// Verify checks the delivery's signature and timestamp, then parses its body into an event.
func (v *Verifier) Verify(payload []byte, headers http.Header) (*cgs.Event, error) {
	verifier := signing.Verifier{Secrets: v.Secrets, Tolerance: v.Tolerance, Now: v.Now}
	if _, err := verifier.Verify(payload, headers); err != nil {
		return nil, fmt.Errorf("webhook: %w", err)
	}
	event := &cgs.Event{}
	if err := json.Unmarshal(payload, event); err != nil {
		return nil, fmt.Errorf("webhook: %w: %v", ErrInvalidPayload, err)
	}
	if event.ID == "" || event.Type == "" || len(event.Data) == 0 {
		return nil, fmt.Errorf("webhook: %w: id, type or data missing", ErrInvalidPayload)
	}
	return event, nil
}

// Verify checks a delivery against any of the secrets, with the default tolerance, and parses it.
func Verify(payload []byte, headers http.Header, secrets ...string) (*cgs.Event, error) {
	return NewVerifier(secrets...).Verify(payload, headers)
}

// Sign is the `v1,<base64>` signature the platform sends for a message: for your own tests of a
// receiver. Several signatures go space-separated in webhook-signature.
func Sign(secret, id string, timestamp time.Time, payload []byte) (string, error) {
	return signing.Sign(secret, id, timestamp, payload)
}
