package cgs

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// CategorySportsbook is a sportsbook provider's product: its bets are read with Client.Sportsbook.
const CategorySportsbook GameCategory = "sportsbook"

// The sportsbook's problem codes (the provider API's sportsbook calls).
const (
	CodeDuplicateBet        ErrorCode = "duplicate_bet"
	CodeUnknownBet          ErrorCode = "unknown_bet"
	CodeNotSportsbook       ErrorCode = "not_sportsbook"
	CodeBetReserved         ErrorCode = "bet_reserved"
	CodeBetNotReserved      ErrorCode = "bet_not_reserved"
	CodeBetDiscarded        ErrorCode = "bet_discarded"
	CodeBetNotSettled       ErrorCode = "bet_not_settled"
	CodeBetClosed           ErrorCode = "bet_closed"
	CodeInvalidSettlement   ErrorCode = "invalid_settlement"
	CodeSettlementCancelled ErrorCode = "settlement_cancelled"
)

// The sportsbook's events: each carries the bet as SportsbookService.Get reads it.
const (
	EventSportsbookBetPlaced       EventType = "sportsbook.bet.placed"
	EventSportsbookBetSettled      EventType = "sportsbook.bet.settled"
	EventSportsbookBetResettled    EventType = "sportsbook.bet.resettled"
	EventSportsbookBetUnsettled    EventType = "sportsbook.bet.unsettled"
	EventSportsbookBetClosed       EventType = "sportsbook.bet.closed"
	EventSportsbookBetDiscarded    EventType = "sportsbook.bet.discarded"
	EventSportsbookClawbackPending EventType = "sportsbook.clawback.pending"
)

// SportsbookBetStatus is where a sportsbook bet stands.
type SportsbookBetStatus string

const (
	SportsbookBetReserved  SportsbookBetStatus = "reserved"
	SportsbookBetOpen      SportsbookBetStatus = "open"
	SportsbookBetSettled   SportsbookBetStatus = "settled"
	SportsbookBetClosed    SportsbookBetStatus = "closed"
	SportsbookBetDiscarded SportsbookBetStatus = "discarded"
)

// SportsbookResult is a settlement's result.
type SportsbookResult string

const (
	SportsbookWon      SportsbookResult = "won"
	SportsbookLost     SportsbookResult = "lost"
	SportsbookVoid     SportsbookResult = "void"
	SportsbookCashout  SportsbookResult = "cashout"
	SportsbookHalfWon  SportsbookResult = "half_won"
	SportsbookHalfLost SportsbookResult = "half_lost"
)

// SportsbookBet is a sportsbook bet with every settlement. Paid is always Payout plus Owed.
type SportsbookBet struct {
	ID              string              `json:"id"`
	BetID           string              `json:"bet_id"`
	Provider        string              `json:"provider"`
	GameID          string              `json:"game_id"`
	SessionID       string              `json:"session_id"`
	PlayerID        string              `json:"player_id"`
	Currency        string              `json:"currency"`
	WalletMode      string              `json:"wallet_mode"`
	Status          SportsbookBetStatus `json:"status"`
	Stake           Decimal             `json:"stake"`
	Odds            string              `json:"odds"`
	PotentialPayout Decimal             `json:"potential_payout"`
	Selections      []json.RawMessage   `json:"selections"`
	Result          *SportsbookResult   `json:"result"`
	Payout          Decimal             `json:"payout"`
	Paid            Decimal             `json:"paid"`
	// Owed is the clawbacks no balance could cover yet, taken from the player's next payouts.
	Owed        Decimal                `json:"owed"`
	Livemode    bool                   `json:"livemode"`
	PlacedAt    time.Time              `json:"placed_at"`
	SettledAt   *time.Time             `json:"settled_at"`
	ClosedAt    *time.Time             `json:"closed_at"`
	Settlements []SportsbookSettlement `json:"settlements"`
}

// SportsbookSettlement is one change of a bet: a settlement, an unsettlement, a recovery (a
// clawback it owed, taken from another bet's payout), a discard, (seamless mode) a
// clawback_refused: a clawback the operator's wallet refused for funds, now owed, or (test mode) a
// sandbox_reset: the bet ended by a sandbox reset, moving nothing, what it owed Forgiven (in
// seamless mode its Moved gives back what the calls the wallet never took had counted, so the
// bet's Paid and Payout are what the wallet took).
type SportsbookSettlement struct {
	Type          string            `json:"type"`
	TransactionID string            `json:"transaction_id"`
	Result        *SportsbookResult `json:"result,omitempty"`
	Payout        *Decimal          `json:"payout,omitempty"`
	Moved         Decimal           `json:"moved"`
	Withheld      *Decimal          `json:"withheld,omitempty"`
	Owed          *Decimal          `json:"owed,omitempty"`
	FromBetID     string            `json:"from_bet_id,omitempty"`
	Forgiven      *Decimal          `json:"forgiven,omitempty"`
	Reason        string            `json:"reason,omitempty"`
	CreatedAt     time.Time         `json:"created_at"`
}

