# server-everything 2025.5.12, whose streamableHttp shares one server object
# across sessions: a sessionless probe before initialize wedges it (issue 10).
# Node 22 and the conformance suite come from 35-conformance.sh.
set -euo pipefail
source "$(dirname "$0")/00-lib.sh"
npm_pin npm-2025-5 @modelcontextprotocol/server-everything 2025.5.12
echo "peers: server-everything 2025.5.12"
