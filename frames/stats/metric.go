package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// ReservoirSize is how many values a Metric keeps for its quantiles and
// rank tests: an unbiased sample of every value it was given (Vitter's
// algorithm R), so memory stays bounded however many calls stream by. Up
// to this many values, quantiles are exact.
const ReservoirSize = 1024

// A Metric summarises a stream of numbers: exact count, mean, standard
// deviation, minimum and maximum (Welford's method), and a seeded random
// sample for the median, MAD, IQR and tail quantiles. The same stream in
// the same order always gives the same summary.
type Metric struct {
	N        int64
	mean, m2 float64
	Min, Max float64
	sample   []float64
	rng      *rand.Rand
	sorted   bool
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
	m.sorted = false
	if len(m.sample) < ReservoirSize {
		m.sample = append(m.sample, x)
		return
	}
	if j := m.rng.Int64N(m.N); j < ReservoirSize {
		m.sample[j] = x
	}
}

// Mean is the exact mean.
func (m *Metric) Mean() float64 { return m.mean }

// SD is the exact sample standard deviation.
func (m *Metric) SD() float64 {
	if m.N < 2 {
		return 0
	}
	return math.Sqrt(m.m2 / float64(m.N-1))
}

// Sample is the kept sample, sorted.
func (m *Metric) Sample() []float64 {
	if !m.sorted {
		slices.Sort(m.sample)
		m.sorted = true
	}
	return m.sample
}

// Quantile is the q-quantile (0..1) of the sample, linearly interpolated.
func (m *Metric) Quantile(q float64) float64 { return quantile(m.Sample(), q) }

func quantile(s []float64, q float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

// Median of the sample.
func (m *Metric) Median() float64 { return m.Quantile(0.5) }

// MAD is the median absolute deviation from the median (unscaled).
func (m *Metric) MAD() float64 {
	s := m.Sample()
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

// Summary is a Metric as reports show it.
type Summary struct {
	N      int64   `json:"n"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	MAD    float64 `json:"mad"`
	Q1     float64 `json:"q1"`
	Q3     float64 `json:"q3"`
	P95    float64 `json:"p95"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
}

// Summary returns the metric's figures (zero when it holds no value).
func (m *Metric) Summary() Summary {
	if m == nil || m.N == 0 {
		return Summary{}
	}
	return Summary{N: m.N, Mean: m.mean, SD: m.SD(), Min: m.Min, Median: m.Median(), MAD: m.MAD(),
		Q1: m.Quantile(0.25), Q3: m.Quantile(0.75), P95: m.Quantile(0.95), P99: m.Quantile(0.99), Max: m.Max}
}
