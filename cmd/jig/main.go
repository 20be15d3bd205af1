package main

import (
	"context"
	"os"
)

func main() {
	ctx, cancel, stop := withSignals(context.Background())
	code := run(ctx, os.Args[1:], os.Stdin, guardPipe(os.Stdout, cancel), guardPipe(os.Stderr, cancel))
	stop()
	os.Exit(code)
}
