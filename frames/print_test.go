package frames

import (
	"testing"
	"time"
)

// HumanDuration keeps three significant digits of a latency: 1.7315s was
// printed with the clock's last digits.
func TestHumanDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1731500 * time.Microsecond: "1.73s",
		173456 * time.Microsecond:  "173ms",
		17345 * time.Microsecond:   "17.3ms",
		1734 * time.Microsecond:    "1.73ms",
		173456 * time.Nanosecond:   "173µs",
		999 * time.Nanosecond:      "999ns",
		12345 * time.Millisecond:   "12.3s",
		100400 * time.Millisecond:  "1m40s",
		9996 * time.Microsecond:    "10ms",
		0:                          "0s",
		-1734 * time.Microsecond:   "-1.73ms",
	} {
		if got := HumanDuration(d); got != want {
			t.Errorf("HumanDuration(%d) = %q, want %q", d, got, want)
		}
	}
}
