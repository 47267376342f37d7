package cgs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// Each service is one resource of the API. Reads are replayable and so retried on any failure;
// changes are retried on any failure only where a repeat is the same request to the API (a create
// under an Idempotency-Key, a close, a whole replacement), else only on 429 or when the
// connection was never made.

func get(b *backend, ctx context.Context, path string, query url.Values, out interface{}) error {
	return b.call(ctx, request{method: http.MethodGet, path: path, query: query, replayable: true}, out)
}

// list is an iterator over a list endpoint, its params' filters kept and the cursor advanced.
func list[T any](b *backend, path string, params interface{}, start string) *Iter[T] {
	query := encodeQuery(params)
	return newIter(start, func(ctx context.Context, cursor string) (*Page[T], error) {
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		q.Del("cursor")
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		page := &Page[T]{}
		if err := get(b, ctx, path, q, page); err != nil {
			return nil, err
		}
		return page, nil
	})
}

// listPage is one page of a list endpoint.
func listPage[T any](b *backend, ctx context.Context, path string, params interface{}) (*Page[T], error) {
	page := &Page[T]{}
	if err := get(b, ctx, path, encodeQuery(params), page); err != nil {
		return nil, err
	}
	return page, nil
}

func cursorOf(p *ListParams) string {
	if p == nil || p.Cursor == nil {
		return ""
	}
	return *p.Cursor
}

func segment(s string) string { return url.PathEscape(s) }

// SessionsService creates and reads game sessions.
type SessionsService struct{ b *backend }

// Create creates a session for one of your players and returns it with its launch URL (valid until
// ExpiresAt). It sends params.IdempotencyKey, or a random one made for this call, on every attempt:
// the API replays the first answer to a retry, so retries never create a second session.
func (s *SessionsService) Create(ctx context.Context, params *SessionCreateParams) (*Session, error) {
	if params == nil {
		params = &SessionCreateParams{}
	}
	key := params.IdempotencyKey
	if key == "" {
		var err error
		if key, err = newUUID(); err != nil {
			return nil, err
		}
	}
	session := &Session{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/sessions", body: params,
		idempotencyKey: key, replayable: true}, session)
	if err != nil {
		return nil, err
	}
	return session, nil
}

// Get reads one of your sessions (a fresh launch URL while it can still be launched).
func (s *SessionsService) Get(ctx context.Context, id string) (*Session, error) {
	session := &Session{}
	if err := get(s.b, ctx, "/v3/sessions/"+segment(id), nil, session); err != nil {
		return nil, err
	}
	return session, nil
}

// List iterates over your sessions, newest first.
func (s *SessionsService) List(params *SessionListParams) *Iter[Session] {
	var lp *ListParams
	if params != nil {
		lp = &params.ListParams
	}
	return list[Session](s.b, "/v3/sessions", params, cursorOf(lp))
}

// ListPage is one page of your sessions.
func (s *SessionsService) ListPage(ctx context.Context, params *SessionListParams) (*Page[Session], error) {
	return listPage[Session](s.b, ctx, "/v3/sessions", params)
}

