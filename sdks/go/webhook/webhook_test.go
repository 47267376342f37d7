package webhook_test

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	cgs "github.com/casino-gaming/cgs-go/v2"
	"github.com/casino-gaming/cgs-go/v2/webhook"
)

const (
	secret      = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	otherSecret = "whsec_c2Vjb25kLXNlY3JldC1mb3Itcm90YXRpb24tdGVzdHM="
)

// The Standard Webhooks reference vector (the same signature the `standardwebhooks` packages make).
func TestSignMatchesTheReferenceVector(t *testing.T) {
	got, err := webhook.Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if err != nil || got != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("%q, %v", got, err)
	}
}

var signedAt = time.Unix(1795600000, 0)

const payload = `{"id":"3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a","type":"session.created","created_at":"2026-11-24T10:00:04.500000+00:00",` +
	`"livemode":true,"data":{"id":"0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90","player_id":"player-1","game_id":"pragmatic-play:vs20olympgate",` +
	`"currency":"EUR","status":"created","livemode":true,"created_at":"2026-11-24T10:00:04.500000+00:00","expires_at":"2026-11-24T10:15:04.500000+00:00"}}`

func headers(t *testing.T, body string, secrets ...string) http.Header {
	t.Helper()
	h := http.Header{}
	h.Set("webhook-id", "3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a")
	h.Set("webhook-timestamp", strconv.FormatInt(signedAt.Unix(), 10))
	signatures := ""
	for _, s := range secrets {
		sig, err := webhook.Sign(s, h.Get("webhook-id"), signedAt, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if signatures != "" {
			signatures += " "
		}
		signatures += sig
	}
	h.Set("webhook-signature", signatures)
	return h
}

func at(offset time.Duration, secrets ...string) *webhook.Verifier {
	return &webhook.Verifier{Secrets: secrets, Now: func() time.Time { return signedAt.Add(offset) }}
}

func TestVerifyParsesTheEvent(t *testing.T) {
	event, err := at(time.Second, secret).Verify([]byte(payload), headers(t, payload, secret))
	if err != nil {
		t.Fatal(err)
	}
	if event.Type != cgs.EventSessionCreated || !event.Type.Known() || !event.Livemode {
		t.Errorf("event %+v", event)
	}
	var session cgs.Session
	if err := event.DecodeData(&session); err != nil || session.PlayerID != "player-1" || session.Status != cgs.SessionCreated {
		t.Errorf("session %+v, %v", session, err)
	}
}

func TestRotationEitherSignatureAnySecret(t *testing.T) {
	both := headers(t, payload, otherSecret, secret)
	for _, secrets := range [][]string{{secret}, {otherSecret}, {secret, otherSecret}, {"whsec_bm9wZQ==", otherSecret}} {
		if _, err := at(0, secrets...).Verify([]byte(payload), both); err != nil {
			t.Errorf("secrets %v: %v", secrets, err)
		}
	}
	// One signature, checked against a list holding its secret second.
	if _, err := at(0, otherSecret, secret).Verify([]byte(payload), headers(t, payload, secret)); err != nil {
		t.Error(err)
	}
}

func TestRefusals(t *testing.T) {
	good := headers(t, payload, secret)
	with := func(name, value string) http.Header {
		h := good.Clone()
		if value == "" {
			h.Del(name)
		} else {
			h.Set(name, value)
		}
		return h
	}
	cases := []struct {
		name     string
		verifier *webhook.Verifier
		body     string
		headers  http.Header
		want     error
	}{
		{"a tampered body", at(0, secret), payload[:len(payload)-2] + " }", good, webhook.ErrNoMatchingSignature},
		{"a tampered signature", at(0, secret), payload, with("webhook-signature", "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="), webhook.ErrNoMatchingSignature},
		{"another id", at(0, secret), payload, with("webhook-id", "another"), webhook.ErrNoMatchingSignature},
		{"another timestamp", at(0, secret), payload, with("webhook-timestamp", strconv.FormatInt(signedAt.Unix()+1, 10)), webhook.ErrNoMatchingSignature},
		{"a wrong secret", at(0, otherSecret), payload, good, webhook.ErrNoMatchingSignature},
		{"a signature of another version", at(0, secret), payload, with("webhook-signature", "v2"+good.Get("webhook-signature")[2:]), webhook.ErrNoMatchingSignature},
		{"a stale timestamp", at(5*time.Minute+time.Second, secret), payload, good, webhook.ErrMessageTooOld},
		{"a future timestamp", at(-5*time.Minute-time.Second, secret), payload, good, webhook.ErrMessageTooNew},
		{"no signature", at(0, secret), payload, with("webhook-signature", ""), webhook.ErrRequiredHeaders},
		{"no id", at(0, secret), payload, with("webhook-id", ""), webhook.ErrRequiredHeaders},
		{"a timestamp in milliseconds' clothing", at(0, secret), payload, with("webhook-timestamp", "1.5"), webhook.ErrInvalidHeaders},
		{"no secret", at(0), payload, good, webhook.ErrNoSecret},
		{"a secret that is not base64", at(0, "whsec_***"), payload, good, webhook.ErrInvalidSecret},
	}
	for _, tc := range cases {
		if _, err := tc.verifier.Verify([]byte(tc.body), tc.headers); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestToleranceIsFiveMinutesEitherWay(t *testing.T) {
	h := headers(t, payload, secret)
	for _, offset := range []time.Duration{5 * time.Minute, -5 * time.Minute} {
		if _, err := at(offset, secret).Verify([]byte(payload), h); err != nil {
			t.Errorf("%v away: %v", offset, err)
		}
	}
	v := at(time.Hour, secret)
	v.Tolerance = 2 * time.Hour
	if _, err := v.Verify([]byte(payload), h); err != nil {
		t.Errorf("a wider tolerance: %v", err)
	}
}

func TestASignedBodyThatIsNoEventIsRefused(t *testing.T) {
	for _, body := range []string{`not json`, `{"id":"x"}`, `[]`} {
		if _, err := at(0, secret).Verify([]byte(body), headers(t, body, secret)); !errors.Is(err, webhook.ErrInvalidPayload) {
			t.Errorf("%s: %v", body, err)
		}
	}
}

func TestVerifyUsesTheRealClock(t *testing.T) {
	now := time.Now()
	h := http.Header{}
	h.Set("webhook-id", "msg")
	h.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	sig, _ := webhook.Sign(secret, "msg", now, []byte(payload))
	h.Set("webhook-signature", sig)
	if _, err := webhook.Verify([]byte(payload), h, secret); err != nil {
		t.Error(err)
	}
}
