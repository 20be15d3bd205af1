# The go-sdk's conformance server (the module in go.mod): stdio by default,
# -http ADDR for stateless Streamable HTTP. Its test_input_required_result_*
# tools answer with 2026-07-28 input_required results (multi round-trip).
set -euo pipefail
go build -o "$PEERS/bin/gosdk-conformance-server" github.com/modelcontextprotocol/go-sdk/conformance/everything-server
echo "peers: go-sdk conformance server $(go list -m -f '{{.Version}}' github.com/modelcontextprotocol/go-sdk)"
