package ui

import (
	"runtime"
	"testing"
)

// BenchmarkFramesPaneMemory100k measures what the frames pane holds per
// frame on top of the Log: it is built, sized, drawn and moved to the middle
// of 100,000 frames, and the heap it keeps is divided by the frames.
func BenchmarkFramesPaneMemory100k(b *testing.B) {
	const n = 100_000
	log := bigLog(n)
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		p := newFramesPane(testEnv(log))
		p.setSize(120, 40)
		p.setFocus(true)
		p.list.sel = n / 2
		p.list.keepVisible(p.count())
		p.syncBody()
		_ = p.view()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/n, "pane-B/frame")
		runtime.KeepAlive(p)
	}
	runtime.KeepAlive(log)
}
