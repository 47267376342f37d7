package cgs_test

// Examples (compiled, not run: they need a server) of what README.md shows.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"

	cgs "github.com/casino-gaming/cgs-go/v2"
	"github.com/casino-gaming/cgs-go/v2/seamless"
	"github.com/casino-gaming/cgs-go/v2/webhook"
)

func ExampleSessionsService_Create() {
	ctx := context.Background()
	client := cgs.NewClient(os.Getenv("CGS_API_KEY"), cgs.WithBaseURL("https://your-project-ref.supabase.co/functions/v1"))
	session, err := client.Sessions.Create(ctx, &cgs.SessionCreateParams{
		PlayerID: "player-1", GameID: "pragmatic-play:vs20olympgate", Currency: "EUR",
	})
	var apiErr *cgs.Error
	switch {
	case errors.As(err, &apiErr):
		for _, f := range apiErr.Errors {
			log.Printf("%s: %s (%s)", f.Pointer, f.Detail, f.Code)
		}
	case err != nil:
		log.Print(err)
	default:
		fmt.Println(session.LaunchURL)
	}
}

func ExampleIter() {
	ctx := context.Background()
	client := cgs.NewClient(os.Getenv("CGS_API_KEY"))
	it := client.Games.List(&cgs.GameListParams{Category: cgs.CategorySlots})
	for it.Next(ctx) {
		fmt.Println(it.Current().GameID)
	}
	if err := it.Err(); err != nil {
		log.Print(err)
	}
}

func ExampleDecimal() {
	total, err := cgs.Decimal("0.1").Add("0.2")
	fmt.Println(total, err)
	// Output: 0.3000 <nil>
}

func Example_webhook() {
	http.HandleFunc("/cgs/hooks", func(w http.ResponseWriter, r *http.Request) {
		payload, _ := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		event, err := webhook.Verify(payload, r.Header, os.Getenv("CGS_WEBHOOK_SECRET"))
		if err != nil {
			http.Error(w, "invalid signature", http.StatusBadRequest)
			return
		}
		log.Printf("%s %s", event.ID, event.Type)
		w.WriteHeader(http.StatusNoContent)
	})
}

func Example_seamless() {
	balance := cgs.MustParseDecimal("100")
	http.Handle("/cgs/wallet", seamless.Handler(seamless.NewVerifier(os.Getenv("CGS_WALLET_SECRET")),
		func(ctx context.Context, call *seamless.Call) seamless.Reply {
			if call.Action == seamless.ActionDebit {
				after, err := balance.Sub(call.Amount)
				if err != nil || after.IsNegative() {
					return seamless.Refuse(seamless.CodeInsufficientFunds, balance)
				}
				balance = after
			}
			return seamless.Accept(balance)
		}))
}
