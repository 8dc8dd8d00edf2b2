#!/usr/bin/env bash
# npm run conformance: builds same-game, starts its Streamable HTTP server on a free loopback port over a
# throw-away database, and runs the official MCP conformance suite (server side) against it. The suite
# needs Node 22, fetched by npx alongside the suite. Scenarios that need the suite's own fixture tools,
# resources and prompts are listed, with reasons, in conformance/expected-failures.yaml; the suite exits 0
# when only those fail and 1 on any other failure (or on a listed scenario that starts passing).
# Extra arguments go to the suite, e.g. `npm run conformance -- --scenario server-initialize`.
# Not part of CI: it downloads the suite and a Node 22 from the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE_VERSION="${CONFORMANCE_VERSION:-0.2.0-alpha.11}"

if [ -z "${SKIP_BUILD:-}" ]; then npm run build --silent; fi

work="$(mktemp -d)"
node dist/cli/main.js serve --http --port 0 --toolsets all --db "$work/conformance.db" 2>"$work/server.log" &
server_pid=$!
cleanup() {
  kill -TERM "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 100); do
  url="$(grep -o 'http://[^;]*/mcp' "$work/server.log" || true)"
  [ -n "$url" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "conformance: the server exited before listening:" >&2
    cat "$work/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "conformance: the server did not announce its endpoint within 10 s" >&2
  exit 1
fi
echo "conformance: same-game at $url; suite @modelcontextprotocol/conformance@$SUITE_VERSION on Node 22" >&2

# -p node@22 puts Node 22 first on PATH, so the suite's `#!/usr/bin/env node` runs on it.
npx -y -p node@22 -p "@modelcontextprotocol/conformance@$SUITE_VERSION" -- \
  conformance server --url "$url" --expected-failures conformance/expected-failures.yaml "$@"
