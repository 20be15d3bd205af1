# Sourced by the other fragments: helpers to install pinned npm packages and
# Go-built binaries into $PEERS idempotently.

# npm_pin DIR PACKAGE VERSION: install PACKAGE@VERSION into $PEERS/DIR unless
# that exact version is already there.
npm_pin() {
  local dir=$1 pkg=$2 version=$3
  local manifest="$PEERS/$dir/node_modules/$pkg/package.json"
  if [ -f "$manifest" ] && grep -q "\"version\": \"$version\"" "$manifest"; then return; fi
  mkdir -p "$PEERS/$dir"
  (cd "$PEERS/$dir" && { [ -f package.json ] || npm init -y >/dev/null; } \
    && npm install --no-audit --no-fund --loglevel=error "$pkg@$version" >/dev/null)
}
