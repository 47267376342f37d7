package cgs_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	cgs "github.com/casino-gaming/cgs-go/v2"
)

// currencyPages serves count currencies, limit per page, the cursor being the next index; the
// page at failAt (when >0) answers 500 and the cursor stuckAt (when set) is answered again.
type currencyPages struct {
	count    int
	failAt   int
	stuckAt  string
	mu       sync.Mutex
	requests []string
}

func (p *currencyPages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.requests = append(p.requests, r.URL.RawQuery)
	n := len(p.requests)
	p.mu.Unlock()
	if p.failAt > 0 && n == p.failAt {
		problem(500, "internal_error", false)(w, r)
		return
	}
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	start, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
	page := cgs.Page[cgs.Currency]{Data: []cgs.Currency{}}
	for i := start; i < start+limit && i < p.count; i++ {
		page.Data = append(page.Data, cgs.Currency{Code: fmt.Sprintf("C%02d", i), Name: "n", Symbol: "s"})
	}
	if start+limit < p.count {
		next := strconv.Itoa(start + limit)
		if p.stuckAt != "" && r.URL.Query().Get("cursor") == p.stuckAt {
			next = p.stuckAt
		}
		page.NextCursor, page.HasMore = &next, true
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(page)
}

func TestIterFollowsCursors(t *testing.T) {
	pages := &currencyPages{count: 7}
	server := httptest.NewServer(pages)
	defer server.Close()
	client := cgs.NewClient("k", cgs.WithBaseURL(server.URL))
	it := client.Currencies.List(&cgs.ListParams{Limit: 3})
	var codes []string
	for it.Next(context.Background()) {
		codes = append(codes, it.Current().Code)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(codes) != "[C00 C01 C02 C03 C04 C05 C06]" || it.Pages() != 3 {
		t.Errorf("codes %v in %d pages", codes, it.Pages())
	}
	if fmt.Sprint(pages.requests) != "[limit=3 cursor=3&limit=3 cursor=6&limit=3]" {
		t.Errorf("requests %v", pages.requests)
	}
	// Once done, it stays done without asking again.
	if it.Next(context.Background()) || len(pages.requests) != 3 {
		t.Error("Next after the end")
	}
}

func TestIterStartsAtTheGivenCursor(t *testing.T) {
	server := httptest.NewServer(&currencyPages{count: 5})
	defer server.Close()
	cursor := "3"
	all, err := cgs.NewClient("k", cgs.WithBaseURL(server.URL)).Currencies.List(&cgs.ListParams{Limit: 2, Cursor: &cursor}).All(context.Background())
	if err != nil || len(all) != 2 || all[0].Code != "C03" {
		t.Errorf("%v, %v", all, err)
	}
}

func TestIterStopsOnAnError(t *testing.T) {
	server := httptest.NewServer(&currencyPages{count: 9, failAt: 2})
	defer server.Close()
	it := cgs.NewClient("k", cgs.WithBaseURL(server.URL)).Currencies.List(&cgs.ListParams{Limit: 3})
	n := 0
	for it.Next(context.Background()) {
		n++
	}
	if n != 3 || !cgs.HasCode(it.Err(), cgs.CodeInternalError) {
		t.Errorf("%d items, error %v", n, it.Err())
	}
}

func TestIterRefusesARepeatedCursor(t *testing.T) {
	server := httptest.NewServer(&currencyPages{count: 9, stuckAt: "3"})
	defer server.Close()
	all, err := cgs.NewClient("k", cgs.WithBaseURL(server.URL)).Currencies.List(&cgs.ListParams{Limit: 3}).All(context.Background())
	if !errors.Is(err, cgs.ErrCursorRepeated) || len(all) != 6 {
		t.Errorf("%d items, %v", len(all), err)
	}
}

func TestIterSkipsEmptyPagesThatHaveMore(t *testing.T) {
	answers := []string{
		`{"data":[],"next_cursor":"a","has_more":true}`,
		`{"data":[{"code":"EUR","name":"Euro","symbol":"€"}],"next_cursor":null,"has_more":false}`,
	}
	n := 0
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(answers[n]))
		n++
	}))
	defer server.Close()
	all, err := cgs.NewClient("k", cgs.WithBaseURL(server.URL)).Currencies.List(nil).All(context.Background())
	if err != nil || len(all) != 1 || all[0].Code != "EUR" {
		t.Errorf("%v, %v", all, err)
	}
}

func TestQueryEncoding(t *testing.T) {
	since := time.Date(2026, 11, 1, 12, 0, 0, 123456789, time.FixedZone("", 3600))
	q := cgs.EncodeQuery(&cgs.GameListParams{ListParams: cgs.ListParams{Limit: 20}, Provider: "pragmatic-play", UpdatedSince: &since})
	// At most microseconds: the API's DateTime allows no more.
	if q.Encode() != "limit=20&provider=pragmatic-play&updated_since=2026-11-01T12%3A00%3A00.123456%2B01%3A00" {
		t.Errorf("%s", q.Encode())
	}
	if len(cgs.EncodeQuery((*cgs.GameListParams)(nil))) != 0 || len(cgs.EncodeQuery(&cgs.GameListParams{})) != 0 {
		t.Error("unset parameters are not sent")
	}
}

// A page's NextCursor goes back as ListParams.Cursor as it is: the two fields have one type, which
// this assignment holds at compile time; the last page's null is a nil cursor.
var _ = cgs.ListParams{Cursor: cgs.Page[cgs.Game]{}.NextCursor}

func TestListPageByHandPassesNextCursorBack(t *testing.T) {
	server := httptest.NewServer(&currencyPages{count: 5})
	defer server.Close()
	client := cgs.NewClient("k", cgs.WithBaseURL(server.URL))
	params := &cgs.ListParams{Limit: 2}
	var codes []string
	for pages := 0; pages < 10; pages++ {
		page, err := client.Currencies.ListPage(context.Background(), params)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page.Data {
			codes = append(codes, c.Code)
		}
		if !page.HasMore {
			break
		}
		params.Cursor = page.NextCursor
	}
	if fmt.Sprint(codes) != "[C00 C01 C02 C03 C04]" {
		t.Errorf("pages gave %v", codes)
	}
	var last cgs.Page[cgs.Currency]
	if err := json.Unmarshal([]byte(`{"data":[],"next_cursor":null,"has_more":false}`), &last); err != nil || last.NextCursor != nil {
		t.Errorf("null next_cursor: %v, %v", last.NextCursor, err)
	}
}
