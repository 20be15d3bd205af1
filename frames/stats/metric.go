package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// ReservoirSize is how many values a Metric keeps for its rank tests and
// tail shares: an unbiased sample of every value it was given (Vitter's
// algorithm R), so a test costs the same however many calls stream by.
const ReservoirSize = 1024

// ExactLimit is how many values a Metric keeps whole: up to it, its
// median, MAD, IQR and tail quantiles are exact. Past it the values go
// into a log-bucketed sketch (see RelativeError) and are let go, so memory
// stays bounded (at most 64 KB of values, then at most 2 × 32 KB of
// buckets, per metric).
const ExactLimit = 8192

// RelativeError bounds the quantiles of a Metric past ExactLimit: each is
// within this fraction of the exact quantile's value (values within 1e-12
// of zero count as zero). The MAD is then within RelativeError × (MAD +
// 2·|median|). The sketch's buckets depend only on the values, not on
// their order, so the same calls give the same figures wherever they are
// counted (a tool and its only shape).
const RelativeError = 0.005

// A Metric summarises a stream of numbers: exact count, mean, standard
// deviation, minimum and maximum (Welford's method); every value up to
// ExactLimit, a sketch past it, for the median, MAD, IQR and tail
// quantiles; and a seeded random sample for rank tests. The same stream in
// the same order always gives the same summary.
type Metric struct {
	N        int64
	mean, m2 float64
	Min, Max float64
	values   []float64 // every value, while N <= ExactLimit
	sketch   *sketch   // past ExactLimit
	sample   []float64
	rng      *rand.Rand
	sorted   bool // values is sorted
	ssorted  bool // sample is sorted
}

func newMetric(seed uint64) *Metric {
	return &Metric{rng: rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909)), Min: math.Inf(1), Max: math.Inf(-1)}
}

// Add takes one value.
func (m *Metric) Add(x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return
	}
	m.N++
	d := x - m.mean
	m.mean += d / float64(m.N)
	m.m2 += d * (x - m.mean)
	m.Min, m.Max = min(m.Min, x), max(m.Max, x)
	m.sorted, m.ssorted = false, false
	switch {
	case m.sketch != nil:
		m.sketch.add(x)
	case len(m.values) < ExactLimit:
		m.values = append(m.values, x)
	default:
		m.sketch = newSketch()
		for _, v := range m.values {
			m.sketch.add(v)
		}
		m.sketch.add(x)
		m.values = nil
	}
	if len(m.sample) < ReservoirSize {
		m.sample = append(m.sample, x)
		return
	}
	if j := m.rng.Int64N(m.N); j < ReservoirSize {
		m.sample[j] = x
	}
}

// Exact reports whether the quantiles are exact (at most ExactLimit
// values); otherwise each is within RelativeError of the exact one.
func (m *Metric) Exact() bool { return m.sketch == nil }

// Mean is the exact mean.
func (m *Metric) Mean() float64 { return m.mean }

// SD is the exact sample standard deviation.
func (m *Metric) SD() float64 {
	if m.N < 2 {
		return 0
	}
	return math.Sqrt(m.m2 / float64(m.N-1))
}

// Sample is the random sample kept for rank tests, sorted: every value
// up to ReservoirSize.
func (m *Metric) Sample() []float64 {
	if !m.ssorted {
		slices.Sort(m.sample)
		m.ssorted = true
	}
	return m.sample
}

func (m *Metric) sortedValues() []float64 {
	if !m.sorted {
		slices.Sort(m.values)
		m.sorted = true
	}
	return m.values
}

// Quantile is the q-quantile (0..1) of every value, linearly interpolated
// between the two nearest ranks: exact up to ExactLimit values, within
// RelativeError past it.
func (m *Metric) Quantile(q float64) float64 {
	if m.sketch != nil {
		return min(max(m.sketch.quantile(q), m.Min), m.Max)
	}
	return quantile(m.sortedValues(), q)
}

func quantile(s []float64, q float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

// Median of every value (see Quantile).
func (m *Metric) Median() float64 { return m.Quantile(0.5) }

// MAD is the median absolute deviation from the median (unscaled): exact
// up to ExactLimit values, within RelativeError × (MAD + 2·|median|) past
// it.
func (m *Metric) MAD() float64 {
	if m.sketch != nil {
		return m.sketch.mad(m.Median())
	}
	s := m.sortedValues()
	if len(s) == 0 {
		return math.NaN()
	}
	med := quantile(s, 0.5)
	dev := make([]float64, len(s))
	for i, x := range s {
		dev[i] = math.Abs(x - med)
	}
	slices.Sort(dev)
	return quantile(dev, 0.5)
}

// IQR is the interquartile range.
func (m *Metric) IQR() float64 { return m.Quantile(0.75) - m.Quantile(0.25) }

// Summary is a Metric as reports show it. Exact says the quantiles (and
// the MAD) are exact; when it is false they are within RelativeError
// (given as relative_error).
type Summary struct {
	N             int64   `json:"n"`
	Mean          float64 `json:"mean"`
	SD            float64 `json:"sd"`
	Min           float64 `json:"min"`
	Median        float64 `json:"median"`
	MAD           float64 `json:"mad"`
	Q1            float64 `json:"q1"`
	Q3            float64 `json:"q3"`
	P95           float64 `json:"p95"`
	P99           float64 `json:"p99"`
	Max           float64 `json:"max"`
	Exact         bool    `json:"exact"`
	RelativeError float64 `json:"relative_error,omitempty"`
}

// Summary returns the metric's figures (zero when it holds no value).
func (m *Metric) Summary() Summary {
	if m == nil || m.N == 0 {
		return Summary{Exact: true}
	}
	s := Summary{N: m.N, Mean: m.mean, SD: m.SD(), Min: m.Min, Median: m.Median(), MAD: m.MAD(),
		Q1: m.Quantile(0.25), Q3: m.Quantile(0.75), P95: m.Quantile(0.95), P99: m.Quantile(0.99), Max: m.Max, Exact: m.Exact()}
	if !s.Exact {
		s.RelativeError = RelativeError
	}
	return s
}
