// Command floor is the raw floor of the speed comparison in .ci/bench: the
// least a Go client can do to list a stdio server's tools (spawn, initialize,
// tools/list, exit), with no capture. Like PEERS.md's floor it waits for the
// server to exit, using the SDK's CommandTransport.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "floor", Version: "0"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(os.Args[1], os.Args[2:]...)}, nil)
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
