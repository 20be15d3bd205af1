package schema

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// A decimal is a JSON number held exactly: sign × 0.digits × 10^exp, with
// no leading or trailing zeros in digits ("" for zero). JSON numbers of any
// size or precision compare and divide exactly, without floating point and
// without building 10^exp for a number like 1e999999999.
type decimal struct {
	neg    bool
	digits string
	exp    int
}

// parseDecimal reads a JSON number's text. ok is false for text that is not
// one (the decoder never produces such text).
func parseDecimal(s string) (d decimal, ok bool) {
	if s == "" {
		return d, false
	}
	if s[0] == '-' {
		d.neg, s = true, s[1:]
	}
	mant, expPart, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" || !allDigits(intPart) || !allDigits(frac) {
		return decimal{}, false
	}
	e := 0
	if hasExp {
		v, err := strconv.Atoi(expPart)
		if err != nil {
			// Beyond int: the number is 0 or out of any range; clamp, which
			// keeps comparisons right for every number a schema can name.
			if strings.HasPrefix(expPart, "-") {
				v = -1 << 40
			} else {
				v = 1 << 40
			}
		}
		e = v
	}
	all := strings.TrimLeft(intPart+frac, "0")
	lead := len(intPart+frac) - len(all) // zeros dropped in front
	all = strings.TrimRight(all, "0")
	if all == "" {
		return decimal{}, true // zero, whatever its sign
	}
	d.digits = all
	d.exp = len(intPart) - lead + e
	return d, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func numberOf(v any) (decimal, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return decimal{}, false
	}
	return parseDecimal(string(n))
}

func (d decimal) isZero() bool { return d.digits == "" }

// isInteger reports whether d has no fractional part (1.0 and 1e3 do).
func (d decimal) isInteger() bool { return d.isZero() || d.exp >= len(d.digits) }

// cmp compares a and b: -1, 0 or +1.
func (a decimal) cmp(b decimal) int {
	switch {
	case a.isZero() && b.isZero():
		return 0
	case a.isZero():
		if b.neg {
			return 1
		}
		return -1
	case b.isZero():
		if a.neg {
			return -1
		}
		return 1
	case a.neg != b.neg:
		if a.neg {
			return -1
		}
		return 1
	}
	c := a.cmpAbs(b)
	if a.neg {
		return -c
	}
	return c
}

func (a decimal) cmpAbs(b decimal) int {
	if a.exp != b.exp {
		if a.exp < b.exp {
			return -1
		}
		return 1
	}
	// Same magnitude: the digit strings compare as fractions.
	n := max(len(a.digits), len(b.digits))
	for i := range n {
		x, y := byte('0'), byte('0')
		if i < len(a.digits) {
			x = a.digits[i]
		}
		if i < len(b.digits) {
			y = b.digits[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// multipleOf reports whether a / m is an integer; m is positive. With
// a = A × 10^p and m = M × 10^q (A and M integers), write M = 2^i 5^j M'
// with M' coprime to 10: the quotient A × 10^(p-q) / M is an integer when
// M' divides A and A × 10^(p-q) has at least i twos and j fives.
func (a decimal) multipleOf(m decimal) bool {
	if a.isZero() {
		return true
	}
	A, _ := new(big.Int).SetString(a.digits, 10)
	M, _ := new(big.Int).SetString(m.digits, 10)
	p := a.exp - len(a.digits)
	q := m.exp - len(m.digits)
	i, j := strip(M, 2), strip(M, 5)
	if new(big.Int).Rem(A, M).Sign() != 0 {
		return false
	}
	k := p - q
	return count(A, 2)+k >= i && count(A, 5)+k >= j
}

// strip divides f out of n as often as it goes and returns how often.
func strip(n *big.Int, f int64) int {
	c := 0
	bf := big.NewInt(f)
	r := new(big.Int)
	for n.Sign() != 0 {
		q, rem := new(big.Int).QuoRem(n, bf, r)
		if rem.Sign() != 0 {
			break
		}
		n.Set(q)
		c++
	}
	return c
}

// count says how often f divides n, n left as it was.
func count(n *big.Int, f int64) int { return strip(new(big.Int).Set(n), f) }
