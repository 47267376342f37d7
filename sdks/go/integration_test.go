package cgs_test

// The SDK against the real v3 function, as tests/sdks/go.test.ts serves it (or any server, by
// hand): CGS_API_URL, CGS_LIVE_KEY, CGS_TEST_KEY, CGS_UNAVAILABLE_URL (the function over an
// unreachable database) and CGS_SIGNED_MESSAGES (messages the platform really signed). Every answer
// is decoded strictly: a member the SDK's types lack fails the test. Skipped without CGS_API_URL.

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cgs "github.com/casino-gaming/cgs-go/v2"
	"github.com/casino-gaming/cgs-go/v2/seamless"
	"github.com/casino-gaming/cgs-go/v2/webhook"
)

type environment struct {
	url, liveKey, testKey, unavailableURL, messages string
}

func integration(t *testing.T) environment {
	t.Helper()
	env := environment{
		url: os.Getenv("CGS_API_URL"), liveKey: os.Getenv("CGS_LIVE_KEY"), testKey: os.Getenv("CGS_TEST_KEY"),
		unavailableURL: os.Getenv("CGS_UNAVAILABLE_URL"), messages: os.Getenv("CGS_SIGNED_MESSAGES"),
	}
	if env.url == "" {
		t.Skip("CGS_API_URL is not set: run through tests/sdks/go.test.ts, or set the CGS_* variables")
	}
	return env
}

func (e environment) live(opts ...cgs.Option) *cgs.Client {
	return cgs.NewClient(e.liveKey, append([]cgs.Option{cgs.WithBaseURL(e.url), cgs.WithStrictDecoding()}, opts...)...)
}

func (e environment) test(opts ...cgs.Option) *cgs.Client {
	return cgs.NewClient(e.testKey, append([]cgs.Option{cgs.WithBaseURL(e.url), cgs.WithStrictDecoding()}, opts...)...)
}

const olympianGates = "pragmatic-play:vs20olympgate"

func TestIntegrationSessions(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	client := env.live()

	session, err := client.Sessions.Create(ctx, &cgs.SessionCreateParams{PlayerID: "go-player-1", GameID: olympianGates, Currency: "EUR"})
	if err != nil {
		t.Fatal(err)
	}
	if !uuidV4.MatchString(session.ID) && len(session.ID) != 36 || session.Status != cgs.SessionCreated || !session.Livemode ||
		!strings.Contains(session.LaunchURL, "token=") || !session.ExpiresAt.After(session.CreatedAt) {
		t.Errorf("created %+v", session)
	}
	read, err := client.Sessions.Get(ctx, session.ID)
	if err != nil || read.ID != session.ID || read.PlayerID != "go-player-1" || read.LaunchURL == "" {
		t.Errorf("read %+v, %v", read, err)
	}

	// The same Idempotency-Key replays the first session.
	params := &cgs.SessionCreateParams{PlayerID: "go-player-1", GameID: olympianGates, Currency: "EUR", IdempotencyKey: "go-order-" + session.ID}
	first, err1 := client.Sessions.Create(ctx, params)
	again, err2 := client.Sessions.Create(ctx, params)
	if err1 != nil || err2 != nil || first.ID != again.ID || first.ID == session.ID {
		t.Errorf("replay: %v %v, %v %v", first, err1, again, err2)
	}

	found := false
	it := client.Sessions.List(&cgs.SessionListParams{ListParams: cgs.ListParams{Limit: 1}, PlayerID: "go-player-1", Status: cgs.SessionCreated})
	for it.Next(ctx) {
		found = found || it.Current().ID == session.ID
	}
	if it.Err() != nil || !found || it.Pages() < 2 {
		t.Errorf("listed: found %v in %d pages, %v", found, it.Pages(), it.Err())
	}

	closed, err := client.Sessions.Close(ctx, session.ID)
	if err != nil || closed.Status != cgs.SessionClosed {
		t.Errorf("closed %+v, %v", closed, err)
	}
	if again, err := client.Sessions.Close(ctx, session.ID); err != nil || again.Status != cgs.SessionClosed {
		t.Errorf("closed again %+v, %v", again, err)
	}
	if _, err := client.Sessions.Get(ctx, "0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90"); !cgs.HasCode(err, cgs.CodeNotFound) {
		t.Errorf("an unknown session: %v", err)
	}
}

