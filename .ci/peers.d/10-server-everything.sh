# server-everything, the TypeScript SDK's reference server, at two releases:
# 2026.8.31 (current) and 2025.11.25 (paginated resources).
set -euo pipefail
source "$(dirname "$0")/00-lib.sh"
npm_pin npm @modelcontextprotocol/server-everything 2026.8.31
npm_pin npm-old @modelcontextprotocol/server-everything 2025.11.25
echo "peers: server-everything 2026.8.31 and 2025.11.25"
