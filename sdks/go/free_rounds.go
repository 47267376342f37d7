package cgs

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// FreeRoundCampaignStatus is where a campaign stands: the clock decides it, a cancellation apart.
type FreeRoundCampaignStatus string

// The campaign statuses.
const (
	FreeRoundCampaignScheduled FreeRoundCampaignStatus = "scheduled"
	FreeRoundCampaignActive    FreeRoundCampaignStatus = "active"
	FreeRoundCampaignEnded     FreeRoundCampaignStatus = "ended"
	FreeRoundCampaignCancelled FreeRoundCampaignStatus = "cancelled"
)

// FreeRoundGrantStatus is where a player's grant stands; one past its expiry unfinished is expired.
type FreeRoundGrantStatus string

// The grant statuses.
const (
	FreeRoundGrantPending    FreeRoundGrantStatus = "pending"
	FreeRoundGrantInProgress FreeRoundGrantStatus = "in_progress"
	FreeRoundGrantCompleted  FreeRoundGrantStatus = "completed"
	FreeRoundGrantExpired    FreeRoundGrantStatus = "expired"
	FreeRoundGrantCancelled  FreeRoundGrantStatus = "cancelled"
)

// FreeRoundCampaignCreateParams is a campaign to create. ExternalID is yours: the same params
// again answer the campaign, other params under it are a conflict (CodeExternalIDConflict).
type FreeRoundCampaignCreateParams struct {
	ExternalID string   `json:"external_id"`
	Name       string   `json:"name"`
	GameIDs    []string `json:"game_ids"`
	Currency   string   `json:"currency"`
	BetAmount  Decimal  `json:"bet_amount"`
	Rounds     int      `json:"rounds"`
	// ValidFrom is when rounds may start; now when nil.
	ValidFrom  *time.Time `json:"valid_from,omitempty"`
	ValidUntil time.Time  `json:"valid_until"`
	// MaxWin is the most one grant pays; empty for no cap.
	MaxWin    Decimal  `json:"max_win,omitempty"`
	PlayerIDs []string `json:"player_ids,omitempty"`
}

// MarshalJSON writes the times with at most microseconds, as the API's DateTime allows.
func (p FreeRoundCampaignCreateParams) MarshalJSON() ([]byte, error) {
	type plain FreeRoundCampaignCreateParams
	var from *string
	if p.ValidFrom != nil {
		s := p.ValidFrom.Format(queryLayout)
		from = &s
	}
	return json.Marshal(struct {
		plain
		ValidFrom  *string `json:"valid_from,omitempty"`
		ValidUntil string  `json:"valid_until"`
	}{plain(p), from, p.ValidUntil.Format(queryLayout)})
}

// FreeRoundGrantCounts counts a campaign's grants by status.
type FreeRoundGrantCounts struct {
	Pending    int `json:"pending"`
	InProgress int `json:"in_progress"`
	Completed  int `json:"completed"`
	Expired    int `json:"expired"`
	Cancelled  int `json:"cancelled"`
}

// FreeRoundCampaign is a campaign of free rounds, with its grants counted.
type FreeRoundCampaign struct {
	ID           string                  `json:"id"`
	ExternalID   string                  `json:"external_id"`
	Name         string                  `json:"name"`
	GameIDs      []string                `json:"game_ids"`
	Currency     string                  `json:"currency"`
	BetAmount    Decimal                 `json:"bet_amount"`
	Rounds       int                     `json:"rounds"`
	ValidFrom    time.Time               `json:"valid_from"`
	ValidUntil   time.Time               `json:"valid_until"`
	MaxWin       *Decimal                `json:"max_win"`
	Status       FreeRoundCampaignStatus `json:"status"`
	Livemode     bool                    `json:"livemode"`
	Grants       FreeRoundGrantCounts    `json:"grants"`
	RoundsPlayed int                     `json:"rounds_played"`
	TotalPaid    Decimal                 `json:"total_paid"`
	CreatedAt    time.Time               `json:"created_at"`
	CancelledAt  *time.Time              `json:"cancelled_at"`
}

// FreeRoundGrant is a campaign's rounds given to one player.
type FreeRoundGrant struct {
	ID                 string `json:"id"`
	CampaignID         string `json:"campaign_id"`
	CampaignExternalID string `json:"campaign_external_id"`
	PlayerID           string `json:"player_id"`
	// GameID is the game the grant is locked to: nil until its first round.
	GameID      *string              `json:"game_id"`
	Currency    string               `json:"currency"`
	BetAmount   Decimal              `json:"bet_amount"`
	RoundsTotal int                  `json:"rounds_total"`
	RoundsUsed  int                  `json:"rounds_used"`
	RoundsLeft  int                  `json:"rounds_left"`
	TotalWin    Decimal              `json:"total_win"`
	Status      FreeRoundGrantStatus `json:"status"`
	ExpiresAt   time.Time            `json:"expires_at"`
	Livemode    bool                 `json:"livemode"`
	CreatedAt   time.Time            `json:"created_at"`
	UpdatedAt   time.Time            `json:"updated_at"`
}

