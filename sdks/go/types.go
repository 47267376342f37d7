package cgs

import (
	"encoding/json"
	"time"
)

// The API's objects, one struct per schema of the OpenAPI document (supabase/functions/v3/openapi.json);
// conformance_test.go holds every one to its schema, member by member. Date-times are time.Time,
// money is Decimal, and a member the API may send as null is a pointer.

// SessionStatus is where a session is in its life.
type SessionStatus string

// The session statuses.
const (
	SessionCreated SessionStatus = "created"
	SessionActive  SessionStatus = "active"
	SessionClosed  SessionStatus = "closed"
	SessionExpired SessionStatus = "expired"
)

// KYCStatus is a player's identity verification, as the operator reports it.
type KYCStatus string

// The KYC statuses.
const (
	KYCUnverified KYCStatus = "unverified"
	KYCPending    KYCStatus = "pending"
	KYCVerified   KYCStatus = "verified"
	KYCRejected   KYCStatus = "rejected"
)

// Session is a game session (GameSession).
type Session struct {
	ID        string        `json:"id"`
	PlayerID  string        `json:"player_id"`
	GameID    string        `json:"game_id"`
	Currency  string        `json:"currency"`
	Status    SessionStatus `json:"status"`
	Livemode  bool          `json:"livemode"`
	CreatedAt time.Time     `json:"created_at"`
	ExpiresAt time.Time     `json:"expires_at"`
	// LaunchURL is where the player starts the game, while the session can still be launched.
	LaunchURL           string    `json:"launch_url,omitempty"`
	Jurisdiction        string    `json:"jurisdiction,omitempty"`
	KYCStatus           KYCStatus `json:"kyc_status,omitempty"`
	RealityCheckMinutes int       `json:"reality_check_minutes,omitempty"`
}

// SessionCreateParams is the body of POST /v3/sessions (SessionRequest).
type SessionCreateParams struct {
	PlayerID string `json:"player_id"`
	// GameID is `<provider slug>:<game code>`.
	GameID   string `json:"game_id"`
	Currency string `json:"currency"`
	// Country is the player's country (ISO 3166-1 alpha-2): a game restricted there is refused.
	Country             string    `json:"country,omitempty"`
	Jurisdiction        string    `json:"jurisdiction,omitempty"`
	KYCStatus           KYCStatus `json:"kyc_status,omitempty"`
	RealityCheckMinutes int       `json:"reality_check_minutes,omitempty"`

	// IdempotencyKey makes retries safe across processes: the API replays the first answer for the
	// same key and body. Left empty, one is generated per Create call and kept across its retries.
	IdempotencyKey string `json:"-"`
}

// SessionListParams filters GET /v3/sessions.
type SessionListParams struct {
	ListParams
	PlayerID string        `query:"player_id"`
	Status   SessionStatus `query:"status"`
}

// GameCategory is a game's kind.
type GameCategory string

// The game categories.
const (
	CategorySlots      GameCategory = "slots"
	CategoryLiveCasino GameCategory = "live_casino"
	CategoryTableGames GameCategory = "table_games"
	CategoryGameShow   GameCategory = "game_show"
	CategoryCrash      GameCategory = "crash"
	CategoryInstant    GameCategory = "instant"
	CategoryScratch    GameCategory = "scratch"
	CategoryBingo      GameCategory = "bingo"
	CategoryJackpot    GameCategory = "jackpot"
)

// Game is a game of the catalogue.
type Game struct {
	GameID   string       `json:"game_id"`
	Provider string       `json:"provider"`
	Code     string       `json:"code"`
	Name     string       `json:"name"`
	Category GameCategory `json:"category"`
	// Status is active, maintenance or inactive.
	Status string `json:"status"`
	// RTP is the return to player, a percentage with two decimals.
	RTP *string `json:"rtp"`
	// Volatility is low, medium, high or very_high.
	Volatility   *string  `json:"volatility"`
	Features     []string `json:"features"`
	Platforms    []string `json:"platforms"`
	ThumbnailURL *string  `json:"thumbnail_url"`
	// ReleasedOn is a date (YYYY-MM-DD).
	ReleasedOn          *string   `json:"released_on"`
	Currencies          []string  `json:"currencies"`
	RestrictedCountries []string  `json:"restricted_countries"`
	Jurisdictions       []string  `json:"jurisdictions"`
	Demo                bool      `json:"demo"`
	UpdatedAt           time.Time `json:"updated_at"`
}

