// Command floor is the raw floor of the speed comparison in .ci/bench: the
// least a Go client can do to list a stdio server's tools (spawn, initialize,
// tools/list, exit), with no capture. It waits for the server to exit, using
// the SDK's CommandTransport with the same 200 ms grace jig uses before
// SIGTERM (the SDK's default of 5 s would make a lingering server-everything
// look 5 s slow and the comparison meaningless).
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "floor", Version: "0"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(os.Args[1], os.Args[2:]...), TerminateDuration: 200 * time.Millisecond}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(len(res.Tools), "tools")
	cs.Close()
}
