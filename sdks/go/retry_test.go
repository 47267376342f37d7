package cgs_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	cgs "github.com/casino-gaming/cgs-go/v2"
)

func TestBackoffDelay(t *testing.T) {
	base, max := 100*time.Millisecond, 2*time.Second
	cases := []struct {
		random     float64
		retry      int
		retryAfter time.Duration
		want       time.Duration
	}{
		{0, 0, 0, 50 * time.Millisecond},                         // half the first step, fixed
		{0.5, 0, 0, 75 * time.Millisecond},                       // plus up to half again, at random
		{0, 1, 0, 100 * time.Millisecond},                        // the step doubles
		{0, 3, 0, 400 * time.Millisecond},                        //
		{0.999, 10, 0, 1999 * time.Millisecond},                  // and stops at max
		{0, 0, time.Second, time.Second},                         // never sooner than Retry-After
		{0, 0, 10 * time.Second, 2 * time.Second},                // never longer than max
		{0, 100, 0, time.Second},                                 // no overflow after many retries
		{0.25, 2, 50 * time.Millisecond, 250 * time.Millisecond}, // Retry-After below the backoff
	}
	for _, tc := range cases {
		if got := cgs.BackoffDelay(base, max, tc.random, tc.retry, tc.retryAfter); got != tc.want {
			t.Errorf("delay(random %v, retry %d, Retry-After %v) = %v, want %v", tc.random, tc.retry, tc.retryAfter, got, tc.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	cases := map[string]time.Duration{
		"5":                             5 * time.Second,
		" 1 ":                           time.Second,
		"":                              0,
		"soon":                          0,
		"-3":                            0,
		"Wed, 25 Nov 2026 10:00:30 GMT": 30 * time.Second,
		"Wed, 25 Nov 2026 09:00:00 GMT": 0,
	}
	for in, want := range cases {
		if got := cgs.ParseRetryAfter(in, now); got != want {
			t.Errorf("Retry-After %q = %v, want %v", in, got, want)
		}
	}
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewUUIDIsRandomVersion4(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id, err := cgs.NewUUID()
		if err != nil || !uuidV4.MatchString(id) || seen[id] {
			t.Fatalf("UUID %q, %v (seen before: %v)", id, err, seen[id])
		}
		seen[id] = true
	}
}

// attempt is what a test server saw of one request.
type attempt struct {
	method, path, idempotencyKey string
}

// script is a test server answering each request with the next of its answers (the last repeats).
type script struct {
	mu       sync.Mutex
	answers  []func(w http.ResponseWriter, r *http.Request)
	attempts []attempt
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := len(s.attempts)
	s.attempts = append(s.attempts, attempt{r.Method, r.URL.Path, r.Header.Get("Idempotency-Key")})
	answer := s.answers[len(s.answers)-1]
	if n < len(s.answers) {
		answer = s.answers[n]
	}
	s.mu.Unlock()
	answer(w, r)
}

func (s *script) seen() []attempt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]attempt(nil), s.attempts...)
}

