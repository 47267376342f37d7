package seamless_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	cgs "github.com/casino-gaming/cgs-go/v2"
	"github.com/casino-gaming/cgs-go/v2/seamless"
	"github.com/casino-gaming/cgs-go/v2/webhook"
)

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

var signedAt = time.Unix(1795600000, 0)

const debit = `{"action":"debit","session_id":"0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90","player_id":"player-1",` +
	`"game_id":"pragmatic-play:vs20olympgate","currency":"EUR","transaction_id":"pragmatic-play:tx-1001",` +
	`"round_id":"pragmatic-play:round-77","amount":"10.5000","round_closed":true}`

func signed(t *testing.T, body string) http.Header {
	t.Helper()
	h := http.Header{}
	h.Set("webhook-id", "9f0c7e5a-0000-4000-8000-000000000001")
	h.Set("webhook-timestamp", strconv.FormatInt(signedAt.Unix(), 10))
	sig, err := webhook.Sign(secret, h.Get("webhook-id"), signedAt, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	h.Set("webhook-signature", sig)
	return h
}

func verifier() *seamless.Verifier {
	return &seamless.Verifier{Secrets: []string{secret}, Now: func() time.Time { return signedAt.Add(time.Second) }}
}

func TestVerifyParsesTheCall(t *testing.T) {
	call, err := verifier().Verify([]byte(debit), signed(t, debit))
	if err != nil {
		t.Fatal(err)
	}
	want := seamless.Call{ID: "9f0c7e5a-0000-4000-8000-000000000001", SignedAt: signedAt, Action: seamless.ActionDebit,
		SessionID: "0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90", PlayerID: "player-1", GameID: "pragmatic-play:vs20olympgate",
		Currency: "EUR", TransactionID: "pragmatic-play:tx-1001", RoundID: "pragmatic-play:round-77", Amount: "10.5000", RoundClosed: true}
	if *call != want {
		t.Errorf("call %+v", call)
	}
}

func TestCallsOutsideTheContractAreRefused(t *testing.T) {
	bodies := []string{
		`{"action":"debit","session_id":"s","player_id":"p","game_id":"g","currency":"EUR","transaction_id":"t","round_id":"r"}`,
		`{"action":"credit","session_id":"s","player_id":"p","game_id":"g","currency":"EUR","round_id":"r","amount":"1"}`,
		`{"action":"rollback","session_id":"s","player_id":"p","game_id":"g","currency":"EUR","transaction_id":"t"}`,
		`{"action":"transfer","session_id":"s","player_id":"p","game_id":"g","currency":"EUR"}`,
		`{"action":"balance","session_id":"s","game_id":"g","currency":"EUR"}`,
		`{"action":"debit","session_id":"s","player_id":"p","game_id":"g","currency":"EUR","transaction_id":"t","round_id":"r","amount":"-1"}`,
		`{"action":"debit","session_id":"s","player_id":"p","game_id":"g","currency":"EUR","transaction_id":"t","round_id":"r","amount":1}`,
		`not json`,
	}
	for _, body := range bodies {
		if _, err := verifier().Verify([]byte(body), signed(t, body)); !errors.Is(err, seamless.ErrInvalidCall) {
			t.Errorf("%s: %v, want ErrInvalidCall", body, err)
		}
	}
	// A rollback needs no round or amount; a balance request nothing but the session's facts.
	for _, body := range []string{
		`{"action":"rollback","session_id":"s","player_id":"p","game_id":"g","currency":"EUR","transaction_id":"t","rolled_back_transaction_id":"u"}`,
		`{"action":"balance","session_id":"s","player_id":"p","game_id":"g","currency":"EUR"}`,
		`{"action":"credit","session_id":"s","player_id":"p","game_id":"g","currency":"EUR","transaction_id":"t","round_id":"r","amount":"0"}`,
	} {
		if _, err := verifier().Verify([]byte(body), signed(t, body)); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
}

func TestReplies(t *testing.T) {
	cases := []struct {
		reply seamless.Reply
		body  string
	}{
		{seamless.Accept("100"), `{"balance":"100.0000"}`},
		{seamless.Accept("007.5"), `{"balance":"7.5000"}`},
		{seamless.Refuse(seamless.CodeInsufficientFunds, "3.25"), `{"code":"insufficient_funds","balance":"3.2500"}`},
		{seamless.Refuse("limit_reached", ""), `{"code":"limit_reached"}`},
	}
	for _, tc := range cases {
		body, err := tc.reply.Body()
		if err != nil || string(body) != tc.body {
			t.Errorf("%+v: %s, %v; want %s", tc.reply, body, err, tc.body)
		}
	}
	for _, reply := range []seamless.Reply{
		seamless.Accept(""), seamless.Accept("-1"), seamless.Accept("1.23456"), seamless.Refuse("Insufficient Funds", ""),
		seamless.Refuse("", "1"), {Status: 500, Balance: "1"},
	} {
		if _, err := reply.Body(); !errors.Is(err, seamless.ErrInvalidReply) {
			t.Errorf("%+v: %v, want ErrInvalidReply", reply, err)
		}
	}
}

func TestHandler(t *testing.T) {
	var got *seamless.Call
	reply := seamless.Accept("89.5")
	handler := seamless.Handler(verifier(), func(ctx context.Context, call *seamless.Call) seamless.Reply {
		got = call
		return reply
	})
	serve := func(method, body string, headers http.Header) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, "/wallet", strings.NewReader(body))
		for k, v := range headers {
			req.Header[k] = v
		}
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		return rec
	}
	rec := serve("POST", debit, signed(t, debit))
	if rec.Code != 200 || rec.Body.String() != `{"balance":"89.5000"}` || got == nil || got.Amount != "10.5000" {
		t.Errorf("a good call: %d %s", rec.Code, rec.Body)
	}

	reply = seamless.Refuse(seamless.CodeInsufficientFunds, cgs.Decimal("1"))
	if rec := serve("POST", debit, signed(t, debit)); rec.Code != 422 || rec.Body.String() != `{"code":"insufficient_funds","balance":"1.0000"}` {
		t.Errorf("a refusal: %d %s", rec.Code, rec.Body)
	}
	reply = seamless.Accept("")
	if rec := serve("POST", debit, signed(t, debit)); rec.Code != 500 {
		t.Errorf("an invalid reply: %d %s", rec.Code, rec.Body)
	}

	got = nil
	tampered := strings.Replace(debit, "10.5000", "1000.0000", 1)
	for name, rec := range map[string]*httptest.ResponseRecorder{
		"tampered":   serve("POST", tampered, signed(t, debit)),
		"unsigned":   serve("POST", debit, http.Header{}),
		"not a call": serve("POST", `{"action":"nope"}`, signed(t, `{"action":"nope"}`)),
		"a GET":      serve("GET", "", nil),
	} {
		if rec.Code < 400 || rec.Code > 499 || !strings.Contains(rec.Body.String(), `"code"`) {
			t.Errorf("%s: %d %s, want a 4xx with a code", name, rec.Code, rec.Body)
		}
	}
	if got != nil {
		t.Error("the handler's function saw a call that failed verification")
	}
}