// GameListParams filters GET /v3/games.
type GameListParams struct {
	ListParams
	Provider     string       `query:"provider"`
	Category     GameCategory `query:"category"`
	Currency     string       `query:"currency"`
	Country      string       `query:"country"`
	Jurisdiction string       `query:"jurisdiction"`
	// UpdatedSince lists the games changed since then (sent with at most microseconds).
	UpdatedSince *time.Time `query:"updated_since"`
}

// Provider is a game provider, with its count of active games.
type Provider struct {
	Slug       string  `json:"slug"`
	Name       string  `json:"name"`
	Category   *string `json:"category"`
	LogoURL    *string `json:"logo_url"`
	GamesCount int     `json:"games_count"`
}

// Currency is a currency games are played in.
type Currency struct {
	Code   string `json:"code"`
	Name   string `json:"name"`
	Symbol string `json:"symbol"`
}

// Wallet is one of the operator's balances (its float), per currency.
type Wallet struct {
	Currency  string    `json:"currency"`
	Balance   Decimal   `json:"balance"`
	IsPrimary bool      `json:"is_primary"`
	UpdatedAt time.Time `json:"updated_at"`
}

// TransactionType is a ledger movement's kind.
type TransactionType string

// The ledger movement kinds.
const (
	TransactionDeposit    TransactionType = "deposit"
	TransactionWithdraw   TransactionType = "withdraw"
	TransactionAdjustment TransactionType = "adjustment"
	TransactionBet        TransactionType = "bet"
	TransactionWin        TransactionType = "win"
	TransactionFee        TransactionType = "fee"
)

// Transaction is one movement of the operator's ledger.
type Transaction struct {
	ID           string          `json:"id"`
	Type         TransactionType `json:"type"`
	Currency     string          `json:"currency"`
	Amount       Decimal         `json:"amount"`
	BalanceAfter *Decimal        `json:"balance_after"`
	Reference    *string         `json:"reference"`
	Note         *string         `json:"note"`
	CreatedAt    time.Time       `json:"created_at"`
}

// TransactionListParams filters GET /v3/transactions.
type TransactionListParams struct {
	ListParams
	Currency      string          `query:"currency"`
	Type          TransactionType `query:"type"`
	CreatedAfter  *time.Time      `query:"created_after"`
	CreatedBefore *time.Time      `query:"created_before"`
}

// RoundStatus is where a game round is.
type RoundStatus string

// The round statuses.
const (
	RoundOpen      RoundStatus = "open"
	RoundClosed    RoundStatus = "closed"
	RoundCancelled RoundStatus = "cancelled"
)

// Round is a game round: the bets and wins of one play.
type Round struct {
	ID        string `json:"id"`
	RoundID   string `json:"round_id"`
	Provider  string `json:"provider"`
	GameID    string `json:"game_id"`
	SessionID string `json:"session_id"`
	PlayerID  string `json:"player_id"`
	Currency  string `json:"currency"`
	// WalletMode is the wallet the round's money moves in ("transfer" or "seamless"), fixed by its
	// first bet.
	WalletMode string      `json:"wallet_mode"`
	Status     RoundStatus `json:"status"`
	TotalBet   Decimal     `json:"total_bet"`
	TotalWin   Decimal     `json:"total_win"`
	// FreeRoundGrantID is the free-round grant that funded the round; nil for a round of cash.
	FreeRoundGrantID *string    `json:"free_round_grant_id"`
	Livemode         bool       `json:"livemode"`
	OpenedAt         time.Time  `json:"opened_at"`
	ClosedAt         *time.Time `json:"closed_at"`
}

// RoundTransaction is a bet, win or rollback of a round.
type RoundTransaction struct {
	TransactionID        string  `json:"transaction_id"`
	Type                 string  `json:"type"`
	Amount               Decimal `json:"amount"`
	RelatedTransactionID *string `json:"related_transaction_id"`
	RolledBack           bool    `json:"rolled_back"`
	// Review is where a win past a win limit stands: "held", "released" or "rejected"; nil otherwise.
	Review *string `json:"review"`
	// FreeRoundGrantID is the free-round grant that funded it; nil for cash. A free bet moved no money.
	FreeRoundGrantID *string   `json:"free_round_grant_id"`
	CreatedAt        time.Time `json:"created_at"`
}

