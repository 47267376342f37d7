// Package cgs is the Go client of the Casino Gaming Integration Service's operator API (v3).
//
//	client := cgs.NewClient(os.Getenv("CGS_API_KEY"), cgs.WithBaseURL("https://<ref>.supabase.co/functions/v1"))
//	session, err := client.Sessions.Create(ctx, &cgs.SessionCreateParams{
//		PlayerID: "player-1", GameID: "pragmatic-play:vs20olympgate", Currency: "EUR",
//	})
//
// Every call takes a context first. Errors from the API are *Error values (use errors.As). Lists
// are iterators over the API's cursor pages. Money is Decimal, a decimal string. Failed calls that
// may succeed later are retried with exponential backoff, and a session's creation carries one
// Idempotency-Key across its retries, so a retry never creates a second session.
//
// Webhook deliveries are verified with the webhook package; calls to a seamless wallet with the
// seamless package.
package cgs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultBaseURL is the server the OpenAPI document names for a local run (`npm start`). A hosted
// project's is "https://<project-ref>.supabase.co/functions/v1": pass it with WithBaseURL.
const DefaultBaseURL = "http://127.0.0.1:54321/functions/v1"

// UserAgent is the User-Agent every request carries.
const UserAgent = "cgs-go/" + Version

// Client calls the operator API. Its services group the endpoints by resource. A Client is safe for
// concurrent use.
type Client struct {
	Sessions         *SessionsService
	Games            *GamesService
	Providers        *ProvidersService
	Currencies       *CurrenciesService
	Jurisdictions    *JurisdictionsService
	Wallets          *WalletsService
	Transactions     *TransactionsService
	Rounds           *RoundsService
	WalletSettings   *WalletSettingsService
	WebhookEndpoints *WebhookEndpointsService
	Events           *EventsService
	FreeRounds       *FreeRoundsService
	Sportsbook       *SportsbookService
	Reports          *ReportsService
	Players          *PlayersService
	Sandbox          *SandboxService
	Discovery        *DiscoveryService

	backend *backend
}

// Option configures a Client.
type Option func(*backend)

// WithBaseURL sets the API's server URL, the one the OpenAPI document names: requests go to
// {baseURL}/v3/... A trailing slash is ignored.
func WithBaseURL(baseURL string) Option {
	return func(b *backend) { b.baseURL = strings.TrimRight(baseURL, "/") }
}

// WithHTTPClient sets the http.Client requests go through (its Transport, proxies, TLS). Its own
// Timeout, if any, bounds each attempt too.
func WithHTTPClient(hc *http.Client) Option {
	return func(b *backend) { b.http = hc }
}

// WithMaxRetries sets how many times a failed call is retried after its first attempt
// (DefaultMaxRetries by default); zero turns retrying off.
func WithMaxRetries(n int) Option {
	return func(b *backend) { b.maxRetries = n }
}

// WithTimeout sets how long one attempt may take, the answer's body included (DefaultTimeout by
// default, longer than the API's own database timeouts). An attempt that times out counts as a
// network failure.
func WithTimeout(d time.Duration) Option {
	return func(b *backend) { b.timeout = d }
}

// WithRetryBackoff sets the first wait between attempts, doubled each retry (DefaultBaseDelay), and
// the longest any one wait may be, Retry-After included (DefaultMaxDelay).
func WithRetryBackoff(base, max time.Duration) Option {
	return func(b *backend) { b.backoff.base, b.backoff.max = base, max }
}

// NewClient makes a client for the API key (cgs_live_... or cgs_test_...). An invalid option is
// reported by every call the client makes, rather than here, so that NewClient can be used inline.
func NewClient(apiKey string, opts ...Option) *Client {
	b := &backend{
		apiKey:     apiKey,
		baseURL:    DefaultBaseURL,
		http:       http.DefaultClient,
		maxRetries: DefaultMaxRetries,
		timeout:    DefaultTimeout,
		backoff:    backoff{base: DefaultBaseDelay, max: DefaultMaxDelay, random: cryptoRandom},
		sleep:      sleepContext,
		now:        time.Now,
	}
	for _, opt := range opts {
		opt(b)
	}
	b.configErr = b.check()
	return &Client{
		Sessions:         &SessionsService{b},
		Games:            &GamesService{b},
		Providers:        &ProvidersService{b},
		Currencies:       &CurrenciesService{b},
		Jurisdictions:    &JurisdictionsService{b},
		Wallets:          &WalletsService{b},
		Transactions:     &TransactionsService{b},
		Rounds:           &RoundsService{b},
		WalletSettings:   &WalletSettingsService{b},
		WebhookEndpoints: &WebhookEndpointsService{b},
		Events:           &EventsService{b},
		FreeRounds:       &FreeRoundsService{b},
		Sportsbook:       &SportsbookService{b},
		Reports:          &ReportsService{b},
		Players:          &PlayersService{b},
		Sandbox:          &SandboxService{b},
		Discovery:        &DiscoveryService{b},
		backend:          b,
	}
}

// ErrConfig wraps every error caused by the client's own configuration.
var ErrConfig = errors.New("cgs: invalid client configuration")

type backend struct {
	apiKey     string
	baseURL    string
	http       *http.Client
	maxRetries int
	timeout    time.Duration
	backoff    backoff
	// sleep waits between attempts; tests replace it to observe the waits without waiting.
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time
	// strict makes answers with members the SDK does not know an error (the conformance tests).
	strict    bool
	configErr error
}