func TestIntegrationGamesAcrossPages(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	client := env.live()

	everything, err := client.Games.List(&cgs.GameListParams{ListParams: cgs.ListParams{Limit: 100}}).All(ctx)
	if err != nil || len(everything) < 3 {
		t.Fatalf("%d games, %v", len(everything), err)
	}
	it := client.Games.List(&cgs.GameListParams{ListParams: cgs.ListParams{Limit: 2}})
	seen := map[string]bool{}
	for it.Next(ctx) {
		game := it.Current()
		if seen[game.GameID] {
			t.Errorf("%s came twice", game.GameID)
		}
		seen[game.GameID] = true
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(everything) || it.Pages() < (len(everything)+1)/2 {
		t.Errorf("%d games in %d pages of 2, want the %d of one page of 100", len(seen), it.Pages(), len(everything))
	}
	for _, game := range everything {
		if !seen[game.GameID] {
			t.Errorf("%s missing from the pages", game.GameID)
		}
	}

	game, err := client.Games.Get(ctx, olympianGates)
	if err != nil || game.GameID != olympianGates || game.Provider != "pragmatic-play" || game.Status != "active" {
		t.Errorf("game %+v, %v", game, err)
	}
	slots, err := client.Games.List(&cgs.GameListParams{Category: cgs.CategorySlots, Provider: "pragmatic-play"}).All(ctx)
	if err != nil || len(slots) == 0 {
		t.Errorf("filtered: %v, %v", slots, err)
	}
	for _, g := range slots {
		if g.Category != cgs.CategorySlots || g.Provider != "pragmatic-play" {
			t.Errorf("the filter let %s through", g.GameID)
		}
	}
}

func TestIntegrationCatalogueAndDiscovery(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	client := env.live()

	providers, err := client.Providers.List(nil).All(ctx)
	if err != nil || len(providers) == 0 {
		t.Errorf("providers %v, %v", providers, err)
	}
	currencies, err := client.Currencies.List(&cgs.ListParams{Limit: 100}).All(ctx)
	if err != nil || len(currencies) == 0 {
		t.Errorf("currencies %v, %v", currencies, err)
	}
	jurisdictions, err := client.Jurisdictions.List(nil).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(jurisdictions) > 0 {
		j, err := client.Jurisdictions.Get(ctx, jurisdictions[0].Code)
		if err != nil || j.Code != jurisdictions[0].Code {
			t.Errorf("jurisdiction %+v, %v", j, err)
		}
	}
	keys, err := client.Discovery.JWKS(ctx)
	if err != nil || len(keys.Keys) == 0 || keys.Keys[0].Use != "sig" {
		t.Errorf("jwks %+v, %v", keys, err)
	}
	document, err := client.Discovery.OpenAPI(ctx)
	var head struct {
		OpenAPI string `json:"openapi"`
	}
	if err != nil || json.Unmarshal(document, &head) != nil || !strings.HasPrefix(head.OpenAPI, "3.1") {
		t.Errorf("openapi %q, %v", head.OpenAPI, err)
	}
}

func TestIntegrationLedger(t *testing.T) {
	env := integration(t)
	ctx := context.Background()

	wallets, err := env.live().Wallets.List(nil).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wallets {
		if !w.Balance.Valid() {
			t.Errorf("wallet %+v", w)
		}
	}
	since := time.Now().Add(-24 * time.Hour)
	it := env.live().Transactions.List(&cgs.TransactionListParams{ListParams: cgs.ListParams{Limit: 10}, CreatedAfter: &since})
	for it.Next(ctx) {
		tx := it.Current()
		if !tx.Amount.Valid() || (tx.BalanceAfter != nil && !tx.BalanceAfter.Valid()) {
			t.Errorf("transaction %+v", tx)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	// The float is live money: a test key sees its test floats (never primary) and test ledger
	// instead, never a live wallet or line.
	testWallets, err := env.test().Wallets.List(nil).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range testWallets {
		if w.IsPrimary || !w.Balance.Valid() {
			t.Errorf("test key's wallet %+v", w)
		}
	}
	liveLedger, err := env.live().Transactions.List(nil).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	testLedger, err := env.test().Transactions.List(nil).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]bool{}
	for _, tx := range liveLedger {
		live[tx.ID] = true
	}
	for _, tx := range testLedger {
		if live[tx.ID] {
			t.Errorf("test key's ledger holds the live line %+v", tx)
		}
	}
}

func TestIntegrationUnauthorized(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	for key, code := range map[string]cgs.ErrorCode{
		"cgs_live_" + strings.Repeat("A", 43): cgs.CodeInvalidAPIKey,
		"":                                    cgs.CodeMissingAPIKey,
	} {
		client := cgs.NewClient(key, cgs.WithBaseURL(env.url), cgs.WithStrictDecoding())
		_, err := client.Sessions.Create(ctx, &cgs.SessionCreateParams{PlayerID: "p", GameID: olympianGates, Currency: "EUR"})
		var apiErr *cgs.Error
		if !errors.As(err, &apiErr) {
			t.Fatalf("%v is no *cgs.Error", err)
		}
		if apiErr.Status != 401 || apiErr.Code != code || apiErr.Retryable || apiErr.Attempts != 1 ||
			!strings.HasPrefix(apiErr.Header.Get("WWW-Authenticate"), `Bearer realm="cgs"`) {
			t.Errorf("key %q: %+v", key, apiErr)
		}
	}
}

func TestIntegrationInvalidInput(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	client := env.live()

	// 400: every failing field, each with its own code.
	_, err := client.Sessions.Create(ctx, &cgs.SessionCreateParams{PlayerID: " ", GameID: "nope", Currency: "eur"})
	var apiErr *cgs.Error
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Code != cgs.CodeValidationFailed || apiErr.Retryable {
		t.Fatalf("%+v", err)
	}
	for _, pointer := range []string{"#/player_id", "#/game_id", "#/currency"} {
		if len(apiErr.FieldErrors(pointer)) == 0 {
			t.Errorf("no field error for %s in %+v", pointer, apiErr.Errors)
		}
	}

	// 422: well-formed, but nothing that can be played.
	_, err = client.Sessions.Create(ctx, &cgs.SessionCreateParams{PlayerID: "p", GameID: "no-such-studio:game", Currency: "EUR"})
	if !errors.As(err, &apiErr) || apiErr.Status != 422 || apiErr.Code != cgs.CodeReferenceUnavailable {
		t.Fatalf("%+v", err)
	}
	if f := apiErr.FieldErrors("#/game_id"); len(f) == 0 || f[0].Code != "unknown_provider" {
		t.Errorf("field errors %+v", apiErr.Errors)
	}

	// 400 invalid_parameters names the query parameter.
	_, err = client.Games.List(&cgs.GameListParams{ListParams: cgs.ListParams{Limit: 1000}}).All(ctx)
	if !errors.As(err, &apiErr) || apiErr.Code != cgs.CodeInvalidParameters || len(apiErr.FieldErrors("limit")) == 0 {
		t.Errorf("%+v", err)
	}
}

// recorder is an http.RoundTripper that writes down each attempt.
type recorder struct {
	mu       sync.Mutex
	attempts []recorded
}

type recorded struct {
	method, path, idempotencyKey, retryAfter string
	status                                   int
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	a := recorded{method: req.Method, path: req.URL.Path, idempotencyKey: req.Header.Get("Idempotency-Key")}
	if resp != nil {
		a.status, a.retryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
	}
	r.mu.Lock()
	r.attempts = append(r.attempts, a)
	r.mu.Unlock()
	return resp, err
}

func TestIntegrationRetriedServiceUnavailable(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	rec := &recorder{}
	// The server asks for Retry-After: 5; the longest wait is cut to 50 ms. The waits are recorded,
	// not waited, so a loaded machine cannot make the test look slow.
	var waits []time.Duration
	client := cgs.NewClient(env.liveKey, cgs.WithBaseURL(env.unavailableURL), cgs.WithHTTPClient(&http.Client{Transport: rec}),
		cgs.WithMaxRetries(2), cgs.WithRetryBackoff(10*time.Millisecond, 50*time.Millisecond),
		cgs.WithSleep(func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }))

	_, err := client.Sessions.Create(ctx, &cgs.SessionCreateParams{PlayerID: "go-player-1", GameID: olympianGates, Currency: "EUR"})
	var apiErr *cgs.Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("%v is no *cgs.Error", err)
	}
	if apiErr.Status != 503 || apiErr.Code != cgs.CodeServiceUnavailable || !apiErr.Retryable || apiErr.Attempts != 3 ||
		apiErr.RetryAfter != 5*time.Second {
		t.Errorf("%+v", apiErr)
	}
	if len(rec.attempts) != 3 {
		t.Fatalf("%d attempts, want 1 + 2 retries: %+v", len(rec.attempts), rec.attempts)
	}
	for _, a := range rec.attempts {
		if a.status != 503 || a.method != "POST" || a.idempotencyKey != rec.attempts[0].idempotencyKey || !uuidV4.MatchString(a.idempotencyKey) {
			t.Errorf("attempts %+v: one Idempotency-Key, a UUID v4, on every attempt", rec.attempts)
		}
	}
	if len(waits) != 2 || waits[0] != 50*time.Millisecond || waits[1] != 50*time.Millisecond {
		t.Errorf("waits %v: two, each the server's Retry-After: 5 cut to the 50 ms cap", waits)
	}

	// A read is retried the same way; a webhook endpoint's creation is not (a 503 may follow a commit).
	rec.attempts = nil
	if _, err := client.Games.Get(ctx, olympianGates); !cgs.IsRetryable(err) || len(rec.attempts) != 3 {
		t.Errorf("a read: %v after %d attempts", err, len(rec.attempts))
	}
	rec.attempts = nil
	if _, err := client.WebhookEndpoints.Create(ctx, &cgs.WebhookEndpointCreateParams{URL: "http://127.0.0.1:9/"}); !cgs.HasCode(err, cgs.CodeServiceUnavailable) || len(rec.attempts) != 1 {
		t.Errorf("a webhook endpoint's creation: %v after %d attempts", err, len(rec.attempts))
	}
}

