package cgs_test

import (
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	cgs "github.com/casino-gaming/cgs-go/v2"
)

func TestParseDecimal(t *testing.T) {
	valid := map[string]string{
		"0":                     "0.0000",
		"1.5":                   "1.5000",
		"10.5000":               "10.5000",
		"-2.25":                 "-2.2500",
		"007.1":                 "7.1000",
		"9999999999999999.9999": "9999999999999999.9999",
		"-0.0001":               "-0.0001",
	}
	for in, want := range valid {
		got, err := cgs.ParseDecimal(in)
		if err != nil || string(got) != want {
			t.Errorf("ParseDecimal(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1.", ".5", "1.23456", "1e3", "+1", "1,5", " 1", "NaN", "12345678901234567", "0x10", "--1"} {
		if _, err := cgs.ParseDecimal(in); !errors.Is(err, cgs.ErrInvalidDecimal) {
			t.Errorf("ParseDecimal(%q): %v, want ErrInvalidDecimal", in, err)
		}
	}
}

func TestDecimalArithmeticIsExact(t *testing.T) {
	// 0.1 + 0.2 is exactly 0.3, as no binary float makes it.
	sum, err := cgs.Decimal("0.1").Add("0.2")
	if err != nil || sum != "0.3000" {
		t.Fatalf("0.1 + 0.2 = %q, %v", sum, err)
	}
	diff, err := cgs.Decimal("1.0000").Sub("2.5")
	if err != nil || diff != "-1.5000" {
		t.Fatalf("1 - 2.5 = %q, %v", diff, err)
	}
	if _, err := cgs.Decimal("9999999999999999.9999").Add("0.0001"); !errors.Is(err, cgs.ErrInvalidDecimal) {
		t.Errorf("an overflowing sum: %v, want ErrInvalidDecimal", err)
	}
	if _, err := cgs.Decimal("x").Add("1"); !errors.Is(err, cgs.ErrInvalidDecimal) {
		t.Errorf("an invalid operand: %v", err)
	}
	units, _ := cgs.Decimal("-12.34").Units()
	if units.Cmp(big.NewInt(-123400)) != 0 {
		t.Errorf("units of -12.34 = %s", units)
	}
	if got := cgs.DecimalFromUnits(big.NewInt(-5000)); got != "-0.5000" {
		t.Errorf("DecimalFromUnits(-5000) = %q", got)
	}
}

func TestDecimalComparison(t *testing.T) {
	cases := []struct {
		a, b cgs.Decimal
		want int
	}{
		{"1.5", "1.5000", 0}, {"2", "10", -1}, {"10", "9.9999", 1}, {"-1", "0", -1}, {"0", "-0.0000", 0},
	}
	for _, tc := range cases {
		got, err := tc.a.Cmp(tc.b)
		if err != nil || got != tc.want {
			t.Errorf("Cmp(%s, %s) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
		}
	}
	if !cgs.Decimal("1.5").Equal("1.50") || cgs.Decimal("1.5").Equal("x") {
		t.Error("Equal compares valid amounts by value")
	}
	if _, err := cgs.Decimal("1").Cmp("one"); err == nil {
		t.Error("comparing with an invalid amount is an error")
	}
	if !cgs.Decimal("-0.0001").IsNegative() || cgs.Decimal("0").IsNegative() {
		t.Error("IsNegative")
	}
}

func TestDecimalJSON(t *testing.T) {
	var wallet cgs.Wallet
	if err := json.Unmarshal([]byte(`{"balance":"100.2500"}`), &wallet); err != nil || wallet.Balance != "100.2500" {
		t.Fatalf("decoding a decimal string: %q, %v", wallet.Balance, err)
	}
	// A JSON number would pass through a float: refused.
	if err := json.Unmarshal([]byte(`{"balance":100.25}`), &wallet); !errors.Is(err, cgs.ErrInvalidDecimal) {
		t.Errorf("decoding a JSON number: %v, want ErrInvalidDecimal", err)
	}
	if err := json.Unmarshal([]byte(`{"balance":"1.23456"}`), &wallet); !errors.Is(err, cgs.ErrInvalidDecimal) {
		t.Errorf("decoding five decimals: %v", err)
	}
	data, err := json.Marshal(cgs.SandboxPlayerParams{PlayerID: "p", Currency: "EUR", Balance: "12.5"})
	if err != nil || string(data) != `{"player_id":"p","currency":"EUR","balance":"12.5"}` {
		t.Errorf("encoding: %s, %v", data, err)
	}
	if _, err := json.Marshal(cgs.SandboxPlayerParams{Balance: "12,5"}); !errors.Is(err, cgs.ErrInvalidDecimal) {
		t.Errorf("encoding an invalid amount: %v", err)
	}
	// An optional amount left empty is not sent.
	data, _ = json.Marshal(cgs.LossLimits{})
	if string(data) != `{}` {
		t.Errorf("empty loss limits: %s", data)
	}
}

func TestMustParseDecimalPanicsOnInvalid(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	cgs.MustParseDecimal("1.2.3")
}