// check rejects a configuration that would fail every call, naming the option but never quoting the
// key: a key set in the wrong variable would end up in logs.
func (b *backend) check() error {
	u, err := url.Parse(b.baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: the base URL must be an absolute http(s) URL", ErrConfig)
	}
	if strings.ContainsAny(b.apiKey, "\r\n\x00") {
		return fmt.Errorf("%w: the API key holds characters an HTTP header cannot carry", ErrConfig)
	}
	if b.maxRetries < 0 {
		return fmt.Errorf("%w: max retries must be 0 or more", ErrConfig)
	}
	if b.timeout <= 0 {
		return fmt.Errorf("%w: the timeout must be positive", ErrConfig)
	}
	if b.backoff.base < 0 || b.backoff.max < 0 {
		return fmt.Errorf("%w: backoff delays must not be negative", ErrConfig)
	}
	if b.http == nil {
		return fmt.Errorf("%w: the HTTP client is nil", ErrConfig)
	}
	return nil
}

func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// request is one API call.
type request struct {
	method string
	path   string
	query  url.Values
	body   interface{}
	// idempotencyKey is sent as Idempotency-Key on every attempt.
	idempotencyKey string
	// replayable: the server treats a repeat as the same request (a read, a create under an
	// Idempotency-Key, or a call the API documents as idempotent), so any failure may be retried.
	replayable bool
	// accept is the media type asked for (application/json when empty); out is then a *[]byte
	// given the answer's bytes as they came.
	accept string
}

// call makes the request, retrying as the policy allows, and decodes a 2xx answer into out.
func (b *backend) call(ctx context.Context, r request, out interface{}) error {
	if b.configErr != nil {
		return b.configErr
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrConfig)
	}
	var payload []byte
	if r.body != nil {
		var err error
		if payload, err = json.Marshal(r.body); err != nil {
			return fmt.Errorf("cgs: encoding the request: %w", err)
		}
	}
	target := b.baseURL + r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	for attempt := 0; ; attempt++ {
		canRetry := attempt < b.maxRetries
		apiErr, err := b.attempt(ctx, r, target, payload, out)
		if err == nil && apiErr == nil {
			return nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("cgs: %s %s: %w", r.method, r.path, ctxErr)
		}
		var wait time.Duration
		if apiErr != nil {
			apiErr.Attempts = attempt + 1
			if !canRetry || !retryableAnswer(apiErr, r.replayable) {
				return apiErr
			}
			wait = b.backoff.delay(attempt, apiErr.RetryAfter)
		} else {
			var undecodable *decodeError
			if errors.As(err, &undecodable) {
				return fmt.Errorf("cgs: %s %s: the answer is not the documented JSON: %w", r.method, r.path, undecodable.err)
			}
			if !canRetry || !retryableFailure(err, r.replayable) {
				return fmt.Errorf("cgs: %s %s (%d attempts): %w", r.method, r.path, attempt+1, err)
			}
			wait = b.backoff.delay(attempt, 0)
		}
		if err := b.sleep(ctx, wait); err != nil {
			return fmt.Errorf("cgs: %s %s: %w", r.method, r.path, err)
		}
	}
}

// attempt is one request within its own timeout: an error answer as *Error, a failure to get an
// answer (network, timeout, unreadable body) as err.
func (b *backend) attempt(ctx context.Context, r request, target string, payload []byte, out interface{}) (*Error, error) {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+b.apiKey)
	accept := r.accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", UserAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", r.idempotencyKey)
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	// The body is read within the attempt: one that stalls times out like a silent server.
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		if out == nil || resp.StatusCode == http.StatusNoContent {
			return nil, nil
		}
		if raw, ok := out.(*json.RawMessage); ok {
			*raw = append((*raw)[:0], data...)
			return nil, nil
		}
		if raw, ok := out.(*[]byte); ok {
			*raw = data
			return nil, nil
		}
		if err := b.decode(data, out); err != nil {
			return nil, &decodeError{err}
		}
		return nil, nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxProblemBodyBytes))
	if err != nil {
		return nil, err
	}
	return b.problem(resp, data), nil
}

// decodeError is a 2xx answer that is not the documented JSON: the call happened, so it is not retried.
type decodeError struct{ err error }

func (e *decodeError) Error() string { return e.err.Error() }

func (b *backend) decode(data []byte, out interface{}) error {
	decoder := json.NewDecoder(bytes.NewReader(data))
	if b.strict {
		decoder.DisallowUnknownFields()
	}
	if err := decoder.Decode(out); err != nil {
		return err
	}
	if decoder.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// problem turns an error answer into an *Error: its RFC 9457 body when it has one, else the status.
func (b *backend) problem(resp *http.Response, data []byte) *Error {
	apiErr := &Error{}
	if err := json.Unmarshal(data, apiErr); err != nil || apiErr.Status == 0 {
		detail := strings.TrimSpace(string(data))
		if len(detail) > 200 {
			detail = detail[:200] + "..."
		}
		apiErr = &Error{Title: http.StatusText(resp.StatusCode), Detail: detail, Retryable: retryableStatus(resp.StatusCode)}
	}
	apiErr.Status = resp.StatusCode
	apiErr.Header = resp.Header
	apiErr.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), b.now())
	return apiErr
}