// signedMessages is CGS_SIGNED_MESSAGES: messages the platform really signed and sent.
type signedMessages struct {
	Webhook struct {
		Secret  string            `json:"secret"`
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	} `json:"webhook"`
	Rotated struct {
		Secrets []string          `json:"secrets"`
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	} `json:"rotated"`
	WalletCall struct {
		Secret  string            `json:"secret"`
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	} `json:"wallet_call"`
}

func loadMessages(t *testing.T, env environment) signedMessages {
	t.Helper()
	data, err := os.ReadFile(env.messages)
	if err != nil {
		t.Fatalf("CGS_SIGNED_MESSAGES: %v", err)
	}
	var m signedMessages
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func header(m map[string]string) http.Header {
	h := http.Header{}
	for k, v := range m {
		h.Set(k, v)
	}
	return h
}

// clockAt is a clock offset from when a message was signed, so the recorded messages verify
// however long after the harness made them the test runs.
func clockAt(t *testing.T, h http.Header, offset time.Duration) func() time.Time {
	t.Helper()
	seconds, err := strconv.ParseInt(h.Get("webhook-timestamp"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return func() time.Time { return time.Unix(seconds, 0).Add(offset) }
}

func TestIntegrationWebhookVerification(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	m := loadMessages(t, env)

	h := header(m.Webhook.Headers)
	verifier := &webhook.Verifier{Secrets: []string{m.Webhook.Secret}, Now: clockAt(t, h, 30*time.Second)}
	event, err := verifier.Verify([]byte(m.Webhook.Body), h)
	if err != nil {
		t.Fatal(err)
	}
	var session cgs.Session
	if event.Type != cgs.EventSessionCreated || event.ID != h.Get("webhook-id") || event.DecodeData(&session) != nil ||
		session.PlayerID != "player-sdk" {
		t.Errorf("event %+v, session %+v", event, session)
	}
	// Where the clock allows, the real one too.
	if time.Since(verifier.Now().Add(-30*time.Second)) < 4*time.Minute {
		if _, err := webhook.Verify([]byte(m.Webhook.Body), h, m.Webhook.Secret); err != nil {
			t.Errorf("with the real clock: %v", err)
		}
	}
	// The event delivered is the API's own.
	stored, err := env.live().Events.Get(ctx, event.ID)
	if err != nil || stored.Type != event.Type || !stored.CreatedAt.Equal(event.CreatedAt) {
		t.Errorf("GET /v3/events/%s: %+v, %v", event.ID, stored, err)
	}
	deliveries, err := env.live().Events.Deliveries(ctx, event.ID)
	if err != nil || len(deliveries) == 0 || deliveries[0].Status != "delivered" {
		t.Errorf("deliveries %+v, %v", deliveries, err)
	}

	// During a rotation either secret verifies, alone or with the other.
	r := header(m.Rotated.Headers)
	if len(strings.Fields(r.Get("webhook-signature"))) != 2 {
		t.Errorf("a rotated delivery carries two signatures: %q", r.Get("webhook-signature"))
	}
	for _, secrets := range [][]string{{m.Rotated.Secrets[0]}, {m.Rotated.Secrets[1]}, m.Rotated.Secrets} {
		v := &webhook.Verifier{Secrets: secrets, Now: clockAt(t, r, 0)}
		if _, err := v.Verify([]byte(m.Rotated.Body), r); err != nil {
			t.Errorf("rotated, secrets %v: %v", secrets, err)
		}
	}

	tamperedSignature := h.Clone()
	sig := h.Get("webhook-signature")
	flip := "A"
	if sig[5] == 'A' {
		flip = "B"
	}
	tamperedSignature.Set("webhook-signature", sig[:5]+flip+sig[6:])
	refusals := []struct {
		name    string
		v       *webhook.Verifier
		body    string
		headers http.Header
		want    error
	}{
		{"a tampered body", verifier, strings.Replace(m.Webhook.Body, "player-sdk", "player-sdl", 1), h, webhook.ErrNoMatchingSignature},
		{"a tampered signature", verifier, m.Webhook.Body, tamperedSignature, webhook.ErrNoMatchingSignature},
		{"another secret", &webhook.Verifier{Secrets: []string{m.WalletCall.Secret}, Now: verifier.Now}, m.Webhook.Body, h, webhook.ErrNoMatchingSignature},
		{"a stale timestamp", &webhook.Verifier{Secrets: verifier.Secrets, Now: clockAt(t, h, 5*time.Minute+time.Second)}, m.Webhook.Body, h, webhook.ErrMessageTooOld},
		{"a future timestamp", &webhook.Verifier{Secrets: verifier.Secrets, Now: clockAt(t, h, -5*time.Minute-time.Second)}, m.Webhook.Body, h, webhook.ErrMessageTooNew},
	}
	for _, tc := range refusals {
		if _, err := tc.v.Verify([]byte(tc.body), tc.headers); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestIntegrationWalletCall(t *testing.T) {
	env := integration(t)
	m := loadMessages(t, env)
	h := header(m.WalletCall.Headers)
	verifier := &seamless.Verifier{Secrets: []string{m.WalletCall.Secret}, Now: clockAt(t, h, time.Second)}

	call, err := verifier.Verify([]byte(m.WalletCall.Body), h)
	if err != nil {
		t.Fatal(err)
	}
	if call.Action != seamless.ActionBalance || call.PlayerID != "player-1" || call.Currency != "EUR" ||
		call.ID != h.Get("webhook-id") || call.SessionID == "" || call.GameID == "" {
		t.Errorf("call %+v", call)
	}
	// The answer, as the platform reads it: the balance as a decimal string.
	body, err := seamless.Accept("100").Body()
	if err != nil || string(body) != `{"balance":"100.0000"}` {
		t.Errorf("answer %s, %v", body, err)
	}

	// The handler on the recorded request: answered; with the body tampered: a 4xx, unseen by fn.
	handler := seamless.Handler(verifier, func(ctx context.Context, call *seamless.Call) seamless.Reply {
		if strings.Contains(call.PlayerID, "tampered") {
			t.Error("a tampered call reached the wallet")
		}
		return seamless.Accept("100")
	})
	for body, want := range map[string]int{
		m.WalletCall.Body: 200,
		strings.Replace(m.WalletCall.Body, "player-1", "tampered", 1): 401,
	} {
		req := httptest.NewRequest("POST", "/wallet", strings.NewReader(body))
		req.Header = h.Clone()
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("%d %s, want %d", rec.Code, rec.Body, want)
		}
	}
}

// referenceWallet is a seamless wallet keeping the contract: each transaction applied once and a
// repeat answered as the first time; a rollback of an unseen debit answered 2xx, and that debit
// refused if it comes later.
type referenceWallet struct {
	mu         sync.Mutex
	balances   map[string]cgs.Decimal
	answers    map[string]seamless.Reply
	debits     map[string]cgs.Decimal
	rolledBack map[string]bool
}

func newReferenceWallet() *referenceWallet {
	return &referenceWallet{balances: map[string]cgs.Decimal{}, answers: map[string]seamless.Reply{},
		debits: map[string]cgs.Decimal{}, rolledBack: map[string]bool{}}
}

func (w *referenceWallet) handle(ctx context.Context, call *seamless.Call) seamless.Reply {
	w.mu.Lock()
	defer w.mu.Unlock()
	account := call.PlayerID + "/" + call.Currency
	balance, ok := w.balances[account]
	if !ok {
		balance = "100.0000"
	}
	if call.Action == seamless.ActionBalance {
		return seamless.Accept(balance)
	}
	if answer, ok := w.answers[call.TransactionID]; ok {
		return answer
	}
	var answer seamless.Reply
	switch call.Action {
	case seamless.ActionDebit:
		if w.rolledBack[call.TransactionID] {
			answer = seamless.Refuse("transaction_rolled_back", balance)
			break
		}
		after, err := balance.Sub(call.Amount)
		if err != nil || after.IsNegative() {
			return seamless.Refuse(seamless.CodeInsufficientFunds, balance)
		}
		balance, w.debits[call.TransactionID] = after, call.Amount
		answer = seamless.Accept(balance)
	case seamless.ActionCredit:
		balance, _ = balance.Add(call.Amount)
		answer = seamless.Accept(balance)
	case seamless.ActionRollback:
		if amount, ok := w.debits[call.RolledBackTransactionID]; ok && !w.rolledBack[call.RolledBackTransactionID] {
			balance, _ = balance.Add(amount)
		}
		w.rolledBack[call.RolledBackTransactionID] = true
		answer = seamless.Accept(balance)
	}
	w.balances[account] = balance
	w.answers[call.TransactionID] = answer
	return answer
}

// The wallet helper end to end: the platform's own self-check plays every scenario against a
// wallet built on seamless.Handler, and it passes.
func TestIntegrationSeamlessWalletPassesTheSelfCheck(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	m := loadMessages(t, env)
	client := env.test()

	verifier := seamless.NewVerifier()
	server := httptest.NewServer(seamless.Handler(verifier, newReferenceWallet().handle))
	defer server.Close()
	settings, err := client.WalletSettings.Update(ctx, &cgs.WalletSettingsParams{Mode: cgs.WalletSeamless, URL: server.URL, RotateSecret: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(settings.Secret, "whsec_") || settings.Livemode || settings.URL == nil || *settings.URL != server.URL {
		t.Fatalf("settings %+v", settings)
	}
	// The new secret, and the previous one, which keeps signing for 24 hours.
	verifier.Secrets = []string{settings.Secret, m.WalletCall.Secret}

	report, err := client.Sandbox.CheckWallet(ctx, &cgs.WalletCheckParams{PlayerID: "go-wallet-player", Currency: "EUR"})
	if err != nil {
		t.Fatal(err)
	}
	if !report.Passed || len(report.Scenarios) != 7 {
		t.Errorf("self-check %+v", report)
	}
	for _, s := range report.Scenarios {
		if !s.Passed {
			t.Errorf("scenario %q failed: %s", s.Scenario, s.Detail)
		}
	}
	read, err := client.WalletSettings.Get(ctx)
	if err != nil || read.Mode != cgs.WalletSeamless || read.SecretPrefix == nil || !strings.HasPrefix(settings.Secret, *read.SecretPrefix) {
		t.Errorf("settings read back %+v, %v", read, err)
	}
}

func TestIntegrationWebhookEndpointsAndEvents(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	client := env.live()

	created, err := client.WebhookEndpoints.Create(ctx, &cgs.WebhookEndpointCreateParams{
		URL: "http://127.0.0.1:9/go-sdk", EventTypes: []cgs.EventType{cgs.EventEndpointPing}, Description: "go sdk"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(created.Secret, "whsec_") || created.Description == nil || *created.Description != "go sdk" || !created.Enabled {
		t.Errorf("created %+v", created)
	}
	read, err := client.WebhookEndpoints.Get(ctx, created.ID)
	if err != nil || read.URL != created.URL || read.SecretPrefix != created.SecretPrefix {
		t.Errorf("read %+v, %v", read, err)
	}
	updated, err := client.WebhookEndpoints.Update(ctx, created.ID, &cgs.WebhookEndpointUpdateParams{Enabled: ptr(false), Description: ptr("")})
	if err != nil || updated.Enabled || updated.Description != nil {
		t.Errorf("updated %+v, %v", updated, err)
	}
	updated, err = client.WebhookEndpoints.Update(ctx, created.ID, &cgs.WebhookEndpointUpdateParams{Enabled: ptr(true), EventTypes: []cgs.EventType{}})
	if err != nil || !updated.Enabled || len(updated.EventTypes) != 0 {
		t.Errorf("updated %+v, %v", updated, err)
	}
	endpoints, err := client.WebhookEndpoints.List(&cgs.ListParams{Limit: 1}).All(ctx)
	listed := false
	for _, e := range endpoints {
		listed = listed || e.ID == created.ID
	}
	if err != nil || !listed {
		t.Errorf("listed %v, %v", endpoints, err)
	}

	ping, err := client.WebhookEndpoints.Test(ctx, created.ID)
	if err != nil || ping.Type != cgs.EventEndpointPing {
		t.Fatalf("ping %+v, %v", ping, err)
	}
	if event, err := client.Events.Get(ctx, ping.ID); err != nil || event.ID != ping.ID {
		t.Errorf("event %+v, %v", event, err)
	}
	if _, err := client.Events.Deliveries(ctx, ping.ID); err != nil {
		t.Error(err)
	}
	if _, err := client.Events.Redeliver(ctx, ping.ID); err != nil {
		t.Error(err)
	}
	sessionEvents, err := client.Events.List(&cgs.EventListParams{ListParams: cgs.ListParams{Limit: 1}, Type: cgs.EventSessionCreated}).All(ctx)
	if err != nil || len(sessionEvents) < 2 {
		t.Errorf("%d session.created events, %v", len(sessionEvents), err)
	}
	for _, e := range sessionEvents {
		if e.Type != cgs.EventSessionCreated {
			t.Errorf("the filter let %s through", e.Type)
		}
	}

	rotated, err := client.WebhookEndpoints.RotateSecret(ctx, created.ID)
	if err != nil || rotated.Secret == created.Secret || !strings.HasPrefix(rotated.Secret, "whsec_") {
		t.Errorf("rotated %+v, %v", rotated, err)
	}
	if _, err := client.WebhookEndpoints.Delete(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := client.WebhookEndpoints.Get(ctx, created.ID); !cgs.HasCode(err, cgs.CodeNotFound) {
		t.Errorf("after delete: %v", err)
	}
}

func TestIntegrationPlayersRoundsAndSandbox(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	live, test := env.live(), env.test()

	until := time.Now().Add(48 * time.Hour).Truncate(time.Second)
	set, err := live.Players.SetRestrictions(ctx, "go-player/é 1", &cgs.PlayerRestrictionsParams{
		CoolOffUntil:            &until,
		LossLimits:              map[string]cgs.LossLimits{"EUR": {Day: ptr(cgs.Decimal("50"))}},
		StakeLimits:             map[string]cgs.Decimal{"EUR": "2.5"},
		SessionTimeLimitMinutes: ptr(60),
	})
	if err != nil {
		t.Fatal(err)
	}
	if set.PlayerID != "go-player/é 1" || set.CoolOffUntil == nil || !set.CoolOffUntil.Equal(until) ||
		!set.StakeLimits["EUR"].Equal("2.5") || !set.LossLimits["EUR"].Day.Equal("50") || set.LossLimits["EUR"].Week != nil {
		t.Errorf("set %+v", set)
	}
	read, err := live.Players.GetRestrictions(ctx, "go-player/é 1")
	if err != nil || read.SessionTimeLimitMinutes == nil || *read.SessionTimeLimitMinutes != 60 {
		t.Errorf("read %+v, %v", read, err)
	}
	// A cooling-off player gets no session.
	_, err = live.Sessions.Create(ctx, &cgs.SessionCreateParams{PlayerID: "go-player/é 1", GameID: olympianGates, Currency: "EUR"})
	if !cgs.HasCode(err, cgs.CodePlayerRestricted) {
		t.Errorf("a restricted player's session: %v", err)
	}

	if _, err := live.Rounds.List(&cgs.RoundListParams{Status: cgs.RoundOpen}).All(ctx); err != nil {
		t.Error(err)
	}
	if _, err := live.Rounds.Get(ctx, "5d0c7f3e-2a41-4c8e-9b7a-1f2e3d4c5b6a"); !cgs.HasCode(err, cgs.CodeNotFound) {
		t.Errorf("an unknown round: %v", err)
	}

	player, err := test.Sandbox.CreatePlayer(ctx, &cgs.SandboxPlayerParams{PlayerID: "go-test-player", Currency: "EUR", Balance: "250"})
	if err != nil || !player.Balance.Equal("250") || player.Livemode || player.Behaviour != cgs.BehaviourNormal {
		t.Errorf("test player %+v, %v", player, err)
	}
	session, err := test.Sessions.Create(ctx, &cgs.SessionCreateParams{PlayerID: "go-test-player", GameID: olympianGates, Currency: "EUR"})
	if err != nil || session.Livemode {
		t.Errorf("a test session %+v, %v", session, err)
	}
	if _, err := live.Sandbox.CreatePlayer(ctx, &cgs.SandboxPlayerParams{PlayerID: "p", Currency: "EUR", Balance: "1"}); !cgs.HasCode(err, cgs.CodeLiveKey) {
		t.Errorf("the sandbox with a live key: %v", err)
	}
}

func TestIntegrationReconciliationCSV(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	client := env.live()
	today := time.Now().UTC().Format("2006-01-02")

	// The CSV holds the lines the pages hold, in their order, under a header row.
	lines, err := client.Reports.Reconciliation(&cgs.ReconciliationParams{Date: today}).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	data, err := client.Reports.ReconciliationCSV(ctx, &cgs.ReconciliationParams{Date: today})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\uFEFF")) {
		t.Errorf("no byte order mark: %q", data)
	}
	records, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != len(lines)+1 || records[0][0] != "created_at" || records[0][1] != "id" {
		t.Fatalf("%d records for %d lines: %q", len(records), len(lines), records)
	}
	for i, line := range lines {
		if records[i+1][1] != line.ID {
			t.Errorf("record %d is %s, line %s", i+1, records[i+1][1], line.ID)
		}
	}
	// A day that is not on the calendar is refused as the pages refuse it.
	if _, err := client.Reports.ReconciliationCSV(ctx, &cgs.ReconciliationParams{Date: "2026-02-30"}); !cgs.HasCode(err, cgs.CodeInvalidParameters) {
		t.Errorf("30 February: %v", err)
	}
}

func TestIntegrationFreeRounds(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	test := env.test()

	params := &cgs.FreeRoundCampaignCreateParams{
		ExternalID: "go-" + strconv.FormatInt(time.Now().UnixNano(), 36), Name: "Go spins", GameIDs: []string{"cgs-sandbox:lucky-sevens"},
		Currency: "EUR", BetAmount: "0.20", Rounds: 5, ValidUntil: time.Now().Add(72 * time.Hour), MaxWin: "10",
		PlayerIDs: []string{"go-fr-1"},
	}
	campaign, err := test.FreeRounds.CreateCampaign(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if campaign.Livemode || campaign.Status != cgs.FreeRoundCampaignActive || !campaign.BetAmount.Equal("0.2") || campaign.Grants.Pending != 1 {
		t.Errorf("campaign %+v", campaign)
	}
	again, err := test.FreeRounds.CreateCampaign(ctx, params)
	if err != nil || again.ID != campaign.ID {
		t.Errorf("the same params again: %+v, %v", again, err)
	}
	added, err := test.FreeRounds.AddPlayers(ctx, campaign.ID, &cgs.FreeRoundPlayersParams{PlayerIDs: []string{"go-fr-1", "go-fr-2"}})
	if err != nil || added.Created != 1 || added.Unchanged != 1 {
		t.Errorf("added %+v, %v", added, err)
	}
	removed, err := test.FreeRounds.RemovePlayer(ctx, campaign.ID, "go-fr-2")
	if err != nil || removed.PlayerID != "go-fr-2" || removed.Status != cgs.FreeRoundGrantCancelled || removed.RoundsLeft != 0 {
		t.Errorf("removed %+v, %v", removed, err)
	}
	if again, err := test.FreeRounds.RemovePlayer(ctx, campaign.ID, "go-fr-2"); err != nil || again.ID != removed.ID {
		t.Errorf("removed again %+v, %v", again, err)
	}
	if _, err := test.FreeRounds.RemovePlayer(ctx, campaign.ID, "nobody"); !cgs.HasCode(err, cgs.CodeNotFound) {
		t.Errorf("a player without a grant: %v", err)
	}
	grants, err := test.FreeRounds.ListGrants(&cgs.FreeRoundGrantListParams{CampaignID: campaign.ID, Status: cgs.FreeRoundGrantPending}).All(ctx)
	if err != nil || len(grants) != 1 || grants[0].PlayerID != "go-fr-1" || grants[0].RoundsLeft != 5 {
		t.Errorf("pending grants %+v, %v", grants, err)
	}
	cancelled, err := test.FreeRounds.CancelCampaign(ctx, campaign.ID)
	if err != nil || cancelled.Status != cgs.FreeRoundCampaignCancelled || cancelled.Grants.Cancelled != 2 {
		t.Errorf("cancelled %+v, %v", cancelled, err)
	}
}

func TestIntegrationSportsbookFixturesAndBets(t *testing.T) {
	env := integration(t)
	ctx := context.Background()
	test := env.test()
	fixture := "go-" + strconv.FormatInt(time.Now().UnixNano(), 36)

	settled, err := test.Sandbox.SettleFixture(ctx, fixture, &cgs.SandboxFixtureParams{Outcome: cgs.FixtureHome})
	if err != nil || settled.FixtureID != fixture || settled.Outcome != cgs.FixtureHome || len(settled.Bets) != 0 {
		t.Fatalf("settled %+v, %v", settled, err)
	}
	if _, err := test.Sandbox.SettleFixture(ctx, fixture, &cgs.SandboxFixtureParams{Outcome: cgs.FixtureAway}); !cgs.HasCode(err, cgs.CodeFixtureSettled) {
		t.Errorf("settled twice: %v", err)
	}
	if resettled, err := test.Sandbox.ResettleFixture(ctx, fixture, &cgs.SandboxFixtureParams{Outcome: cgs.FixtureAway}); err != nil || resettled.Outcome != cgs.FixtureAway {
		t.Errorf("resettled %+v, %v", resettled, err)
	}
	if voided, err := test.Sandbox.VoidFixture(ctx, fixture); err != nil || voided.Outcome != cgs.FixtureVoid {
		t.Errorf("voided %+v, %v", voided, err)
	}
	if _, err := test.Sandbox.ResettleFixture(ctx, fixture+"-new", &cgs.SandboxFixtureParams{Outcome: cgs.FixtureDraw}); !cgs.HasCode(err, cgs.CodeFixtureNotSettled) {
		t.Errorf("resettled before a settle: %v", err)
	}
	if _, err := env.live().Sandbox.VoidFixture(ctx, fixture); !cgs.HasCode(err, cgs.CodeLiveKey) {
		t.Errorf("a live key: %v", err)
	}
	bets, err := test.Sportsbook.ListBets(&cgs.SportsbookBetListParams{Status: cgs.SportsbookBetSettled}).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, bet := range bets {
		if bet.Livemode || bet.Status != cgs.SportsbookBetSettled {
			t.Errorf("a test key's settled bet %+v", bet)
		}
	}
	if _, err := test.Sportsbook.GetBet(ctx, "00000000-0000-4000-8000-000000000000"); !cgs.HasCode(err, cgs.CodeNotFound) {
		t.Errorf("an unknown bet: %v", err)
	}
}
