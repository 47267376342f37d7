package cgs

import (
	"context"
	"time"
)

// What the tests (package cgs_test) reach inside the package.

// WithStrictDecoding makes an answer with a member the SDK's types lack an error: the conformance
// and integration tests prove the types hold everything the API sends.
func WithStrictDecoding() Option { return func(b *backend) { b.strict = true } }

// WithSleep replaces the wait between attempts, to observe it without waiting.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(b *backend) { b.sleep = sleep }
}

// WithRandom replaces the jitter's randomness.
func WithRandom(random func() float64) Option {
	return func(b *backend) { b.backoff.random = random }
}

var (
	ErrorCodes      = errorCodes
	EventTypes      = eventTypes
	ParseRetryAfter = parseRetryAfter
	NewUUID         = newUUID
	EncodeQuery     = encodeQuery
)

// WebhookDeliveryList is the answer of the deliveries and redeliver calls.
type WebhookDeliveryList = webhookDeliveryList

// BackoffDelay is the wait before retry number retry.
func BackoffDelay(base, max time.Duration, random float64, retry int, retryAfter time.Duration) time.Duration {
	return backoff{base: base, max: max, random: func() float64 { return random }}.delay(retry, retryAfter)
}
