package cgs

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// Decimal is an amount of money as the API writes it: a decimal string, never a binary float, which
// cannot hold most decimal fractions exactly. Valid holds it to the whole digits and decimal places
// the API allows (DecimalScale after the point).
//
// The zero value "" is no amount (an optional field left out). Arithmetic and comparison work on
// exact ten-thousandths.
type Decimal string

// DecimalScale is the number of decimal places the API keeps.
const DecimalScale = 4

var decimalPattern = regexp.MustCompile(`^-?[0-9]{1,16}(\.[0-9]{1,4})?$`)

// ErrInvalidDecimal is returned for a string that is not a decimal amount the API accepts.
var ErrInvalidDecimal = errors.New("cgs: invalid decimal amount")

var tenThousand = big.NewInt(10000)

// ParseDecimal checks s and returns it in the canonical form the API answers with: no leading zeros
// and exactly DecimalScale decimal places.
func ParseDecimal(s string) (Decimal, error) {
	return Decimal(s).Canonical()
}

// MustParseDecimal is ParseDecimal for constants written in code; it panics on an invalid amount.
func MustParseDecimal(s string) Decimal {
	d, err := ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

// DecimalFromUnits is the amount of units in the smallest step (ten-thousandths), in canonical form.
func DecimalFromUnits(units *big.Int) Decimal {
	abs := new(big.Int).Abs(units)
	whole, fraction := new(big.Int).QuoRem(abs, tenThousand, new(big.Int))
	sign := ""
	if units.Sign() < 0 {
		sign = "-"
	}
	return Decimal(fmt.Sprintf("%s%s.%04d", sign, whole.String(), fraction.Int64()))
}

// Valid reports whether d is a decimal amount the API accepts: an optional minus, whole digits, and
// optionally a point and up to DecimalScale decimals.
func (d Decimal) Valid() bool {
	return decimalPattern.MatchString(string(d))
}

// Units is d as an exact count of ten-thousandths.
func (d Decimal) Units() (*big.Int, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("%w: %q", ErrInvalidDecimal, string(d))
	}
	s := string(d)
	negative := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, fraction, _ := strings.Cut(s, ".")
	fraction += strings.Repeat("0", DecimalScale-len(fraction))
	units, _ := new(big.Int).SetString(whole+fraction, 10)
	if negative {
		units.Neg(units)
	}
	return units, nil
}

// Canonical is d with no leading zeros and exactly DecimalScale decimal places, the form the API
// answers with.
func (d Decimal) Canonical() (Decimal, error) {
	units, err := d.Units()
	if err != nil {
		return "", err
	}
	return DecimalFromUnits(units), nil
}

// Cmp compares d and e by value, as big.Int.Cmp does: trailing zeros do not count.
func (d Decimal) Cmp(e Decimal) (int, error) {
	a, err := d.Units()
	if err != nil {
		return 0, err
	}
	b, err := e.Units()
	if err != nil {
		return 0, err
	}
	return a.Cmp(b), nil
}

// Equal reports whether d and e are valid and the same amount.
func (d Decimal) Equal(e Decimal) bool {
	c, err := d.Cmp(e)
	return err == nil && c == 0
}

// IsNegative reports whether d is valid and below zero.
func (d Decimal) IsNegative() bool {
	units, err := d.Units()
	return err == nil && units.Sign() < 0
}

// Add is d + e, exactly; an error if either is invalid or the sum is out of the API's range.
func (d Decimal) Add(e Decimal) (Decimal, error) {
	return d.combine(e, (*big.Int).Add)
}

// Sub is d - e, exactly; an error if either is invalid or the difference is out of the API's range.
func (d Decimal) Sub(e Decimal) (Decimal, error) {
	return d.combine(e, (*big.Int).Sub)
}

func (d Decimal) combine(e Decimal, op func(z, x, y *big.Int) *big.Int) (Decimal, error) {
	a, err := d.Units()
	if err != nil {
		return "", err
	}
	b, err := e.Units()
	if err != nil {
		return "", err
	}
	result := DecimalFromUnits(op(new(big.Int), a, b))
	if !result.Valid() {
		return "", fmt.Errorf("%w: %s is out of range", ErrInvalidDecimal, result)
	}
	return result, nil
}

// String is d as written.
func (d Decimal) String() string { return string(d) }

// MarshalJSON writes d as a JSON string, refusing an amount the API would not accept.
func (d Decimal) MarshalJSON() ([]byte, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("%w: %q", ErrInvalidDecimal, string(d))
	}
	return json.Marshal(string(d))
}

// UnmarshalJSON reads a JSON string holding a decimal amount. A JSON number is refused: the API
// never sends one, and reading it would go through a float.
func (d *Decimal) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: money is a JSON string, not %s", ErrInvalidDecimal, data)
	}
	if !Decimal(s).Valid() {
		return fmt.Errorf("%w: %q", ErrInvalidDecimal, s)
	}
	*d = Decimal(s)
	return nil
}