// RoundDetail is a round with its transactions.
type RoundDetail struct {
	Round
	Transactions []RoundTransaction `json:"transactions"`
}

// RoundListParams filters GET /v3/rounds.
type RoundListParams struct {
	ListParams
	Status    RoundStatus `query:"status"`
	PlayerID  string      `query:"player_id"`
	SessionID string      `query:"session_id"`
	// OpenedBefore, with Status RoundOpen, lists the rounds left open too long.
	OpenedBefore *time.Time `query:"opened_before"`
}

// WalletMode is how play is funded: the operator's float (transfer) or its own wallet (seamless).
type WalletMode string

// The wallet modes.
const (
	WalletTransfer WalletMode = "transfer"
	WalletSeamless WalletMode = "seamless"
)

// WalletSettings are the operator's wallet mode, in the key's mode.
type WalletSettings struct {
	Mode         WalletMode `json:"mode"`
	URL          *string    `json:"url"`
	SecretPrefix *string    `json:"secret_prefix"`
	// LowBalanceAlerts maps a currency to the float balance under which wallet.balance_low is sent.
	LowBalanceAlerts map[string]Decimal `json:"low_balance_alerts"`
	Livemode         bool               `json:"livemode"`
	UpdatedAt        *time.Time         `json:"updated_at"`
}

// WalletSettingsUpdated is the answer to a change of the wallet settings.
type WalletSettingsUpdated struct {
	WalletSettings
	// Secret signs the calls to the wallet (whsec_...): returned only when one was made.
	Secret string `json:"secret,omitempty"`
}

// WalletSettingsParams is the body of PUT /v3/wallet-settings (WalletSettingsRequest).
type WalletSettingsParams struct {
	Mode WalletMode `json:"mode"`
	URL  string     `json:"url,omitempty"`
	// RotateSecret makes a new signing secret; the previous one keeps signing beside it for a day.
	RotateSecret     bool               `json:"rotate_secret,omitempty"`
	LowBalanceAlerts map[string]Decimal `json:"low_balance_alerts,omitempty"`
}

// EventType names what happened.
type EventType string

// The event types.
const (
	EventSessionCreated              EventType = "session.created"
	EventSessionClosed               EventType = "session.closed"
	EventRoundClosed                 EventType = "round.closed"
	EventRoundCancelled              EventType = "round.cancelled"
	EventRoundStuck                  EventType = "round.stuck"
	EventRoundWinHeld                EventType = "round.win_held"
	EventRoundWinReleased            EventType = "round.win_released"
	EventRoundWinRejected            EventType = "round.win_rejected"
	EventTransactionCreated          EventType = "transaction.created"
	EventWalletBalanceLow            EventType = "wallet.balance_low"
	EventAPIKeyCreated               EventType = "api_key.created"
	EventAPIKeyRevoked               EventType = "api_key.revoked"
	EventEndpointPing                EventType = "endpoint.ping"
	EventEndpointDisabled            EventType = "endpoint.disabled"
	EventSupportTicketUpdated        EventType = "support_ticket.updated"
	EventWalletCallFailed            EventType = "wallet_call.failed"
	EventPlayerRestrictionsUpdated   EventType = "player.restrictions_updated"
	EventPlayerRefused               EventType = "player.refused"
	EventFreeRoundsGrantCreated      EventType = "free_rounds.grant.created"
	EventFreeRoundsGrantStarted      EventType = "free_rounds.grant.started"
	EventFreeRoundsGrantCompleted    EventType = "free_rounds.grant.completed"
	EventFreeRoundsGrantExpired      EventType = "free_rounds.grant.expired"
	EventFreeRoundsGrantCancelled    EventType = "free_rounds.grant.cancelled"
	EventFreeRoundsCampaignEnded     EventType = "free_rounds.campaign.ended"
	EventFreeRoundsCampaignCancelled EventType = "free_rounds.campaign.cancelled"
)

