package cgs

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// GgrDimension is what a GGR report groups its cells by. Cells are always of one currency.
type GgrDimension string

// The dimensions.
const (
	GgrByDay      GgrDimension = "day"
	GgrByProvider GgrDimension = "provider"
	GgrByGame     GgrDimension = "game"
	GgrByCurrency GgrDimension = "currency"
	GgrByPlayer   GgrDimension = "player"
)

// GgrReportParams asks GET /v3/reports/ggr for the days From to To (UTC, `2026-11-24`, both
// included, at most 366), grouped by GroupBy, within the filters set.
type GgrReportParams struct {
	From     string
	To       string
	GroupBy  []GgrDimension
	Currency string
	Provider string
	GameID   string
}

// GgrCell is one cell of a GGR report: the keys of its grouping (the others empty), then the figures.
type GgrCell struct {
	Day           string  `json:"day,omitempty"`
	Provider      string  `json:"provider,omitempty"`
	GameID        string  `json:"game_id,omitempty"`
	PlayerID      string  `json:"player_id,omitempty"`
	Currency      string  `json:"currency"`
	Bets          Decimal `json:"bets"`
	Wins          Decimal `json:"wins"`
	FreeRoundWins Decimal `json:"free_round_wins"`
	RolledBack    Decimal `json:"rolled_back"`
	Voided        Decimal `json:"voided"`
	GGR           Decimal `json:"ggr"`
	Rounds        int     `json:"rounds"`
	Players       int     `json:"players"`
	// Sportsbook is the cell's sportsbook figures, apart from the casino's; nil when all are zero.
	Sportsbook *GgrSportsbook `json:"sportsbook"`
}

// GgrSportsbook is a cell's sportsbook bets: each movement in the UTC day it happened (a bet when
// placed, a refund when discarded, a payout's change when a settlement came).
type GgrSportsbook struct {
	Bets     int     `json:"bets"`
	Stakes   Decimal `json:"stakes"`
	Refunded Decimal `json:"refunded"`
	Payouts  Decimal `json:"payouts"`
	GGR      Decimal `json:"ggr"`
}

// GgrReport is the report: its cells and each currency's totals.
type GgrReport struct {
	Object   string         `json:"object"`
	Livemode bool           `json:"livemode"`
	FirstDay string         `json:"first_day"`
	LastDay  string         `json:"last_day"`
	GroupBy  []GgrDimension `json:"group_by"`
	Data     []GgrCell      `json:"data"`
	Totals   []GgrCell      `json:"totals"`
}

// WalletCallState is, in seamless mode, the call to your wallet that carried a transaction.
type WalletCallState struct {
	ID          string     `json:"id"`
	Action      string     `json:"action"`
	Status      string     `json:"status"`
	Attempts    int        `json:"attempts"`
	Balance     *Decimal   `json:"balance"`
	CompletedAt *time.Time `json:"completed_at"`
}

// ReconciliationLine is one round transaction, with what it moved in the round's wallet.
type ReconciliationLine struct {
	ID                   string           `json:"id"`
	CreatedAt            time.Time        `json:"created_at"`
	Provider             string           `json:"provider"`
	TransactionID        string           `json:"transaction_id"`
	Type                 string           `json:"type"`
	RoundID              *string          `json:"round_id"`
	Round                *string          `json:"round"`
	SessionID            *string          `json:"session_id"`
	PlayerID             *string          `json:"player_id"`
	GameID               *string          `json:"game_id"`
	Currency             *string          `json:"currency"`
	Amount               Decimal          `json:"amount"`
	Moved                Decimal          `json:"moved"`
	RelatedTransactionID *string          `json:"related_transaction_id"`
	WalletMode           string           `json:"wallet_mode"`
	LedgerTransactionID  *string          `json:"ledger_transaction_id"`
	Review               *string          `json:"review"`
	WalletCall           *WalletCallState `json:"wallet_call"`
}

// ReconciliationTotal is one currency's totals over a reconciliation's whole range.
type ReconciliationTotal struct {
	Currency     *string `json:"currency"`
	Transactions int     `json:"transactions"`
	Bets         Decimal `json:"bets"`
	Wins         Decimal `json:"wins"`
	Rollbacks    Decimal `json:"rollbacks"`
	Moved        Decimal `json:"moved"`
}

// ReconciliationPage is a page of lines; the first (no cursor) carries the range's totals.
type ReconciliationPage struct {
	Data       []ReconciliationLine  `json:"data"`
	NextCursor *string               `json:"next_cursor"`
	HasMore    bool                  `json:"has_more"`
	Totals     []ReconciliationTotal `json:"totals"`
}

// ReconciliationParams asks for a UTC Date (`2026-11-24`), or From to To (at most 31 days).
type ReconciliationParams struct {
	ListParams
	Date string     `query:"date"`
	From *time.Time `query:"from"`
	To   *time.Time `query:"to"`
}

