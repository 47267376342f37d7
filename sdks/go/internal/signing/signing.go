// Package signing is Standard Webhooks v1, the one scheme the platform signs everything it sends
// with (webhook deliveries and seamless wallet calls): an HMAC-SHA256 of "{id}.{timestamp}.{body}"
// under a `whsec_` secret, sent as `v1,<base64>` in webhook-signature, one per secret in use.
package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is how far a message's timestamp may be from the receiver's clock, either way:
// older messages may be replays, newer ones come from a clock that cannot be trusted.
const DefaultTolerance = 5 * time.Minute

// The ways a message can fail verification; each error returned wraps one of them.
var (
	ErrRequiredHeaders     = errors.New("missing webhook-id, webhook-timestamp or webhook-signature header")
	ErrInvalidHeaders      = errors.New("invalid webhook-timestamp header")
	ErrNoSecret            = errors.New("no secret to verify with")
	ErrInvalidSecret       = errors.New("invalid secret: expected whsec_ followed by base64")
	ErrMessageTooOld       = errors.New("message timestamp too old")
	ErrMessageTooNew       = errors.New("message timestamp too far in the future")
	ErrNoMatchingSignature = errors.New("no matching signature")
)

const secretPrefix = "whsec_"

// Key decodes a secret: `whsec_` then base64 (the prefix is optional, as in the reference libraries).
func Key(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil || len(key) == 0 {
		return nil, ErrInvalidSecret
	}
	return key, nil
}

// Sign is the `v1,<base64>` signature of a message under one secret.
func Sign(secret, id string, timestamp time.Time, payload []byte) (string, error) {
	key, err := Key(secret)
	if err != nil {
		return "", err
	}
	return "v1," + base64.StdEncoding.EncodeToString(mac(key, id, strconv.FormatInt(timestamp.Unix(), 10), payload)), nil
}

func mac(key []byte, id, timestamp string, payload []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(id))
	h.Write([]byte("."))
	h.Write([]byte(timestamp))
	h.Write([]byte("."))
	h.Write(payload)
	return h.Sum(nil)
}

// Verifier checks messages against one or more secrets (several during a rotation).
type Verifier struct {
	Secrets []string
	// Tolerance is how far the timestamp may be from Now, either way; DefaultTolerance when zero.
	Tolerance time.Duration
	// Now is the receiver's clock; time.Now when nil.
	Now func() time.Time
}

// Message is what a verified message's headers said.
type Message struct {
	ID        string
	Timestamp time.Time
}

// Verify checks payload against the headers: a webhook-timestamp within the tolerance, and a v1
// signature (any of those space-separated in webhook-signature) made with any of the secrets. The
// signatures are compared in constant time.
func (v *Verifier) Verify(payload []byte, headers http.Header) (Message, error) {
	id := headers.Get("webhook-id")
	stamp := headers.Get("webhook-timestamp")
	signatures := headers.Get("webhook-signature")
	if id == "" || stamp == "" || signatures == "" {
		return Message{}, ErrRequiredHeaders
	}
	if len(v.Secrets) == 0 {
		return Message{}, ErrNoSecret
	}
	keys := make([][]byte, 0, len(v.Secrets))
	for _, secret := range v.Secrets {
		key, err := Key(secret)
		if err != nil {
			return Message{}, err
		}
		keys = append(keys, key)
	}
	seconds, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil || seconds < 0 || strings.HasPrefix(stamp, "+") {
		return Message{}, ErrInvalidHeaders
	}
	at := time.Unix(seconds, 0)
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	tolerance := v.Tolerance
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	clock := now()
	if clock.Sub(at) > tolerance {
		return Message{}, fmt.Errorf("%w: signed at %s", ErrMessageTooOld, at.UTC().Format(time.RFC3339))
	}
	if at.Sub(clock) > tolerance {
		return Message{}, fmt.Errorf("%w: signed at %s", ErrMessageTooNew, at.UTC().Format(time.RFC3339))
	}
	// Every pair is compared, whatever matched, so the time taken says nothing about which did.
	matched := false
	for _, key := range keys {
		expected := mac(key, id, stamp, payload)
		for _, signature := range strings.Fields(signatures) {
			version, encoded, ok := strings.Cut(signature, ",")
			if !ok || version != "v1" {
				continue
			}
			given, err := base64.StdEncoding.DecodeString(encoded)
			if err != nil {
				continue
			}
			if hmac.Equal(given, expected) {
				matched = true
			}
		}
	}
	if !matched {
		return Message{}, ErrNoMatchingSignature
	}
	return Message{ID: id, Timestamp: at}, nil
}