// Close ends a session (its player left): no more bets; wins and rollbacks of rounds already played
// still settle. Closing again changes nothing, so it is retried like a read.
func (s *SessionsService) Close(ctx context.Context, id string) (*Session, error) {
	session := &Session{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/sessions/" + segment(id) + "/close", replayable: true}, session)
	if err != nil {
		return nil, err
	}
	return session, nil
}

// GamesService reads the game catalogue.
type GamesService struct{ b *backend }

// List iterates over the active games.
func (s *GamesService) List(params *GameListParams) *Iter[Game] {
	var lp *ListParams
	if params != nil {
		lp = &params.ListParams
	}
	return list[Game](s.b, "/v3/games", params, cursorOf(lp))
}

// ListPage is one page of the active games.
func (s *GamesService) ListPage(ctx context.Context, params *GameListParams) (*Page[Game], error) {
	return listPage[Game](s.b, ctx, "/v3/games", params)
}

// Get reads one active game by its `<provider slug>:<game code>`.
func (s *GamesService) Get(ctx context.Context, gameID string) (*Game, error) {
	game := &Game{}
	if err := get(s.b, ctx, "/v3/games/"+segment(gameID), nil, game); err != nil {
		return nil, err
	}
	return game, nil
}

// ProvidersService reads the game providers.
type ProvidersService struct{ b *backend }

// List iterates over the providers, each with its count of active games.
func (s *ProvidersService) List(params *ListParams) *Iter[Provider] {
	return list[Provider](s.b, "/v3/providers", params, cursorOf(params))
}

// ListPage is one page of the providers.
func (s *ProvidersService) ListPage(ctx context.Context, params *ListParams) (*Page[Provider], error) {
	return listPage[Provider](s.b, ctx, "/v3/providers", params)
}

// CurrenciesService reads the currencies.
type CurrenciesService struct{ b *backend }

// List iterates over the active currencies.
func (s *CurrenciesService) List(params *ListParams) *Iter[Currency] {
	return list[Currency](s.b, "/v3/currencies", params, cursorOf(params))
}

// ListPage is one page of the currencies.
func (s *CurrenciesService) ListPage(ctx context.Context, params *ListParams) (*Page[Currency], error) {
	return listPage[Currency](s.b, ctx, "/v3/currencies", params)
}

// JurisdictionsService reads the licensing jurisdictions.
type JurisdictionsService struct{ b *backend }

// List iterates over the jurisdictions and their rules.
func (s *JurisdictionsService) List(params *ListParams) *Iter[Jurisdiction] {
	return list[Jurisdiction](s.b, "/v3/jurisdictions", params, cursorOf(params))
}

// ListPage is one page of the jurisdictions.
func (s *JurisdictionsService) ListPage(ctx context.Context, params *ListParams) (*Page[Jurisdiction], error) {
	return listPage[Jurisdiction](s.b, ctx, "/v3/jurisdictions", params)
}

// Get reads one jurisdiction by code ("GB", "MT", ...).
func (s *JurisdictionsService) Get(ctx context.Context, code string) (*Jurisdiction, error) {
	j := &Jurisdiction{}
	if err := get(s.b, ctx, "/v3/jurisdictions/"+segment(code), nil, j); err != nil {
		return nil, err
	}
	return j, nil
}

// WalletsService reads your balances.
type WalletsService struct{ b *backend }

// List iterates over your wallets (none for a test key: the float is live money).
func (s *WalletsService) List(params *ListParams) *Iter[Wallet] {
	return list[Wallet](s.b, "/v3/wallets", params, cursorOf(params))
}

// ListPage is one page of your wallets.
func (s *WalletsService) ListPage(ctx context.Context, params *ListParams) (*Page[Wallet], error) {
	return listPage[Wallet](s.b, ctx, "/v3/wallets", params)
}

// TransactionsService reads your ledger.
type TransactionsService struct{ b *backend }

// List iterates over your ledger, newest first.
func (s *TransactionsService) List(params *TransactionListParams) *Iter[Transaction] {
	var lp *ListParams
	if params != nil {
		lp = &params.ListParams
	}
	return list[Transaction](s.b, "/v3/transactions", params, cursorOf(lp))
}

// ListPage is one page of your ledger.
func (s *TransactionsService) ListPage(ctx context.Context, params *TransactionListParams) (*Page[Transaction], error) {
	return listPage[Transaction](s.b, ctx, "/v3/transactions", params)
}

// RoundsService reads the game rounds played in your sessions.
type RoundsService struct{ b *backend }

// List iterates over your rounds, newest first.
func (s *RoundsService) List(params *RoundListParams) *Iter[Round] {
	var lp *ListParams
	if params != nil {
		lp = &params.ListParams
	}
	return list[Round](s.b, "/v3/rounds", params, cursorOf(lp))
}

// ListPage is one page of your rounds.
func (s *RoundsService) ListPage(ctx context.Context, params *RoundListParams) (*Page[Round], error) {
	return listPage[Round](s.b, ctx, "/v3/rounds", params)
}

// Get reads one round, with its transactions.
func (s *RoundsService) Get(ctx context.Context, id string) (*RoundDetail, error) {
	round := &RoundDetail{}
	if err := get(s.b, ctx, "/v3/rounds/"+segment(id), nil, round); err != nil {
		return nil, err
	}
	return round, nil
}

// WalletSettingsService reads and sets how play is funded.
type WalletSettingsService struct{ b *backend }

// Get reads the wallet settings of the key's mode.
func (s *WalletSettingsService) Get(ctx context.Context) (*WalletSettings, error) {
	settings := &WalletSettings{}
	if err := get(s.b, ctx, "/v3/wallet-settings", nil, settings); err != nil {
		return nil, err
	}
	return settings, nil
}

// Update sets them. The answer carries the signing secret when one was made (the first switch to
// seamless, or RotateSecret): a repeat could rotate it again, so it is not retried after a failure
// that may have reached the API.
func (s *WalletSettingsService) Update(ctx context.Context, params *WalletSettingsParams) (*WalletSettingsUpdated, error) {
	settings := &WalletSettingsUpdated{}
	err := s.b.call(ctx, request{method: http.MethodPut, path: "/v3/wallet-settings", body: params}, settings)
	if err != nil {
		return nil, err
	}
	return settings, nil
}

// WebhookEndpointsService manages where events are delivered.
type WebhookEndpointsService struct{ b *backend }

func endpointPath(id string) string { return "/v3/webhook-endpoints/" + segment(id) }

// Create registers an endpoint; the answer carries its signing secret, this once. It is not retried
// after a failure that may have reached the API: a repeat would register a second endpoint.
func (s *WebhookEndpointsService) Create(ctx context.Context, params *WebhookEndpointCreateParams) (*WebhookEndpointCreated, error) {
	endpoint := &WebhookEndpointCreated{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/webhook-endpoints", body: params}, endpoint)
	if err != nil {
		return nil, err
	}
	return endpoint, nil
}

// List iterates over your endpoints of the key's mode.
func (s *WebhookEndpointsService) List(params *ListParams) *Iter[WebhookEndpoint] {
	return list[WebhookEndpoint](s.b, "/v3/webhook-endpoints", params, cursorOf(params))
}

// ListPage is one page of your endpoints.
func (s *WebhookEndpointsService) ListPage(ctx context.Context, params *ListParams) (*Page[WebhookEndpoint], error) {
	return listPage[WebhookEndpoint](s.b, ctx, "/v3/webhook-endpoints", params)
}

// Get reads one endpoint.
func (s *WebhookEndpointsService) Get(ctx context.Context, id string) (*WebhookEndpoint, error) {
	endpoint := &WebhookEndpoint{}
	if err := get(s.b, ctx, endpointPath(id), nil, endpoint); err != nil {
		return nil, err
	}
	return endpoint, nil
}

// Update changes the fields set in params; setting fields to values is the same on a repeat.
func (s *WebhookEndpointsService) Update(ctx context.Context, id string, params *WebhookEndpointUpdateParams) (*WebhookEndpoint, error) {
	endpoint := &WebhookEndpoint{}
	err := s.b.call(ctx, request{method: http.MethodPatch, path: endpointPath(id), body: params, replayable: true}, endpoint)
	if err != nil {
		return nil, err
	}
	return endpoint, nil
}

// Delete removes an endpoint and returns it. A repeat after a lost answer would be not_found, so it
// is not retried after a failure that may have reached the API.
func (s *WebhookEndpointsService) Delete(ctx context.Context, id string) (*WebhookEndpoint, error) {
	endpoint := &WebhookEndpoint{}
	if err := s.b.call(ctx, request{method: http.MethodDelete, path: endpointPath(id)}, endpoint); err != nil {
		return nil, err
	}
	return endpoint, nil
}

// RotateSecret makes a new signing secret, returned this once; the old one keeps signing beside it
// for a day. Not retried after a failure that may have reached the API.
func (s *WebhookEndpointsService) RotateSecret(ctx context.Context, id string) (*WebhookEndpointCreated, error) {
	endpoint := &WebhookEndpointCreated{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: endpointPath(id) + "/rotate-secret"}, endpoint)
	if err != nil {
		return nil, err
	}
	return endpoint, nil
}

// Test sends an endpoint.ping event to this endpoint alone and returns the event.
func (s *WebhookEndpointsService) Test(ctx context.Context, id string) (*Event, error) {
	event := &Event{}
	if err := s.b.call(ctx, request{method: http.MethodPost, path: endpointPath(id) + "/test"}, event); err != nil {
		return nil, err
	}
	return event, nil
}

// EventsService reads the recent events (the API keeps a month) and their deliveries.
type EventsService struct{ b *backend }

// List iterates over your events of the key's mode, newest first.
func (s *EventsService) List(params *EventListParams) *Iter[Event] {
	var lp *ListParams
	if params != nil {
		lp = &params.ListParams
	}
	return list[Event](s.b, "/v3/events", params, cursorOf(lp))
}

// ListPage is one page of your events.
func (s *EventsService) ListPage(ctx context.Context, params *EventListParams) (*Page[Event], error) {
	return listPage[Event](s.b, ctx, "/v3/events", params)
}

// Get reads one event.
func (s *EventsService) Get(ctx context.Context, id string) (*Event, error) {
	event := &Event{}
	if err := get(s.b, ctx, "/v3/events/"+segment(id), nil, event); err != nil {
		return nil, err
	}
	return event, nil
}

// Deliveries lists an event's deliveries, each with every attempt.
func (s *EventsService) Deliveries(ctx context.Context, id string) ([]WebhookDelivery, error) {
	deliveries := &webhookDeliveryList{}
	if err := get(s.b, ctx, "/v3/events/"+segment(id)+"/deliveries", nil, deliveries); err != nil {
		return nil, err
	}
	return deliveries.Data, nil
}

// Redeliver sends the event again now, to each endpoint that wants it, and schedules it afresh.
func (s *EventsService) Redeliver(ctx context.Context, id string) ([]WebhookDelivery, error) {
	deliveries := &webhookDeliveryList{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/events/" + segment(id) + "/redeliver"}, deliveries)
	if err != nil {
		return nil, err
	}
	return deliveries.Data, nil
}

// PlayersService reads and sets your players' responsible-gaming restrictions.
type PlayersService struct{ b *backend }

func restrictionsPath(playerID string) string {
	return "/v3/players/" + segment(playerID) + "/restrictions"
}

// GetRestrictions reads a player's restrictions (all empty when none were set).
func (s *PlayersService) GetRestrictions(ctx context.Context, playerID string) (*PlayerRestrictions, error) {
	r := &PlayerRestrictions{}
	if err := get(s.b, ctx, restrictionsPath(playerID), nil, r); err != nil {
		return nil, err
	}
	return r, nil
}

// SetRestrictions replaces a player's restrictions as a whole; a running exclusion cannot be
// shortened (exclusion_active). A whole replacement is the same on a repeat, so it is retried.
func (s *PlayersService) SetRestrictions(ctx context.Context, playerID string, params *PlayerRestrictionsParams) (*PlayerRestrictions, error) {
	if params == nil {
		params = &PlayerRestrictionsParams{}
	}
	r := &PlayerRestrictions{}
	err := s.b.call(ctx, request{method: http.MethodPut, path: restrictionsPath(playerID), body: params, replayable: true}, r)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// SandboxService is test mode's tooling (test keys only).
type SandboxService struct{ b *backend }

// CreatePlayer gives a test player a balance in a currency; made again, it is reset, so it is
// retried like a read.
func (s *SandboxService) CreatePlayer(ctx context.Context, params *SandboxPlayerParams) (*SandboxPlayer, error) {
	player := &SandboxPlayer{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/sandbox/players", body: params, replayable: true}, player)
	if err != nil {
		return nil, err
	}
	return player, nil
}

// GetPlayer reads a test player's balance and behaviour in each currency it has one in.
func (s *SandboxService) GetPlayer(ctx context.Context, playerID string) (*SandboxPlayerBalances, error) {
	players := &SandboxPlayerBalances{}
	if err := get(s.b, ctx, "/v3/sandbox/players/"+segment(playerID), nil, players); err != nil {
		return nil, err
	}
	return players, nil
}

// CheckWallet plays the self-check scenarios against your seamless test wallet.
func (s *SandboxService) CheckWallet(ctx context.Context, params *WalletCheckParams) (*WalletCheckReport, error) {
	report := &WalletCheckReport{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/sandbox/wallet-checks", body: params}, report)
	if err != nil {
		return nil, err
	}
	return report, nil
}

// Reset puts your test world back: removes your test players, their restrictions and your test
// webhook endpoints, sets your test wallet to transfer, closes your test sessions, ends your test
// rounds, free rounds and sportsbook bets (moving no money) and clears the demo fixtures' outcomes,
// and says how many of each. A second reset finds nothing, so it is retried like a read.
func (s *SandboxService) Reset(ctx context.Context) (*SandboxReset, error) {
	reset := &SandboxReset{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/sandbox/reset", replayable: true}, reset)
	if err != nil {
		return nil, err
	}
	return reset, nil
}

// DiscoveryService reads the public documents: no key is needed, but it is sent.
type DiscoveryService struct{ b *backend }

// JWKS is the key set game providers verify launch tokens with.
func (s *DiscoveryService) JWKS(ctx context.Context) (*JWKS, error) {
	set := &JWKS{}
	if err := get(s.b, ctx, "/v3/.well-known/jwks.json", nil, set); err != nil {
		return nil, err
	}
	return set, nil
}

// OpenAPI is the API's OpenAPI 3.1 description, as served.
func (s *DiscoveryService) OpenAPI(ctx context.Context) (json.RawMessage, error) {
	var document json.RawMessage
	if err := get(s.b, ctx, "/v3/openapi.json", nil, &document); err != nil {
		return nil, err
	}
	return document, nil
}
