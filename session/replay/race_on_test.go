//go:build race

package replay

// raceEnabled says the test binary was built with -race.
const raceEnabled = true
