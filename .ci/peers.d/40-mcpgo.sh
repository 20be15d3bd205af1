# mark3labs/mcp-go's servers and clients (.ci/peers.d/mcpgo), built at two
# releases from the module proxy: v1.2.1 (2026-07-28 era; its SSE server
# sends an absolute endpoint URL) and v0.43.2 (legacy only).
set -euo pipefail
src=$(cd "$(dirname "$0")/mcpgo" && pwd)
build() {
  local version=$1 out=$2
  if [ -x "$PEERS/bin/$out" ] && [ "$(cat "$PEERS/bin/$out.version" 2>/dev/null)" = "$version" ]; then return; fi
  local tmp
  tmp=$(mktemp -d)
  cp "$src/main.go" "$src/go.mod" "$src/go.sum" "$tmp/"
  (cd "$tmp" && go mod edit -require="github.com/mark3labs/mcp-go@$version" \
    && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 \
    && GOFLAGS=-mod=mod go build -o "$PEERS/bin/$out" .)
  echo "$version" > "$PEERS/bin/$out.version"
  rm -rf "$tmp"
}
build v1.2.1 mcpgo-peer
build v0.43.2 mcpgo-peer-0.43
# mcp-go's own conformance example server (Streamable HTTP on
# $CONFORMANCE_ADDR, default 127.0.0.1:3000), as the module proxy serves it.
if [ "$(cat "$PEERS/bin/mcpgo-conformance.version" 2>/dev/null)" != v1.2.1 ]; then
  gobin=$(mktemp -d)
  (cd "$gobin" && GOBIN="$gobin" GOFLAGS=-mod=mod go install github.com/mark3labs/mcp-go/examples/conformance@v1.2.1)
  mv "$gobin/conformance" "$PEERS/bin/mcpgo-conformance"
  echo v1.2.1 > "$PEERS/bin/mcpgo-conformance.version"
  rm -rf "$gobin"
fi
echo "peers: mcp-go v1.2.1 and v0.43.2 (mcpgo-peer), mcp-go v1.2.1 examples/conformance"
