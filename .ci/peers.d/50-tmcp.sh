# tmcp (npm), a TypeScript MCP library whose HTTP transport serves the
# 2026-07-28 era and checks its headers strictly (-32020 Header mismatch);
# .ci/peers.d/tmcp/server.mjs is a small server on it.
set -euo pipefail
source "$(dirname "$0")/00-lib.sh"
npm_pin tmcp tmcp 1.20.0
npm_pin tmcp @tmcp/transport-http 0.9.0
npm_pin tmcp @tmcp/adapter-valibot 0.1.6
npm_pin tmcp valibot 1.5.0
cp "$(dirname "$0")/tmcp/server.mjs" "$PEERS/tmcp/server.mjs"
echo "peers: tmcp 1.20.0 (tmcp/server.mjs)"
