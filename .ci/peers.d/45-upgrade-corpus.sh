# The real-upgrade corpus of the fixture tests (session/replay's corpus
# test): third-party servers at an older release and the current one, so
# fixtures pinned against the older release are replayed against both.
#   server-memory 2025.4.25 → 2026.8.31 (stateful: a knowledge graph in a file)
#   server-sequential-thinking 2025.7.1 → 2026.8.31 (stateful: thought history)
#   server-filesystem 2025.7.1 → 2026.8.31 (substring search → glob, new tools)
#   server-everything 2025.11.25 → 2026.8.31 (installed by 10-server-everything.sh)
#   mcp-go's everything example v0.43.0 → v1.2.1 (Go module proxy)
set -euo pipefail
source "$(dirname "$0")/00-lib.sh"
npm_pin corpus/memory-2025.4.25 @modelcontextprotocol/server-memory 2025.4.25
npm_pin corpus/memory-2026.8.31 @modelcontextprotocol/server-memory 2026.8.31
npm_pin corpus/thinking-2025.7.1 @modelcontextprotocol/server-sequential-thinking 2025.7.1
npm_pin corpus/thinking-2026.8.31 @modelcontextprotocol/server-sequential-thinking 2026.8.31
npm_pin corpus/filesystem-2025.7.1 @modelcontextprotocol/server-filesystem 2025.7.1
npm_pin corpus/filesystem-2026.8.31 @modelcontextprotocol/server-filesystem 2026.8.31
for v in v0.43.0 v1.2.1; do
  bin="$PEERS/bin/mcpgo-everything-$v"
  if [ ! -x "$bin" ]; then
    tmp=$(mktemp -d)
    (cd "$tmp" && GOBIN="$tmp" GOFLAGS=-mod=mod go install "github.com/mark3labs/mcp-go/examples/everything@$v")
    mv "$tmp/everything" "$bin"
    rm -rf "$tmp"
  fi
done
echo "peers: upgrade corpus (server-memory, server-sequential-thinking, server-filesystem, mcp-go everything v0.43.0 and v1.2.1)"