// eventTypes lists the constants above, so that a test can hold them to the document.
var eventTypes = []EventType{
	EventSessionCreated, EventSessionClosed, EventRoundClosed, EventRoundCancelled, EventRoundStuck,
	EventRoundWinHeld, EventRoundWinReleased, EventRoundWinRejected,
	EventTransactionCreated, EventWalletBalanceLow, EventAPIKeyCreated, EventAPIKeyRevoked,
	EventEndpointPing, EventEndpointDisabled, EventSupportTicketUpdated, EventWalletCallFailed,
	EventPlayerRestrictionsUpdated, EventPlayerRefused,
	EventFreeRoundsGrantCreated, EventFreeRoundsGrantStarted, EventFreeRoundsGrantCompleted, EventFreeRoundsGrantExpired,
	EventFreeRoundsGrantCancelled, EventFreeRoundsCampaignEnded, EventFreeRoundsCampaignCancelled,
	EventSportsbookBetPlaced, EventSportsbookBetSettled, EventSportsbookBetResettled, EventSportsbookBetUnsettled,
	EventSportsbookBetClosed, EventSportsbookBetDiscarded, EventSportsbookClawbackPending,
}

// Known reports whether t is one of the types this SDK version knows; a newer API may send others.
func (t EventType) Known() bool {
	for _, known := range eventTypes {
		if t == known {
			return true
		}
	}
	return false
}

