#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, a development dependency)
# against the built `clearance mcp --http` on loopback, with test/mcp/conformance-expected-failures.yml
# as its baseline: any other failure fails, and so does a listed scenario that passes. The suite
# needs Node 22 or later; it runs on the Node binary package of the npm registry (as .ci/run runs
# the oldest supported Node), while the server runs on this machine's node. Run from the repository
# root after a build: `bash scripts/mcp-conformance.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

node22_pkg="node-$(node -p 'process.platform')-$(node -p 'process.arch')@22"
(cd "$work" && npm pack --silent "$node22_pkg" >/dev/null && tar -xzf ./*.tgz)
node22="$work/package/bin/node"
echo "conformance $(node -p 'require("@modelcontextprotocol/conformance/package.json").version') on node $("$node22" --version) ($node22_pkg); server on node $(node --version)"

# the file exists before the server starts: reading it in the loop below must never race its creation
: >"$work/server.err"
node dist/cli.js --dir "$work/store" --by conformance mcp --http 127.0.0.1:0 2>"$work/server.err" &
server_pid=$!
url=""
for _ in $(seq 1 100); do
  url="$(sed -n 's/^clearance mcp: serving //p' "$work/server.err")"
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "clearance mcp --http did not start: $(cat "$work/server.err")" >&2; exit 1; }

"$node22" node_modules/@modelcontextprotocol/conformance/dist/index.js server \
  --url "$url" --expected-failures test/mcp/conformance-expected-failures.yml </dev/null
