#!/usr/bin/env bash
# Metrics overhead (issue 15): GET /api/v1/jobs/{id} with 64 concurrent
# clients, with and without the metrics middleware, (a) over loopback HTTP
# with 64 keep-alive connections and (b) through the handler chain without
# the network. The two variants run alternately, ROUNDS times each, so load
# from other processes falls on both alike; the medians of wall time per
# request (ns/op) and of the test process's CPU time per request
# (cpu-ns/op: client and server, steadier on a shared machine) are
# compared. Then the cost of one metrics observation on its own
# (BenchmarkRequest).
#
# Usage: bench/metrics.sh            (ROUNDS=9 BENCHTIME=2s)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${ROUNDS:-9}
BENCHTIME=${BENCHTIME:-2s}
WORK=$(mktemp -d "${BENCH_TMP:-/tmp}/prmetrics.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

(cd "$ROOT" && go test -c -o "$WORK/api.test" ./api && go test -c -o "$WORK/metrics.test" ./metrics)

for bench in BenchmarkMetricsOverhead BenchmarkMetricsOverheadHandler; do
	for _ in $(seq "$ROUNDS"); do
		for mode in off on; do
			(cd "$ROOT/api" && "$WORK/api.test" -test.run '^$' -test.bench "^$bench\$/^metrics=$mode\$" \
				-test.benchtime "$BENCHTIME" -test.count 1) |
				awk -v m="$mode" '/ns\/op/ {for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ns/op") c = $i; print m, $3, c}' >>"$WORK/$bench.txt"
		done
	done
done
(cd "$ROOT/metrics" && "$WORK/metrics.test" -test.run '^$' -test.bench '^BenchmarkRequest$' -test.benchtime "$BENCHTIME" -test.count 5) |
	awk '/ns\/op/ {for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ns/op") c = $i; print $3, c}' >"$WORK/observe.txt"

echo "| benchmark (64 clients) | measure | metrics off (median of $ROUNDS) | metrics on | overhead |"
echo "|---|---|---|---|---|"
for bench in BenchmarkMetricsOverhead BenchmarkMetricsOverheadHandler; do
	for col in 2:ns/op 3:cpu-ns/op; do
		n=${col%%:*}
		off=$(awk -v n="$n" '$1=="off" {print $n}' "$WORK/$bench.txt" | median)
		on=$(awk -v n="$n" '$1=="on" {print $n}' "$WORK/$bench.txt" | median)
		echo "| $bench | ${col#*:} | $off | $on | $(echo "scale=2; ($on - $off) * 100 / $off" | bc)% |"
	done
done
echo
obs_cpu=$(awk '{print $2}' "$WORK/observe.txt" | median)
req_cpu=$(awk '$1=="off" {print $3}' "$WORK/BenchmarkMetricsOverheadHandler.txt" | median)
echo "One observation (BenchmarkRequest, 64 goroutines, median of 5): $(awk '{print $1}' "$WORK/observe.txt" | median) ns/op, $obs_cpu cpu-ns/op"
echo "Its share of a request's server CPU (handler chain, metrics off): $(echo "scale=2; $obs_cpu * 100 / $req_cpu" | bc)%"
echo "Raw runs:"
for bench in BenchmarkMetricsOverhead BenchmarkMetricsOverheadHandler; do
	echo "$bench off (ns/op cpu-ns/op): $(awk '$1=="off" {printf "%s/%s ", $2, $3}' "$WORK/$bench.txt")"
	echo "$bench on  (ns/op cpu-ns/op): $(awk '$1=="on" {printf "%s/%s ", $2, $3}' "$WORK/$bench.txt")"
done