func problem(status int, code string, retryable bool, headers ...string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"type":"https://docs.cgs.example/problems/%s","title":"t","status":%d,"detail":"d","code":"%s","retryable":%v}`,
			code, status, code, retryable)
	}
}

func answer(status int, body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// hangUp closes the connection without an answer: a network failure after the request was sent.
func hangUp(w http.ResponseWriter, r *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

const sessionJSON = `{"id":"0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90","player_id":"p","game_id":"g:g","currency":"EUR",
	"status":"created","livemode":true,"created_at":"2026-11-24T10:00:00.000000+00:00","expires_at":"2026-11-24T10:15:00.000000+00:00",
	"launch_url":"https://play.example/launch?token=t"}`

const endpointJSON = `{"id":"7a1e0c9d-1f2b-4c3d-8e4f-5a6b7c8d9e0f","url":"https://h.example/","event_types":[],"enabled":true,
	"description":null,"secret_prefix":"whsec_abc","livemode":true,"created_at":"2026-11-24T10:00:00Z","updated_at":"2026-11-24T10:00:00Z","secret":"whsec_x"}`

// waits records the client's waits between attempts instead of sleeping.
type waits struct {
	mu  sync.Mutex
	all []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.all = append(w.all, d)
	w.mu.Unlock()
	return ctx.Err()
}

func testClient(url string, w *waits, opts ...cgs.Option) *cgs.Client {
	all := append([]cgs.Option{cgs.WithBaseURL(url), cgs.WithSleep(w.sleep), cgs.WithStrictDecoding()}, opts...)
	return cgs.NewClient("cgs_live_key", all...)
}

var sessionParams = &cgs.SessionCreateParams{PlayerID: "p", GameID: "g:g", Currency: "EUR"}

func TestRetriesRetryableAnswersWithOneIdempotencyKey(t *testing.T) {
	s := &script{answers: []func(http.ResponseWriter, *http.Request){
		problem(503, "service_unavailable", true, "Retry-After", "2"),
		problem(409, "idempotency_key_in_use", true, "Retry-After", "1"),
		answer(201, sessionJSON),
	}}
	server := httptest.NewServer(s)
	defer server.Close()
	w := &waits{}
	session, err := testClient(server.URL, w).Sessions.Create(context.Background(), sessionParams)
	if err != nil {
		t.Fatal(err)
	}
	if session.Status != cgs.SessionCreated || session.LaunchURL == "" {
		t.Errorf("session %+v", session)
	}
	seen := s.seen()
	if len(seen) != 3 {
		t.Fatalf("%d attempts, want 3", len(seen))
	}
	for _, a := range seen {
		if a.idempotencyKey != seen[0].idempotencyKey || !uuidV4.MatchString(a.idempotencyKey) {
			t.Errorf("Idempotency-Keys %+v: one UUID v4 on every attempt", seen)
		}
	}
	// Retry-After is honoured: the waits are at least what the server asked.
	if len(w.all) != 2 || w.all[0] < 2*time.Second || w.all[1] < time.Second {
		t.Errorf("waits %v, want at least 2s then 1s", w.all)
	}
}

func TestAGivenIdempotencyKeyIsSent(t *testing.T) {
	s := &script{answers: []func(http.ResponseWriter, *http.Request){answer(201, sessionJSON)}}
	server := httptest.NewServer(s)
	defer server.Close()
	params := *sessionParams
	params.IdempotencyKey = "order-123"
	if _, err := testClient(server.URL, &waits{}).Sessions.Create(context.Background(), &params); err != nil {
		t.Fatal(err)
	}
	if _, err := testClient(server.URL, &waits{}).Sessions.Create(context.Background(), sessionParams); err != nil {
		t.Fatal(err)
	}
	seen := s.seen()
	if seen[0].idempotencyKey != "order-123" || !uuidV4.MatchString(seen[1].idempotencyKey) {
		t.Errorf("keys %+v", seen)
	}
}

func TestGivesUpAfterMaxRetriesWithTheTypedError(t *testing.T) {
	s := &script{answers: []func(http.ResponseWriter, *http.Request){problem(503, "service_unavailable", true, "Retry-After", "5")}}
	server := httptest.NewServer(s)
	defer server.Close()
	w := &waits{}
	_, err := testClient(server.URL, w, cgs.WithMaxRetries(3), cgs.WithRetryBackoff(10*time.Millisecond, time.Second)).
		Games.Get(context.Background(), "g:g")
	var apiErr *cgs.Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("%v is not a *cgs.Error", err)
	}
	if apiErr.Status != 503 || apiErr.Code != cgs.CodeServiceUnavailable || !apiErr.Retryable || apiErr.Attempts != 4 ||
		apiErr.RetryAfter != 5*time.Second || !cgs.IsRetryable(err) {
		t.Errorf("error %+v", apiErr)
	}
	if len(s.seen()) != 4 {
		t.Errorf("%d attempts, want 4", len(s.seen()))
	}
	// Retry-After above the longest wait is cut to it.
	for _, d := range w.all {
		if d != time.Second {
			t.Errorf("waits %v, want 1s each", w.all)
		}
	}
}

func TestDoesNotRetryWhatWouldFailAgain(t *testing.T) {
	for _, a := range []func(http.ResponseWriter, *http.Request){
		problem(400, "validation_failed", false), problem(401, "invalid_api_key", false),
		problem(422, "reference_unavailable", false), problem(500, "internal_error", false), answer(404, "<html>"),
	} {
		s := &script{answers: []func(http.ResponseWriter, *http.Request){a}}
		server := httptest.NewServer(s)
		_, err := testClient(server.URL, &waits{}).Sessions.Create(context.Background(), sessionParams)
		server.Close()
		var apiErr *cgs.Error
		if !errors.As(err, &apiErr) || apiErr.Retryable || apiErr.Attempts != 1 || len(s.seen()) != 1 {
			t.Errorf("%v: %d attempts", err, len(s.seen()))
		}
	}
}

func TestAnAnswerThatIsNoProblemIsATypedErrorToo(t *testing.T) {
	s := &script{answers: []func(http.ResponseWriter, *http.Request){answer(502, "<html>Bad gateway</html>")}}
	server := httptest.NewServer(s)
	defer server.Close()
	_, err := testClient(server.URL, &waits{}, cgs.WithMaxRetries(1)).Wallets.List(nil).All(context.Background())
	var apiErr *cgs.Error
	if !errors.As(err, &apiErr) || apiErr.Status != 502 || apiErr.Code != "" || !apiErr.Retryable ||
		!strings.Contains(apiErr.Detail, "Bad gateway") || len(s.seen()) != 2 {
		t.Errorf("%+v after %d attempts", err, len(s.seen()))
	}
}

// A change the API does not treat as the same request when repeated is retried only when the
// answer proves nothing was done (429), or the connection was never made.
func TestNonReplayableChangesAreRetriedOnlyWhenSafe(t *testing.T) {
	create := func(c *cgs.Client) error {
		_, err := c.WebhookEndpoints.Create(context.Background(), &cgs.WebhookEndpointCreateParams{URL: "https://h.example/"})
		return err
	}
	cases := []struct {
		name     string
		answers  []func(http.ResponseWriter, *http.Request)
		attempts int
		ok       bool
	}{
		{"503 may follow a commit", []func(http.ResponseWriter, *http.Request){problem(503, "service_unavailable", true)}, 1, false},
		{"a hang-up may follow a commit", []func(http.ResponseWriter, *http.Request){hangUp}, 1, false},
		{"429 did nothing", []func(http.ResponseWriter, *http.Request){answer(429, ""), answer(201, endpointJSON)}, 2, true},
	}
	for _, tc := range cases {
		s := &script{answers: tc.answers}
		server := httptest.NewServer(s)
		err := create(testClient(server.URL, &waits{}))
		server.Close()
		if (err == nil) != tc.ok || len(s.seen()) != tc.attempts {
			t.Errorf("%s: %v after %d attempts, want %d", tc.name, err, len(s.seen()), tc.attempts)
		}
	}
	// A port nobody listens on: the connection is refused, so even a create is tried again.
	listener, _ := net.Listen("tcp", "127.0.0.1:0")
	closedURL := "http://" + listener.Addr().String()
	listener.Close()
	w := &waits{}
	err := create(testClient(closedURL, w, cgs.WithMaxRetries(2)))
	var opErr *net.OpError
	if !errors.As(err, &opErr) || len(w.all) != 2 {
		t.Errorf("refused connection: %v after %d waits, want 2", err, len(w.all))
	}
}

func TestReadsAreRetriedAfterAHangUp(t *testing.T) {
	s := &script{answers: []func(http.ResponseWriter, *http.Request){hangUp, answer(200, sessionJSON)}}
	server := httptest.NewServer(s)
	defer server.Close()
	if _, err := testClient(server.URL, &waits{}).Sessions.Get(context.Background(), "x"); err != nil || len(s.seen()) != 2 {
		t.Errorf("%v after %d attempts", err, len(s.seen()))
	}
}

func TestEachAttemptHasItsOwnTimeout(t *testing.T) {
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}
	s := &script{answers: []func(http.ResponseWriter, *http.Request){slow, answer(200, sessionJSON)}}
	server := httptest.NewServer(s)
	defer server.Close()
	started := time.Now()
	_, err := testClient(server.URL, &waits{}, cgs.WithTimeout(100*time.Millisecond)).Sessions.Get(context.Background(), "x")
	if err != nil || len(s.seen()) != 2 || time.Since(started) > time.Second {
		t.Errorf("%v after %d attempts and %v", err, len(s.seen()), time.Since(started))
	}

	s = &script{answers: []func(http.ResponseWriter, *http.Request){slow}}
	server2 := httptest.NewServer(s)
	defer server2.Close()
	_, err = testClient(server2.URL, &waits{}, cgs.WithTimeout(50*time.Millisecond), cgs.WithMaxRetries(0)).Sessions.Get(context.Background(), "x")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a silent server: %v, want context.DeadlineExceeded", err)
	}
}

func TestTheCallersContextEndsTheRetries(t *testing.T) {
	s := &script{answers: []func(http.ResponseWriter, *http.Request){problem(503, "service_unavailable", true, "Retry-After", "30")}}
	server := httptest.NewServer(s)
	defer server.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	started := time.Now()
	// The real sleep: cut short by the context.
	_, err := cgs.NewClient("k", cgs.WithBaseURL(server.URL)).Sessions.Create(ctx, sessionParams)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(started) > 2*time.Second || len(s.seen()) != 1 {
		t.Errorf("%v after %v and %d attempts", err, time.Since(started), len(s.seen()))
	}
}

func TestAnInvalidConfigurationFailsEveryCall(t *testing.T) {
	for _, c := range []*cgs.Client{
		cgs.NewClient("k", cgs.WithBaseURL("not a url")),
		cgs.NewClient("k", cgs.WithBaseURL("ftp://example.com")),
		cgs.NewClient("k\r\nX-Evil: 1"),
		cgs.NewClient("k", cgs.WithMaxRetries(-1)),
		cgs.NewClient("k", cgs.WithTimeout(0)),
		cgs.NewClient("k", cgs.WithHTTPClient(nil)),
	} {
		if _, err := c.Sessions.Get(context.Background(), "x"); !errors.Is(err, cgs.ErrConfig) {
			t.Errorf("%v, want ErrConfig", err)
		}
	}
}

func TestRequestsCarryTheKeyAndUserAgent(t *testing.T) {
	var got http.Header
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		answer(200, sessionJSON)(w, r)
	}))
	defer server.Close()
	if _, err := cgs.NewClient("cgs_live_abc", cgs.WithBaseURL(server.URL+"/")).Sessions.Get(context.Background(), "x"); err != nil {
		t.Fatal(err)
	}
	if got.Get("Authorization") != "Bearer cgs_live_abc" || got.Get("User-Agent") != "cgs-go/2.4.0" || got.Get("Accept") != "application/json" {
		t.Errorf("headers %v", got)
	}
}

func TestErrorMessageNamesStatusCodeAndFields(t *testing.T) {
	err := error(&cgs.Error{Status: 400, Code: cgs.CodeValidationFailed, Detail: "bad",
		Errors: []cgs.FieldError{{Pointer: "#/currency", Code: "invalid_format"}, {Parameter: "limit", Code: "invalid_type"}}})
	want := "cgs: 400 validation_failed: bad [#/currency invalid_format] [limit invalid_type]"
	if err.Error() != want {
		t.Errorf("%q", err.Error())
	}
	wrapped := fmt.Errorf("creating: %w", err)
	var apiErr *cgs.Error
	if !errors.As(wrapped, &apiErr) || !cgs.HasCode(wrapped, cgs.CodeValidationFailed) || len(apiErr.FieldErrors("#/currency")) != 1 {
		t.Error("errors.As through wrapping")
	}
}