// Event is something that happened to the operator's objects; Data is the object as the API shows
// it (a session for session.*, a round for round.*, ...).
type Event struct {
	ID        string          `json:"id"`
	Type      EventType       `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	Livemode  bool            `json:"livemode"`
	Data      json.RawMessage `json:"data"`
}

// DecodeData decodes the event's object into v: a *Session for session.created, a *Round for
// round.closed, and so on.
func (e *Event) DecodeData(v interface{}) error {
	return json.Unmarshal(e.Data, v)
}

// EventListParams filters GET /v3/events.
type EventListParams struct {
	ListParams
	Type EventType `query:"type"`
}

// WebhookEndpoint is a URL events are delivered to.
type WebhookEndpoint struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// EventTypes are the types sent to it; empty means all.
	EventTypes  []EventType `json:"event_types"`
	Enabled     bool        `json:"enabled"`
	Description *string     `json:"description"`
	// SecretPrefix is the readable start of the signing secret.
	SecretPrefix string    `json:"secret_prefix"`
	Livemode     bool      `json:"livemode"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// WebhookEndpointCreated is an endpoint with its signing secret, shown once: on creation and on
// rotation.
type WebhookEndpointCreated struct {
	WebhookEndpoint
	// Secret verifies the deliveries (whsec_...); only its prefix can be read later.
	Secret string `json:"secret"`
}

// WebhookEndpointCreateParams is the body of POST /v3/webhook-endpoints (WebhookEndpointRequest).
type WebhookEndpointCreateParams struct {
	URL string `json:"url"`
	// EventTypes are the types to send; empty for all.
	EventTypes  []EventType `json:"event_types,omitempty"`
	Description string      `json:"description,omitempty"`
}

// WebhookEndpointUpdateParams is the body of PATCH /v3/webhook-endpoints/{id}: only the fields set
// are changed.
type WebhookEndpointUpdateParams struct {
	URL *string `json:"url,omitempty"`
	// EventTypes replaces the types when not nil; an empty, non-nil slice means all types.
	EventTypes []EventType `json:"event_types,omitempty"`
	Enabled    *bool       `json:"enabled,omitempty"`
	// Description replaces the description when not nil; a pointer to "" removes it.
	Description *string `json:"description,omitempty"`
}

// MarshalJSON writes the fields that are set: a non-nil empty EventTypes as [], an empty
// Description as null (removed).
func (p WebhookEndpointUpdateParams) MarshalJSON() ([]byte, error) {
	body := map[string]interface{}{}
	if p.URL != nil {
		body["url"] = *p.URL
	}
	if p.EventTypes != nil {
		body["event_types"] = p.EventTypes
	}
	if p.Enabled != nil {
		body["enabled"] = *p.Enabled
	}
	if p.Description != nil {
		if *p.Description == "" {
			body["description"] = nil
		} else {
			body["description"] = *p.Description
		}
	}
	return json.Marshal(body)
}

// WebhookAttempt is one try at delivering an event.
type WebhookAttempt struct {
	Attempt     int       `json:"attempt"`
	AttemptedAt time.Time `json:"attempted_at"`
	// StatusCode is the endpoint's answer, nil when none came.
	StatusCode *int    `json:"status_code"`
	DurationMS int     `json:"duration_ms"`
	Error      *string `json:"error"`
}

// WebhookDelivery is an event's delivery to one endpoint, with every attempt.
type WebhookDelivery struct {
	EndpointID    string           `json:"endpoint_id"`
	Status        string           `json:"status"`
	Attempts      int              `json:"attempts"`
	NextAttemptAt *time.Time       `json:"next_attempt_at"`
	DeliveredAt   *time.Time       `json:"delivered_at"`
	AttemptLog    []WebhookAttempt `json:"attempt_log"`
}

// webhookDeliveryList is the answer of the deliveries and redeliver calls.
type webhookDeliveryList struct {
	Data []WebhookDelivery `json:"data"`
}

// JurisdictionRules are the rules sessions in a jurisdiction follow.
type JurisdictionRules struct {
	AutoplayAllowed     bool     `json:"autoplay_allowed"`
	TurboAllowed        bool     `json:"turbo_allowed"`
	BonusBuyAllowed     bool     `json:"bonus_buy_allowed"`
	MinRoundMS          *int     `json:"min_round_ms"`
	ShowNetPosition     bool     `json:"show_net_position"`
	ShowSessionTime     bool     `json:"show_session_time"`
	MaxStake            *Decimal `json:"max_stake"`
	MaxStakeCurrency    *string  `json:"max_stake_currency"`
	RealityCheckMinutes *int     `json:"reality_check_minutes"`
}

// Jurisdiction is a licensing jurisdiction and its rules.
type Jurisdiction struct {
	Code             string            `json:"code"`
	Name             string            `json:"name"`
	Regulator        string            `json:"regulator"`
	KYCRequired      bool              `json:"kyc_required"`
	Countries        []string          `json:"countries"`
	BlockedCountries []string          `json:"blocked_countries"`
	Rules            JurisdictionRules `json:"rules"`
	UpdatedAt        time.Time         `json:"updated_at"`
	// Licensed reports whether the operator holds this licence.
	Licensed bool `json:"licensed"`
}

// LossLimits are a player's loss limits in one currency, per period; nil is no limit.
type LossLimits struct {
	Day   *Decimal `json:"day,omitempty"`
	Week  *Decimal `json:"week,omitempty"`
	Month *Decimal `json:"month,omitempty"`
}

// PlayerRestrictions are a player's responsible-gaming restrictions.
type PlayerRestrictions struct {
	PlayerID                 string                `json:"player_id"`
	SelfExcludedUntil        *time.Time            `json:"self_excluded_until"`
	SelfExcludedIndefinitely bool                  `json:"self_excluded_indefinitely"`
	CoolOffUntil             *time.Time            `json:"cool_off_until"`
	LossLimits               map[string]LossLimits `json:"loss_limits"`
	StakeLimits              map[string]Decimal    `json:"stake_limits"`
	SessionTimeLimitMinutes  *int                  `json:"session_time_limit_minutes"`
	Livemode                 bool                  `json:"livemode"`
	UpdatedAt                *time.Time            `json:"updated_at"`
}

// PlayerRestrictionsParams is the body of PUT /v3/players/{player_id}/restrictions
// (PlayerRestrictionsInput): the whole set, replacing what was set; a field left unset is none.
type PlayerRestrictionsParams struct {
	SelfExcludedUntil        *time.Time            `json:"self_excluded_until,omitempty"`
	SelfExcludedIndefinitely bool                  `json:"self_excluded_indefinitely,omitempty"`
	CoolOffUntil             *time.Time            `json:"cool_off_until,omitempty"`
	LossLimits               map[string]LossLimits `json:"loss_limits,omitempty"`
	StakeLimits              map[string]Decimal    `json:"stake_limits,omitempty"`
	SessionTimeLimitMinutes  *int                  `json:"session_time_limit_minutes,omitempty"`
}

// MarshalJSON writes the times with at most microseconds, as the API's DateTime allows.
func (p PlayerRestrictionsParams) MarshalJSON() ([]byte, error) {
	type plain PlayerRestrictionsParams
	micro := func(t *time.Time) *string {
		if t == nil {
			return nil
		}
		s := t.Format(queryLayout)
		return &s
	}
	return json.Marshal(struct {
		plain
		SelfExcludedUntil *string `json:"self_excluded_until,omitempty"`
		CoolOffUntil      *string `json:"cool_off_until,omitempty"`
	}{plain(p), micro(p.SelfExcludedUntil), micro(p.CoolOffUntil)})
}

// SandboxBehaviour is how a test player's balance answers bets.
type SandboxBehaviour string

// The test player behaviours.
const (
	BehaviourNormal            SandboxBehaviour = "normal"
	BehaviourInsufficientFunds SandboxBehaviour = "insufficient_funds"
	BehaviourFailingWallet     SandboxBehaviour = "failing_wallet"
	BehaviourSlowWallet        SandboxBehaviour = "slow_wallet"
)

// SandboxPlayerParams is the body of POST /v3/sandbox/players (SandboxPlayerRequest).
type SandboxPlayerParams struct {
	PlayerID string  `json:"player_id"`
	Currency string  `json:"currency"`
	Balance  Decimal `json:"balance"`
	// Behaviour is normal when left empty.
	Behaviour SandboxBehaviour `json:"behaviour,omitempty"`
}

// SandboxPlayer is a test player's balance in a currency.
type SandboxPlayer struct {
	PlayerID  string           `json:"player_id"`
	Currency  string           `json:"currency"`
	Balance   Decimal          `json:"balance"`
	Behaviour SandboxBehaviour `json:"behaviour"`
	Livemode  bool             `json:"livemode"`
	CreatedAt time.Time        `json:"created_at"`
}

// SandboxPlayerBalances is a test player as GET /v3/sandbox/players/{player_id} answers: a row per currency.
type SandboxPlayerBalances struct {
	Data []SandboxPlayer `json:"data"`
}

// WalletCheckParams is the body of POST /v3/sandbox/wallet-checks (WalletCheckRequest).
type WalletCheckParams struct {
	PlayerID string `json:"player_id"`
	Currency string `json:"currency"`
}

// WalletCheckScenario is one scenario of the wallet self-check.
type WalletCheckScenario struct {
	Scenario string `json:"scenario"`
	Passed   bool   `json:"passed"`
	Detail   string `json:"detail"`
}

// WalletCheckReport is the outcome of the wallet self-check.
type WalletCheckReport struct {
	Passed    bool                  `json:"passed"`
	Scenarios []WalletCheckScenario `json:"scenarios"`
}

// SandboxReset is what a sandbox reset removed.
type SandboxReset struct {
	Livemode        bool                `json:"livemode"`
	Removed         SandboxResetRemoved `json:"removed"`
	SessionsClosed  int                 `json:"sessions_closed"`
	RoundsCancelled int                 `json:"rounds_cancelled"`
	// FreeRoundCampaignsCancelled counts the test campaigns still running or to come, now cancelled.
	FreeRoundCampaignsCancelled int `json:"free_round_campaigns_cancelled"`
	// FreeRoundGrantsCancelled counts the test grants not finished, now cancelled.
	FreeRoundGrantsCancelled int `json:"free_round_grants_cancelled"`
	// SportsbookBetsDiscarded counts the test sportsbook bets reserved or open, now discarded (moving nothing).
	SportsbookBetsDiscarded int `json:"sportsbook_bets_discarded"`
	// SportsbookBetsClosed counts the test sportsbook bets settled, now closed (moving nothing).
	SportsbookBetsClosed int `json:"sportsbook_bets_closed"`
	// SportsbookFixturesCleared counts the demo fixtures whose outcome was cleared: each settles again.
	SportsbookFixturesCleared int    `json:"sportsbook_fixtures_cleared"`
	WalletMode                string `json:"wallet_mode"`
}

// SandboxResetRemoved counts what a sandbox reset removed, by kind.
type SandboxResetRemoved struct {
	Players          int `json:"players"`
	Restrictions     int `json:"restrictions"`
	WebhookEndpoints int `json:"webhook_endpoints"`
	WalletSettings   int `json:"wallet_settings"`
}

// JWK is a public key launch tokens are verified with: Ed25519 (kty OKP) or P-256 (kty EC, with Y).
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y,omitempty"`
	Kid string `json:"kid"`
	Alg string `json:"alg"`
	Use string `json:"use"`
}

// JWKS is the key set of GET /v3/.well-known/jwks.json.
type JWKS struct {
	Keys []JWK `json:"keys"`
}
