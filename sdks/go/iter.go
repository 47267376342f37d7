package cgs

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"time"
)

// Page is one page of a list, as the API answers it: the items, and the cursor of the next page.
type Page[T any] struct {
	Data []T `json:"data"`
	// NextCursor is passed back as ListParams.Cursor for the next page; nil on the last page.
	NextCursor *string `json:"next_cursor"`
	HasMore    bool    `json:"has_more"`
}

// ListParams are the paging parameters every list takes.
type ListParams struct {
	// Limit is the page size, within the API's bounds; zero leaves the API's default.
	Limit int `query:"limit"`
	// Cursor starts the list at the page after the one whose NextCursor it is; nil for the start.
	// It has NextCursor's type, so a page's cursor goes back as it is: params.Cursor = page.NextCursor.
	Cursor *string `query:"cursor"`
}

// Iter walks a list item by item, fetching each page when the previous one is used up:
//
//	it := client.Games.List(&cgs.GameListParams{Category: cgs.CategorySlots})
//	for it.Next(ctx) {
//		game := it.Current()
//	}
//	if err := it.Err(); err != nil { ... }
//
// The module's Go version has no range-over-func iterators, hence the Next/Current/Err shape (as
// Stripe's).
type Iter[T any] struct {
	fetch   func(ctx context.Context, cursor string) (*Page[T], error)
	cursor  string
	page    *Page[T]
	items   []T
	current T
	err     error
	last    bool
	pages   int
}

// ErrCursorRepeated is returned by an iterator whose next page's cursor is the one it just used:
// following it would loop for ever.
var ErrCursorRepeated = errors.New("cgs: the API returned the same cursor twice")

func newIter[T any](cursor string, fetch func(ctx context.Context, cursor string) (*Page[T], error)) *Iter[T] {
	return &Iter[T]{fetch: fetch, cursor: cursor}
}

// Next moves to the next item, fetching the next page if needed; false at the end of the list or
// on an error (see Err).
func (it *Iter[T]) Next(ctx context.Context) bool {
	for len(it.items) == 0 {
		if it.last || it.err != nil {
			return false
		}
		page, err := it.fetch(ctx, it.cursor)
		if err != nil {
			it.err = err
			return false
		}
		it.page = page
		it.pages++
		it.items = page.Data
		switch {
		case !page.HasMore || page.NextCursor == nil || *page.NextCursor == "":
			it.last = true
		case *page.NextCursor == it.cursor:
			it.err = fmt.Errorf("%w: %q", ErrCursorRepeated, it.cursor)
			it.last = true
		default:
			it.cursor = *page.NextCursor
		}
	}
	it.current = it.items[0]
	it.items = it.items[1:]
	return true
}

// Current is the item Next moved to.
func (it *Iter[T]) Current() T { return it.current }

// Err is the error that ended the iteration, nil at the end of the list.
func (it *Iter[T]) Err() error { return it.err }

// Page is the page the current item came from (nil before the first Next).
func (it *Iter[T]) Page() *Page[T] { return it.page }

// Pages is how many pages the iterator has fetched.
func (it *Iter[T]) Pages() int { return it.pages }

// All collects every remaining item: convenient for short lists (providers, currencies, wallets).
func (it *Iter[T]) All(ctx context.Context) ([]T, error) {
	var all []T
	for it.Next(ctx) {
		all = append(all, it.Current())
	}
	return all, it.Err()
}

// queryLayout is RFC 3339 with at most microseconds: the API's DateTime allows no more digits.
const queryLayout = "2006-01-02T15:04:05.999999Z07:00"

// encodeQuery turns a params struct's `query`-tagged fields into a query string, leaving out zero
// values (unset), since the API refuses parameters it does not declare and empty ones.
func encodeQuery(params interface{}) url.Values {
	values := url.Values{}
	v := reflect.ValueOf(params)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return values
		}
		v = v.Elem()
	}
	addQueryFields(values, v)
	return values
}

func addQueryFields(values url.Values, v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		field, value := t.Field(i), v.Field(i)
		if field.Anonymous && field.Type.Kind() == reflect.Struct {
			addQueryFields(values, value)
			continue
		}
		name := field.Tag.Get("query")
		if name == "" || name == "-" || value.IsZero() {
			continue
		}
		if value.Kind() == reflect.Pointer {
			value = value.Elem()
		}
		switch x := value.Interface().(type) {
		case time.Time:
			values.Set(name, x.Format(queryLayout))
		default:
			switch value.Kind() {
			case reflect.String:
				values.Set(name, value.String())
			case reflect.Int, reflect.Int64, reflect.Int32:
				values.Set(name, strconv.FormatInt(value.Int(), 10))
			case reflect.Bool:
				values.Set(name, strconv.FormatBool(value.Bool()))
			default:
				panic(fmt.Sprintf("cgs: query field %s has unsupported type %s", field.Name, field.Type))
			}
		}
	}
}
