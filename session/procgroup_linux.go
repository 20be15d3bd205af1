package session

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// liveInGroup counts the processes of process group pgid that have not
// exited. Zombies do not count: an orphan's zombie waits for init to reap
// it, and some inits (containers, microVMs) never do. kill(-pgid, 0) would
// see them, so /proc is read instead.
//
// kill(-pgid, 0) is asked first: when the group has no process at all, not
// even a zombie (the usual end: the server exited and jig reaped it), there
// is nothing to count, and reading every /proc/PID/stat on the machine cost
// ~0.5 ms of each run.
func liveInGroup(pgid int) int {
	if syscall.Kill(-pgid, 0) == syscall.ESRCH {
		return 0
	}
	d, err := os.Open("/proc")
	if err != nil {
		return killProbe(pgid)
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	n := 0
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue // it exited while we looked
		}
		// pid (comm) state ppid pgrp ...; comm may hold anything, so cut at the last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || i+2 >= len(b) {
			continue
		}
		f := bytes.Fields(b[i+2:])
		if len(f) < 3 || f[0][0] == 'Z' || f[0][0] == 'X' {
			continue
		}
		if g, err := strconv.Atoi(string(f[2])); err == nil && g == pgid {
			n++
		}
	}
	return n
}
