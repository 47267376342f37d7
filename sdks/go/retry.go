package cgs

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The defaults of the retry policy and of the per-attempt timeout.
const (
	DefaultMaxRetries   = 2
	DefaultBaseDelay    = 250 * time.Millisecond
	DefaultMaxDelay     = 30 * time.Second
	DefaultTimeout      = 15 * time.Second
	maxProblemBodyBytes = 1 << 20
)

// backoff decides how long to wait before a retry.
type backoff struct {
	base, max time.Duration
	// random returns a value from zero up to one; crypto/rand by default, replaced by tests.
	random func() float64
}

// delay is the wait before retry number retry (counted from zero): exponential with "equal jitter"
// (half of each step fixed, half random) so that clients that failed together spread out; never
// sooner than the server's Retry-After, never longer than max.
func (b backoff) delay(retry int, retryAfter time.Duration) time.Duration {
	step := b.base
	for i := 0; i < retry && step < b.max; i++ {
		step *= 2
	}
	if step > b.max {
		step = b.max
	}
	wait := step/2 + time.Duration(b.random()*float64(step/2))
	if retryAfter > wait {
		wait = retryAfter
	}
	if wait > b.max {
		wait = b.max
	}
	return wait
}

// cryptoRandom is a uniform value from zero up to one, from crypto/rand: math/rand's default source
// gives every process the same sequence on the Go versions this module supports, which would let
// clients retry in step.
func cryptoRandom() float64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0.5
	}
	return float64(binary.BigEndian.Uint64(b[:])>>11) / (1 << 53)
}

// parseRetryAfter reads Retry-After (RFC 9110): delay-seconds or an HTTP-date; zero when absent or
// unreadable.
func parseRetryAfter(value string, now time.Time) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}
	if seconds, err := strconv.ParseUint(value, 10, 32); err == nil {
		return time.Duration(seconds) * time.Second
	}
	if at, err := http.ParseTime(value); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}

// retryableStatus: too many requests, and the gateway and availability failures, where the request
// was not carried out and may succeed later.
func retryableStatus(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryableAnswer decides on an error answer. A replayable request (one the server treats as the
// same request when repeated: a read, or a create under an Idempotency-Key) is retried on any
// retryable answer. Any other request only on too many requests, which the server sends before doing
// anything; an unavailable service can follow a commit whose answer was lost, so repeating, say, a
// webhook endpoint's creation could make a second one.
func retryableAnswer(apiErr *Error, replayable bool) bool {
	if !apiErr.Retryable {
		return false
	}
	return replayable || apiErr.Status == http.StatusTooManyRequests
}

// retryableFailure decides on a request that got no answer. A replayable request is retried on any
// network failure or attempt timeout; any other one only when the connection was never made, so
// the server cannot have seen it.
func retryableFailure(err error, replayable bool) bool {
	if replayable {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

// newUUID is a random (version 4) UUID from crypto/rand, for Idempotency-Keys.
func newUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("cgs: generating an Idempotency-Key: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}