// FreeRoundPlayersParams are players to grant a campaign to, up to 1,000 a call.
type FreeRoundPlayersParams struct {
	PlayerIDs []string `json:"player_ids"`
}

// FreeRoundPlayersAdded says how many grants a call made, and how many existed.
type FreeRoundPlayersAdded struct {
	CampaignID string `json:"campaign_id"`
	Created    int    `json:"created"`
	Unchanged  int    `json:"unchanged"`
}

// FreeRoundCampaignListParams filters GET /v3/free-rounds/campaigns.
type FreeRoundCampaignListParams struct {
	ListParams
	Status FreeRoundCampaignStatus `query:"status"`
}

// FreeRoundGrantListParams filters GET /v3/free-rounds/grants.
type FreeRoundGrantListParams struct {
	ListParams
	PlayerID   string               `query:"player_id"`
	CampaignID string               `query:"campaign_id"`
	Status     FreeRoundGrantStatus `query:"status"`
}

// FreeRoundsService creates free-round campaigns, grants them to players and reads their grants.
type FreeRoundsService struct{ b *backend }

// CreateCampaign creates a campaign. A repeat of the same params under the same ExternalID answers
// the campaign as it is, so it is retried like a replayable request.
func (s *FreeRoundsService) CreateCampaign(ctx context.Context, params *FreeRoundCampaignCreateParams) (*FreeRoundCampaign, error) {
	campaign := &FreeRoundCampaign{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/free-rounds/campaigns", body: params, replayable: true}, campaign)
	if err != nil {
		return nil, err
	}
	return campaign, nil
}

// ListCampaigns iterates over your campaigns of the key's mode, newest first.
func (s *FreeRoundsService) ListCampaigns(params *FreeRoundCampaignListParams) *Iter[FreeRoundCampaign] {
	var lp *ListParams
	if params != nil {
		lp = &params.ListParams
	}
	return list[FreeRoundCampaign](s.b, "/v3/free-rounds/campaigns", params, cursorOf(lp))
}

// GetCampaign reads one campaign.
func (s *FreeRoundsService) GetCampaign(ctx context.Context, id string) (*FreeRoundCampaign, error) {
	campaign := &FreeRoundCampaign{}
	if err := get(s.b, ctx, "/v3/free-rounds/campaigns/"+segment(id), nil, campaign); err != nil {
		return nil, err
	}
	return campaign, nil
}

// CancelCampaign cancels a campaign: grants not started end cancelled, one in play finishes its
// open round. A repeat answers the cancelled campaign.
func (s *FreeRoundsService) CancelCampaign(ctx context.Context, id string) (*FreeRoundCampaign, error) {
	campaign := &FreeRoundCampaign{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/free-rounds/campaigns/" + segment(id) + "/cancel", replayable: true}, campaign)
	if err != nil {
		return nil, err
	}
	return campaign, nil
}

// AddPlayers grants a campaign to players (up to 1,000 a call); those granted already are left as they are.
func (s *FreeRoundsService) AddPlayers(ctx context.Context, id string, params *FreeRoundPlayersParams) (*FreeRoundPlayersAdded, error) {
	added := &FreeRoundPlayersAdded{}
	err := s.b.call(ctx, request{method: http.MethodPost, path: "/v3/free-rounds/campaigns/" + segment(id) + "/players", body: params,
		replayable: true}, added)
	if err != nil {
		return nil, err
	}
	return added, nil
}

// RemovePlayer cancels one player's grant of a campaign, started or not: it takes no new free bet,
// and a round already in play still settles. A cancelled grant is answered as it is, so a repeat is
// harmless; a grant that is over is CodeCampaignEnded or CodeGrantCompleted (409).
func (s *FreeRoundsService) RemovePlayer(ctx context.Context, id, playerID string) (*FreeRoundGrant, error) {
	grant := &FreeRoundGrant{}
	err := s.b.call(ctx, request{method: http.MethodDelete, path: "/v3/free-rounds/campaigns/" + segment(id) + "/players/" + segment(playerID),
		replayable: true}, grant)
	if err != nil {
		return nil, err
	}
	return grant, nil
}

// ListGrants iterates over your grants of the key's mode, newest first.
func (s *FreeRoundsService) ListGrants(params *FreeRoundGrantListParams) *Iter[FreeRoundGrant] {
	var lp *ListParams
	if params != nil {
		lp = &params.ListParams
	}
	return list[FreeRoundGrant](s.b, "/v3/free-rounds/grants", params, cursorOf(lp))
}

// GetGrant reads one grant.
func (s *FreeRoundsService) GetGrant(ctx context.Context, id string) (*FreeRoundGrant, error) {
	grant := &FreeRoundGrant{}
	if err := get(s.b, ctx, "/v3/free-rounds/grants/"+segment(id), nil, grant); err != nil {
		return nil, err
	}
	return grant, nil
}