// StatementLine is a statement's line for one provider and currency.
type StatementLine struct {
	Provider      string  `json:"provider"`
	Currency      string  `json:"currency"`
	Bets          Decimal `json:"bets"`
	Wins          Decimal `json:"wins"`
	FreeRoundWins Decimal `json:"free_round_wins"`
	RolledBack    Decimal `json:"rolled_back"`
	Voided        Decimal `json:"voided"`
	GGR           Decimal `json:"ggr"`
	// AmountDue is nil without a contract (and for test play).
	AmountDue *Decimal `json:"amount_due"`
}

// StatementTotal is one currency's GGR and amount due.
type StatementTotal struct {
	Currency  string   `json:"currency"`
	GGR       Decimal  `json:"ggr"`
	AmountDue *Decimal `json:"amount_due"`
}

// Statement is a month's statement: `open` while it is read live, `issued` once fixed.
type Statement struct {
	Object   string           `json:"object"`
	Month    string           `json:"month"`
	Livemode bool             `json:"livemode"`
	Status   string           `json:"status"`
	FeeRate  *string          `json:"fee_rate"`
	IssuedAt *time.Time       `json:"issued_at"`
	Lines    []StatementLine  `json:"lines"`
	Totals   []StatementTotal `json:"totals"`
}

// ReportsService reads GGR reports, the reconciliation of a day and monthly statements.
type ReportsService struct{ b *backend }

// GGR reads a GGR report.
func (s *ReportsService) GGR(ctx context.Context, params *GgrReportParams) (*GgrReport, error) {
	q := url.Values{}
	if params != nil {
		for name, value := range map[string]string{"from": params.From, "to": params.To, "currency": params.Currency,
			"provider": params.Provider, "game_id": params.GameID} {
			if value != "" {
				q.Set(name, value)
			}
		}
		if len(params.GroupBy) > 0 {
			names := make([]string, len(params.GroupBy))
			for i, d := range params.GroupBy {
				names[i] = string(d)
			}
			q.Set("group_by", strings.Join(names, ","))
		}
	}
	report := &GgrReport{}
	if err := get(s.b, ctx, "/v3/reports/ggr", q, report); err != nil {
		return nil, err
	}
	return report, nil
}

// ReconciliationPage reads one page of the reconciliation; the first carries the totals.
func (s *ReportsService) ReconciliationPage(ctx context.Context, params *ReconciliationParams) (*ReconciliationPage, error) {
	page := &ReconciliationPage{}
	if err := get(s.b, ctx, "/v3/reconciliation/transactions", encodeQuery(params), page); err != nil {
		return nil, err
	}
	return page, nil
}

// Reconciliation iterates over every line of the range, oldest first.
func (s *ReportsService) Reconciliation(params *ReconciliationParams) *Iter[ReconciliationLine] {
	var start string
	if params != nil && params.Cursor != nil {
		start = *params.Cursor
	}
	return newIter(start, func(ctx context.Context, cursor string) (*Page[ReconciliationLine], error) {
		p := ReconciliationParams{}
		if params != nil {
			p = *params
		}
		p.Cursor = nil
		if cursor != "" {
			p.Cursor = &cursor
		}
		page, err := s.ReconciliationPage(ctx, &p)
		if err != nil {
			return nil, err
		}
		return &Page[ReconciliationLine]{Data: page.Data, NextCursor: page.NextCursor, HasMore: page.HasMore}, nil
	})
}

// ReconciliationCSV reads the whole range as one CSV, as a spreadsheet opens it: a UTF-8 byte
// order mark, a header row, a line per round transaction oldest first (RFC 4180 quoting, CRLF; a
// text cell starting with =, +, -, @, tab or carriage return prefixed with ' so a spreadsheet does
// not run it). Params' Limit and Cursor are for pages and are not sent. The answer is read whole,
// within the client's timeout.
func (s *ReportsService) ReconciliationCSV(ctx context.Context, params *ReconciliationParams) ([]byte, error) {
	var only ReconciliationParams
	if params != nil {
		only = *params
	}
	only.ListParams = ListParams{}
	var csv []byte
	r := request{method: http.MethodGet, path: "/v3/reconciliation/transactions", query: encodeQuery(&only), accept: "text/csv",
		replayable: true}
	if err := s.b.call(ctx, r, &csv); err != nil {
		return nil, err
	}
	return csv, nil
}

// Statement reads the statement of a month (`2026-10`).
func (s *ReportsService) Statement(ctx context.Context, month string) (*Statement, error) {
	statement := &Statement{}
	if err := get(s.b, ctx, "/v3/statements/"+segment(month), nil, statement); err != nil {
		return nil, err
	}
	return statement, nil
}
