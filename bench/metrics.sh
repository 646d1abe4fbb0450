#!/usr/bin/env bash
# Metrics overhead (issue 15 target: /metrics adds < 2% to request cost at
# 64 connections). GET /api/v1/jobs/{id} from 64 goroutines against two
# servers in one process, metrics off and on, alternating every 512
# requests (BenchmarkMetricsOverheadInterleaved): each side's process CPU
# time is added up, so load from other processes falls on both alike.
#   handler: the handler chain alone (the server's own work)
#   http:    over loopback, 64 keep-alive connections (client + server CPU)
# Then the cost of one metrics observation on its own (BenchmarkRequest,
# package metrics) and its share of a request's server CPU.
#
# Usage: bench/metrics.sh     (COUNT=3 HANDLER_REQS=200000 HTTP_REQS=80000)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
COUNT=${COUNT:-3}
HANDLER_REQS=${HANDLER_REQS:-200000}
HTTP_REQS=${HTTP_REQS:-80000}
WORK=$(mktemp -d "${BENCH_TMP:-/tmp}/prmetrics.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
# metric UNIT FILE: the value printed before UNIT on each benchmark line.
metric() { awk -v u="$1" '{for (i = 2; i <= NF; i++) if ($i == u) print $(i-1)}' "$2"; }

(cd "$ROOT" && go test -c -o "$WORK/api.test" ./api && go test -c -o "$WORK/metrics.test" ./metrics)

(cd "$ROOT/api" && "$WORK/api.test" -test.run '^$' -test.bench 'MetricsOverheadInterleaved/handler' \
	-test.benchtime "${HANDLER_REQS}x" -test.count "$COUNT") | grep ns/req >"$WORK/handler.txt"
(cd "$ROOT/api" && "$WORK/api.test" -test.run '^$' -test.bench 'MetricsOverheadInterleaved/http' \
	-test.benchtime "${HTTP_REQS}x" -test.count "$COUNT") | grep ns/req >"$WORK/http.txt"
(cd "$ROOT/metrics" && "$WORK/metrics.test" -test.run '^$' -test.bench '^BenchmarkRequest$' \
	-test.benchtime 2s -test.count 5) | grep ns/op >"$WORK/observe.txt"

echo "| 64 clients, GET /jobs/{id} | CPU/request, metrics off | metrics on | overhead (median) | overhead per run |"
echo "|---|---|---|---|---|"
for side in handler http; do
	echo "| $side | $(metric off-cpu-ns/req "$WORK/$side.txt" | median) ns | $(metric on-cpu-ns/req "$WORK/$side.txt" | median) ns |" \
		"$(metric overhead-% "$WORK/$side.txt" | median)% | $(metric overhead-% "$WORK/$side.txt" | tr '\n' ' ')|"
done
obs=$(metric cpu-ns/op "$WORK/observe.txt" | median)
req=$(metric off-cpu-ns/req "$WORK/handler.txt" | median)
echo
echo "One observation (BenchmarkRequest, 64 goroutines, median of 5): $obs ns CPU," \
	"$(echo "scale=2; $obs * 100 / $req" | bc)% of the handler's CPU per request"
