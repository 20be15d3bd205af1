package stats

import (
	"math"
	"slices"
)

// A sketch holds a stream of numbers in logarithmic buckets (the scheme
// of DDSketch): bucket k of the positive values holds (γ^(k-1), γ^k], with
// γ = (1+α)/(1−α), and stands for 2γ^k/(γ+1), which is within α (the
// RelativeError) of every value in it; negative values mirror it, and
// values within 1e-12 of zero are counted as zero. Which bucket a value
// goes in depends on the value alone, so the same values give the same
// sketch in any order.
type sketch struct {
	pos, neg store
	zero     int64
	n        int64
	min, max float64 // a bucket's value is held within them
}

var (
	sketchGamma   = (1 + RelativeError) / (1 - RelativeError)
	sketchLnGamma = math.Log(sketchGamma)
)

// zeroBelow is the magnitude under which a value counts as zero.
const zeroBelow = 1e-12

func newSketch() *sketch { return &sketch{min: math.Inf(1), max: math.Inf(-1)} }

func (s *sketch) add(x float64) {
	s.n++
	s.min, s.max = min(s.min, x), max(s.max, x)
	switch {
	case math.Abs(x) < zeroBelow:
		s.zero++
	case x > 0:
		s.pos.add(bucketOf(x))
	default:
		s.neg.add(bucketOf(-x))
	}
}

func bucketOf(x float64) int { return int(math.Ceil(math.Log(x) / sketchLnGamma)) }

func bucketValue(k int) float64 { return 2 * math.Exp(float64(k)*sketchLnGamma) / (sketchGamma + 1) }

// at is the value of rank r (0-based) in ascending order.
func (s *sketch) at(r int64) float64 {
	if r < s.neg.n {
		// the negatives ascend from the largest magnitude down
		return s.clamp(-s.neg.atFromTop(r))
	}
	r -= s.neg.n
	if r < s.zero {
		return 0
	}
	return s.clamp(s.pos.at(r - s.zero))
}

// clamp holds a bucket's value within the values seen (all equal: that
// value).
func (s *sketch) clamp(x float64) float64 { return min(max(x, s.min), s.max) }

// quantile interpolates between the two ranks around q·(n−1), as the
// exact quantile does.
func (s *sketch) quantile(q float64) float64 {
	if s.n == 0 {
		return math.NaN()
	}
	pos := q * float64(s.n-1)
	lo := int64(math.Floor(pos))
	hi := min(lo+1, s.n-1)
	a, b := s.at(lo), s.at(hi)
	return a + (b-a)*(pos-float64(lo))
}

// mad is the median of the buckets' distances from med, each bucket
// weighted by its count.
func (s *sketch) mad(med float64) float64 {
	type dev struct {
		d float64
		n int64
	}
	devs := make([]dev, 0, len(s.pos.counts)+len(s.neg.counts)+1)
	each := func(st *store, sign float64) {
		for i, c := range st.counts {
			if c > 0 {
				devs = append(devs, dev{math.Abs(s.clamp(sign*bucketValue(st.lo+i)) - med), c})
			}
		}
	}
	each(&s.pos, 1)
	each(&s.neg, -1)
	if s.zero > 0 {
		devs = append(devs, dev{math.Abs(med), s.zero})
	}
	slices.SortFunc(devs, func(a, b dev) int {
		switch {
		case a.d < b.d:
			return -1
		case a.d > b.d:
			return 1
		}
		return 0
	})
	rank := func(r int64) float64 {
		for _, d := range devs {
			if r < d.n {
				return d.d
			}
			r -= d.n
		}
		return devs[len(devs)-1].d
	}
	pos := 0.5 * float64(s.n-1)
	lo := int64(math.Floor(pos))
	a, b := rank(lo), rank(min(lo+1, s.n-1))
	return a + (b-a)*(pos-float64(lo))
}

// maxBuckets bounds a store: past it the smallest magnitudes are folded
// into the lowest bucket kept (a span of γ^4096, about 18 decades, before
// that happens).
const maxBuckets = 4096

// A store counts values per bucket, densely from bucket lo.
type store struct {
	lo     int
	counts []int64
	n      int64
}

func (st *store) add(k int) {
	st.n++
	if len(st.counts) == 0 {
		st.lo, st.counts = k, append(st.counts, 1)
		return
	}
	hi := st.lo + len(st.counts) - 1
	switch {
	case k < st.lo:
		newLo := max(k, hi-maxBuckets+1)
		if newLo < st.lo {
			st.counts = append(make([]int64, st.lo-newLo, st.lo-newLo+len(st.counts)), st.counts...)
			st.lo = newLo
		}
		st.counts[max(k, st.lo)-st.lo]++
	case k > hi:
		st.counts = append(st.counts, make([]int64, k-hi)...)
		if over := len(st.counts) - maxBuckets; over > 0 {
			var folded int64
			for _, c := range st.counts[:over+1] {
				folded += c
			}
			st.counts = st.counts[over:]
			st.counts[0] = folded
			st.lo += over
		}
		st.counts[k-st.lo]++
	default:
		st.counts[k-st.lo]++
	}
}

// at is the value of rank r counting up from the smallest bucket.
func (st *store) at(r int64) float64 {
	for i, c := range st.counts {
		if r < c {
			return bucketValue(st.lo + i)
		}
		r -= c
	}
	return bucketValue(st.lo + len(st.counts) - 1)
}

// atFromTop is the value of rank r counting down from the largest bucket.
func (st *store) atFromTop(r int64) float64 {
	for i := len(st.counts) - 1; i >= 0; i-- {
		if c := st.counts[i]; r < c {
			return bucketValue(st.lo + i)
		}
		r -= st.counts[i]
	}
	return bucketValue(st.lo)
}
