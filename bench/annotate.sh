#!/usr/bin/env bash
# Marked-up PDF renderer benchmarks (issue 5, annotating stage). Runs the Go
# benchmarks in scan/annotate RUNS times each and prints medians as a
# Markdown table:
#   - Render of 500 findings on a generated 100-page set of 24x36 in sheets
#     at three sizes (8, 21 and 42 MB), pages rotated 0/90/180/270
#   - a plain copy of the same file (io.Copy), the floor any writer pays
#   - Render of 500 findings on the largest corpus set (8 A1 sheets, 3.9 MB)
#   - RenderFile (temp file, fsync, rename) vs copying the file with an fsync,
#     on the 21 MB set: the stage as deployed
# Memory is the peak live heap during one render above the heap before it,
# sampled every 0.5 ms with GOGC=10 (what the stage holds), and the peak heap
# occupancy with the default GOGC=100 (live plus not-yet-collected garbage,
# what the process heap reaches in service), each divided by the file size.
#
# Usage: bench/annotate.sh              (RUNS=5 BENCHTIME=10x)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-5}
BENCHTIME=${BENCHTIME:-10x}
OUT=$(mktemp "${BENCH_TMP:-/tmp}/annotate-bench.XXXXXX")
trap 'rm -f "$OUT"' EXIT

cd "$ROOT"
go test ./scan/annotate/ -run '^$' -bench . -benchtime "$BENCHTIME" -count "$RUNS" | tee "$OUT" >&2
# The issue's budget on one set, with medians of five runs.
PLANREVIEW_BENCH=1 go test ./scan/annotate/ -run '^TestPerformanceBudget$' -count 1 -v | grep -E 'budget|file .* MB' >&2

awk '
function median(key,   n, i, j, t, a) {
	n = split(vals[key], a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((n + 1) / 2)]
}
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	if (!(name in seen)) { seen[name] = 1; order[++count] = name }
	for (i = 3; i < NF; i++) {
		unit = $(i + 1)
		if (unit == "ns/op" || unit == "B/op" || unit == "peak-live/filesize" || unit == "peak-heap-gogc100/filesize" || unit == "file-MB")
			vals[name SUBSEP unit] = vals[name SUBSEP unit] " " $i
	}
}
END {
	printf "| benchmark | median time | vs plain copy | allocated/op | peak live heap / file | peak heap (GOGC=100) / file |\n"
	printf "|---|---|---|---|---|---|\n"
	for (k = 1; k <= count; k++) {
		name = order[k]
		ns = median(name SUBSEP "ns/op")
		copyname = name; sub(/Render100Pages500Marks/, "PlainCopy100Pages", copyname); sub(/RenderFileSynced/, "CopyFileSynced", copyname)
		ratio = "-"
		if (copyname != name && (copyname SUBSEP "ns/op") in vals)
			ratio = sprintf("%.0fx", ns / median(copyname SUBSEP "ns/op"))
		peak = (name SUBSEP "peak-live/filesize") in vals ? sprintf("%.2fx", median(name SUBSEP "peak-live/filesize")) : "-"
		heap = (name SUBSEP "peak-heap-gogc100/filesize") in vals ? sprintf("%.2fx", median(name SUBSEP "peak-heap-gogc100/filesize")) : "-"
		label = name
		if ((name SUBSEP "file-MB") in vals) label = sprintf("%s (%.1f MB)", name, median(name SUBSEP "file-MB"))
		printf "| %s | %.1f ms | %s | %.1f MB | %s | %s |\n", label, ns / 1e6, ratio, median(name SUBSEP "B/op") / 1e6, peak, heap
	}
}' "$OUT"
