# The official MCP Inspector's CLI (@modelcontextprotocol/inspector-cli), a
# third-party client jig mock is tested with (issue 16): it lists and calls
# against a server given as a command or a URL, and prints the result JSON.
set -euo pipefail
source "$(dirname "$0")/00-lib.sh"
npm_pin inspector-cli @modelcontextprotocol/inspector-cli 1.0.3
echo "peers: @modelcontextprotocol/inspector-cli 1.0.3"
