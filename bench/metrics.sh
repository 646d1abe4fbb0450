#!/usr/bin/env bash
# Metrics overhead (issue 15): GET /api/v1/jobs/{id} with 64 concurrent
# clients, with and without the metrics middleware, (a) over loopback HTTP
# with 64 keep-alive connections and (b) through the handler chain without
# the network. The two variants run alternately, ROUNDS times each, so load
# from other processes falls on both alike; the medians are compared. Then
# the cost of one metrics observation on its own (BenchmarkRequest).
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
				awk -v m="$mode" '/ns\/op/ {print m, $3}' >>"$WORK/$bench.txt"
		done
	done
done
(cd "$ROOT/metrics" && "$WORK/metrics.test" -test.run '^$' -test.bench '^BenchmarkRequest$' -test.benchtime "$BENCHTIME" -test.count 5) |
	awk '/ns\/op/ {print $3}' >"$WORK/observe.txt"

echo "| benchmark (64 clients) | metrics off ns/op (median of $ROUNDS) | metrics on ns/op | overhead |"
echo "|---|---|---|---|"
for bench in BenchmarkMetricsOverhead BenchmarkMetricsOverheadHandler; do
	off=$(awk '$1=="off" {print $2}' "$WORK/$bench.txt" | median)
	on=$(awk '$1=="on" {print $2}' "$WORK/$bench.txt" | median)
	echo "| $bench | $off | $on | $(echo "scale=2; ($on - $off) * 100 / $off" | bc)% |"
done
echo
echo "One observation (BenchmarkRequest, 64 goroutines, median of 5): $(median <"$WORK/observe.txt") ns/op"
echo "Raw runs:"
for bench in BenchmarkMetricsOverhead BenchmarkMetricsOverheadHandler; do
	echo "$bench off: $(awk '$1=="off" {printf "%s ", $2}' "$WORK/$bench.txt")"
	echo "$bench on:  $(awk '$1=="on" {printf "%s ", $2}' "$WORK/$bench.txt")"
done
