# The TypeScript SDK, for its example server behind OAuth
# (examples/server/simpleStreamableHttp.js --oauth, with the SDK's own demo
# authorization server): a third-party OAuth-protected MCP server jig logs
# in to in its tests (issue 14).
set -euo pipefail
source "$(dirname "$0")/00-lib.sh"
npm_pin tssdk @modelcontextprotocol/sdk 1.32.2
echo "peers: @modelcontextprotocol/sdk 1.32.2 (its OAuth example server)"
