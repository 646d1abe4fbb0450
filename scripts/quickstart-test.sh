#!/usr/bin/env bash
# Runs the README's partner-flow quick start as written: every ```sh block
# of the section "The partner flow, with curl", in order, in one bash,
# against a temporary server on a loopback port with a temporary data
# folder. Fails when any step fails, the scan does not complete, or the
# findings show no code check (an IRC or IBC rule).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The blocks, verbatim.
awk '/^## The partner flow, with curl/{on=1; next} /^## /{on=0} on && /^```sh$/{inblock=1; next} inblock && /^```$/{inblock=0; print ""; next} inblock{print}' \
  README.md > "$work/quickstart.sh"
if [ "$(grep -c . "$work/quickstart.sh")" -lt 5 ]; then
  echo "quickstart-test: no quick start found in README.md" >&2; exit 1
fi

go build -o "$work/planreview" .
mkdir "$work/data" "$work/tmp"
port=
for _ in $(seq 20); do
  candidate=$((20000 + RANDOM % 20000))
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port=$candidate; break; fi
done
[ -n "$port" ] || { echo "quickstart-test: no free loopback port" >&2; exit 1; }

PLANREVIEW_DATA_DIR="$work/data" PLANREVIEW_SERVER_LISTEN="127.0.0.1:$port" \
  "$work/planreview" serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 120); do
  if curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; then break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then cat "$work/server.log" >&2; exit 1; fi
  sleep 0.5
done
curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { echo "quickstart-test: server not ready" >&2; cat "$work/server.log" >&2; exit 1; }

# The quick start's own `go run .` reaches this server through the data
# folder's admin socket; its requests go to this port.
if ! API="http://127.0.0.1:$port/api/v1" PLANREVIEW_DATA_DIR="$work/data" TMPDIR="$work/tmp" \
  bash "$work/quickstart.sh" >"$work/out.txt" 2>"$work/err.txt"; then
  echo "quickstart-test: the README quick start failed" >&2
  tail -20 "$work/out.txt" >&2; cat "$work/err.txt" >&2
  exit 1
fi
if ! grep -qE '"ruleId":"(irc|ibc)-' "$work/out.txt"; then
  echo "quickstart-test: the quick start's findings show no code check" >&2
  head -c 2000 "$work/out.txt" >&2
  exit 1
fi
echo "quickstart-test: README quick start passed ($(grep -oE '"ruleId":"(irc|ibc)-[^"]*"' "$work/out.txt" | sort -u | wc -l) code rules found)"
