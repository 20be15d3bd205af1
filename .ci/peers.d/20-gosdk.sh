# The go-sdk example "everything" server, built from the module in go.mod
# (stateless 2026-07-28 era).
set -euo pipefail
go build -o "$PEERS/bin/gosdk-everything" github.com/modelcontextprotocol/go-sdk/examples/server/everything
echo "peers: go-sdk everything $(go list -m -f '{{.Version}}' github.com/modelcontextprotocol/go-sdk)"