// SportsbookBetListParams filters GET /v3/sportsbook/bets.
type SportsbookBetListParams struct {
	ListParams
	Status   SportsbookBetStatus `query:"status"`
	PlayerID string              `query:"player_id"`
	// SettledAfter lists the bets whose last settlement came after it.
	SettledAfter *time.Time `query:"settled_after"`
}

// SportsbookService reads the sportsbook bets placed in your sessions.
type SportsbookService struct{ b *backend }

// ListBets iterates over your sportsbook bets, newest first.
func (s *SportsbookService) ListBets(params *SportsbookBetListParams) *Iter[SportsbookBet] {
	var lp *ListParams
	if params != nil {
		lp = &params.ListParams
	}
	return list[SportsbookBet](s.b, "/v3/sportsbook/bets", params, cursorOf(lp))
}

// ListBetsPage is one page of your sportsbook bets.
func (s *SportsbookService) ListBetsPage(ctx context.Context, params *SportsbookBetListParams) (*Page[SportsbookBet], error) {
	return listPage[SportsbookBet](s.b, ctx, "/v3/sportsbook/bets", params)
}

// GetBet reads one sportsbook bet (its ID, not the provider's BetID) with every settlement.
func (s *SportsbookService) GetBet(ctx context.Context, id string) (*SportsbookBet, error) {
	bet := &SportsbookBet{}
	if err := get(s.b, ctx, "/v3/sportsbook/bets/"+segment(id), nil, bet); err != nil {
		return nil, err
	}
	return bet, nil
}

// SandboxFixtureOutcome is how a demo sportsbook fixture ended: a leg wins when its pick is the
// outcome (FixtureVoid: every leg on it is void).
type SandboxFixtureOutcome string

const (
	FixtureHome SandboxFixtureOutcome = "home"
	FixtureDraw SandboxFixtureOutcome = "draw"
	FixtureAway SandboxFixtureOutcome = "away"
	FixtureVoid SandboxFixtureOutcome = "void"
)

// The sandbox's fixture problem codes.
const (
	CodeFixtureSettled    ErrorCode = "fixture_settled"
	CodeFixtureNotSettled ErrorCode = "fixture_not_settled"
)

// SandboxFixtureParams is the outcome SettleFixture and ResettleFixture give a fixture.
type SandboxFixtureParams struct {
	Outcome SandboxFixtureOutcome `json:"outcome"`
}

// SandboxFixtureSettled is a demo sportsbook fixture's outcome in your sandbox, and the bets it
// settled or resettled, as the bets API shows them after.
type SandboxFixtureSettled struct {
	FixtureID string                `json:"fixture_id"`
	Outcome   SandboxFixtureOutcome `json:"outcome"`
	Bets      []SportsbookBet       `json:"bets"`
}

func (s *SandboxService) fixture(ctx context.Context, fixtureID, action string, params *SandboxFixtureParams, replayable bool) (*SandboxFixtureSettled, error) {
	settled := &SandboxFixtureSettled{}
	r := request{method: http.MethodPost, path: "/v3/sandbox/sportsbook/fixtures/" + segment(fixtureID) + "/" + action, replayable: replayable}
	if params != nil {
		r.body = params
	}
	if err := s.b.call(ctx, r, settled); err != nil {
		return nil, err
	}
	return settled, nil
}

// SettleFixture gives a demo sportsbook fixture its outcome (test keys only; CodeFixtureSettled if
// it has one): each of your test bets of cgs-sandbox:sportsbook naming it is settled as its legs
// say, through the provider API's engine. Not retried: a second settle is refused.
func (s *SandboxService) SettleFixture(ctx context.Context, fixtureID string, params *SandboxFixtureParams) (*SandboxFixtureSettled, error) {
	return s.fixture(ctx, fixtureID, "settle", params, false)
}

// ResettleFixture changes a settled fixture's outcome (CodeFixtureNotSettled if it has none): its
// bets are resettled, for the player or against them. The same outcome again changes nothing, so
// it is retried like a read.
func (s *SandboxService) ResettleFixture(ctx context.Context, fixtureID string, params *SandboxFixtureParams) (*SandboxFixtureSettled, error) {
	return s.fixture(ctx, fixtureID, "resettle", params, true)
}

// VoidFixture voids a demo sportsbook fixture, settled or not: its legs count as void.
func (s *SandboxService) VoidFixture(ctx context.Context, fixtureID string) (*SandboxFixtureSettled, error) {
	return s.fixture(ctx, fixtureID, "void", nil, true)
}
