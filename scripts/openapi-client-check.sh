#!/usr/bin/env bash
# Generates a Go client from the OpenAPI document a running appliance serves
# (oapi-codegen, in a module of its own, so neither it nor its runtime enters
# this project's go.mod) and runs the partner flow with it against a temp
# server started from this checkout: key from the CLI, create job, register,
# delete a stray file, upload to the signed URL, scan, poll, findings, CSV,
# marked-up PDF, chat, embed links and the screens' JSON calls with their
# token, the document itself, and typed error answers. The program uses only
# generated types and checks that every typed answer re-encodes to the JSON
# the server sent (no field lost, no number narrowed, null kept), which is
# how it proves the document decodes real responses.
#
#   scripts/openapi-client-check.sh [PDF]
#
# PDF defaults to ../shared/corpus/fsec_pv_permit_sample_generated.pdf.
# Needs the Go module proxy (for oapi-codegen and its runtime).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
pdf=${1:-../shared/corpus/fsec_pv_permit_sample_generated.pdf}
[ -f "$pdf" ] || { echo "openapi-client-check: no PDF at $pdf" >&2; exit 2; }
pdf=$(cd "$(dirname "$pdf")" && pwd)/$(basename "$pdf")

oapi_codegen=github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2
runtime=github.com/oapi-codegen/runtime@v1.9.0

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== build planreview"
go build -o "$work/planreview" .

data=$work/data
# Port 0: the kernel picks a free loopback port; serve logs the address.
"$work/planreview" serve --data-dir "$data" --listen 127.0.0.1:0 >"$work/serve.log" 2>&1 &
server_pid=$!
base=
for _ in $(seq 1 300); do
  addr=$(grep -oE 'planreview serving.* addr=127\.0\.0\.1:[0-9]+' "$work/serve.log" | grep -oE '127\.0\.0\.1:[0-9]+$' || true)
  if [ -n "$addr" ] && curl -fsS "http://$addr/readyz" >/dev/null 2>&1; then base=http://$addr; break; fi
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.log"; echo "serve exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$base" ] || { cat "$work/serve.log"; echo "serve not ready" >&2; exit 1; }

echo "== generate the client from $base/api/v1/openapi.json"
mod=$work/clientcheck
mkdir -p "$mod/client"
curl -fsS "$base/api/v1/openapi.json" -o "$mod/openapi.json"
cat >"$mod/client/oapi-codegen.yaml" <<'EOF'
package: client
generate:
  client: true
  models: true
output: client.gen.go
EOF
(cd "$mod/client" && go run "$oapi_codegen" -config oapi-codegen.yaml ../openapi.json)
cp "$repo/api/testdata/openapiclient/main.go" "$mod/main.go"
(cd "$mod" && go mod init clientcheck >/dev/null 2>&1 && go get "$runtime" >/dev/null 2>&1 && go mod tidy >/dev/null 2>&1)
(cd "$mod" && go vet . && go build -o "$work/clientcheck-bin" .)

echo "== partner flow with the generated client"
key=$("$work/planreview" keys issue --data-dir "$data" --partner "Client Check" --json | sed -E 's/.*"key":"([^"]+)".*/\1/')
PLANREVIEW_KEY=$key "$work/clientcheck-bin" -base "$base" -pdf "$pdf"
echo "openapi client check passed"
