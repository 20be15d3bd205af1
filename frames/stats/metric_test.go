package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// exactQuantile is the q-quantile of xs, sorted in place.
func exactQuantile(xs []float64, q float64) float64 {
	slices.Sort(xs)
	return quantile(xs, q)
}

func exactMAD(xs []float64) float64 {
	med := exactQuantile(xs, 0.5)
	d := make([]float64, len(xs))
	for i, x := range xs {
		d[i] = math.Abs(x - med)
	}
	return exactQuantile(d, 0.5)
}

// skewed is n latencies shaped like real ones (log-normal, a slow tail),
// with some zeros and negatives mixed in when signed.
func skewed(r *rand.Rand, n int, signed bool) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Exp(r.NormFloat64()*0.8 + 5)
		if signed && i%7 == 0 {
			xs[i] = -xs[i]
		}
		if signed && i%11 == 0 {
			xs[i] = 0
		}
	}
	return xs
}

// TestMetricQuantilesExactThenBounded: up to ExactLimit values every
// quantile and the MAD are the exact ones (a reservoir of 1,024 made the
// median of 2,000 calls an estimate that nothing said was one: fresh8 F7);
// past it each quantile is within RelativeError of the exact one and the
// MAD within its stated bound, and Summary says which.
func TestMetricQuantilesExactThenBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct {
		n      int
		signed bool
	}{{2000, false}, {ExactLimit, true}, {ExactLimit + 1, false}, {50_000, true}, {300_000, false}} {
		xs := skewed(r, c.n, c.signed)
		m := newMetric(1)
		for _, x := range xs {
			m.Add(x)
		}
		s := m.Summary()
		exact := c.n <= ExactLimit
		if s.Exact != exact || (s.RelativeError == 0) == !exact && !exact {
			t.Errorf("n %d: exact %v, relative_error %v", c.n, s.Exact, s.RelativeError)
		}
		truth := slices.Clone(xs)
		for _, q := range []float64{0, 0.01, 0.25, 0.5, 0.75, 0.95, 0.99, 1} {
			got, want := m.Quantile(q), exactQuantile(truth, q)
			if exact && got != want || !exact && math.Abs(got-want) > RelativeError*math.Abs(want)+1e-9 {
				t.Errorf("n %d: q%.2f = %v, exact %v (off by %.3g%%)", c.n, q, got, want, 100*math.Abs(got-want)/math.Abs(want))
			}
		}
		mad, med := exactMAD(slices.Clone(xs)), exactQuantile(truth, 0.5)
		if got := m.MAD(); exact && got != mad || !exact && math.Abs(got-mad) > RelativeError*(mad+2*math.Abs(med))+1e-9 {
			t.Errorf("n %d: MAD %v, exact %v", c.n, got, mad)
		}
	}
}

// TestMetricSameValuesSameFigures: the same values in another order (a
// tool's calls and its only shape's, or two workers' orders) give the same
// quantiles, exact or not: the tool's p50 and its only shape's differed
// for the same 2,000 calls (two reservoirs, two seeds).
func TestMetricSameValuesSameFigures(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2000, 40_000} {
		xs := skewed(r, n, true)
		a, b := newMetric(1), newMetric(99)
		for _, x := range xs {
			a.Add(x)
		}
		ys := slices.Clone(xs)
		r.Shuffle(len(ys), func(i, j int) { ys[i], ys[j] = ys[j], ys[i] })
		for _, y := range ys {
			b.Add(y)
		}
		sa, sb := a.Summary(), b.Summary()
		sa.Mean, sb.Mean, sa.SD, sb.SD = 0, 0, 0, 0 // summed in another order: the last bits differ
		if sa != sb {
			t.Errorf("n %d: the same values in another order:\n%+v\n%+v", n, sa, sb)
		}
	}
}

// TestSketchStoreIsBounded: values over more decades than the buckets
// span fold the smallest magnitudes into the lowest bucket kept, so the
// store never passes maxBuckets.
func TestSketchStoreIsBounded(t *testing.T) {
	s := newSketch()
	largest := 0.0
	for e := -11.0; e < 300; e += 0.01 {
		largest = math.Pow(10, e)
		s.add(largest)
		s.add(-math.Pow(10, -e/3))
	}
	if len(s.pos.counts) > maxBuckets || len(s.neg.counts) > maxBuckets || s.n != s.pos.n+s.neg.n+s.zero {
		t.Errorf("buckets %d and %d, counts %d = %d + %d + %d", len(s.pos.counts), len(s.neg.counts), s.n, s.pos.n, s.neg.n, s.zero)
	}
	if got, want := s.quantile(1), largest; math.Abs(got-want) > RelativeError*want {
		t.Errorf("the largest value %v, want %v", got, want)
	}
}
