#!/usr/bin/env bash
# Benchmark of the layout layer (scan/layout) on the extraction issue's two
# generated plan sets (see bench/pdftext.sh): extraction alone, extraction
# plus layout.Analyze of every page, and poppler's `pdftotext -bbox`, on the
# same files in one run, alternating, RUNS times each. Reports median wall
# time and median CPU time (user + sys: steadier than wall on a shared
# machine, and what the layout adds when pages are extracted ahead of it).
# Targets: extraction plus layout <= 1.0x poppler and <= 1.5x extraction.
#
# Usage: bench/layout.sh [RUNS]      (from the repository root; default 7)
set -euo pipefail

RUNS="${1:-7}"
cd "$(dirname "$0")/.."
for tool in pdftotext /usr/bin/time go; do
	command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/pdftextbench" ./scan/pdftext/internal/pdftextbench
for set in archd textheavy; do
	"$work/pdftextbench" gen "$set" "$work/$set.pdf"
done

# measure CMD...: prints "wall_seconds cpu_seconds" of one run.
measure() {
	/usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt"
	awk -F': ' '/Elapsed \(wall clock\)/ {
			n = split($2, t, ":"); s = 0
			for (i = 1; i <= n; i++) s = s * 60 + t[i]
			wall = s
		}
		/User time/ { cpu += $2 }
		/System time/ { cpu += $2 }
		END { printf "%.3f %.3f\n", wall, cpu }' "$work/time.txt"
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "pdftotext: $(pdftotext -v 2>&1 | head -1); go: $(go version | cut -d' ' -f3); cpus: $(nproc); runs: $RUNS"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| set | extraction wall / CPU | + layout wall / CPU | poppler wall / CPU | + layout / extraction (CPU) | + layout / poppler (CPU) |"
echo "|---|---:|---:|---:|---:|---:|"
for set in archd textheavy; do
	pdf="$work/$set.pdf"
	: >"$work/x"; : >"$work/l"; : >"$work/p"
	"$work/pdftextbench" layout "$pdf" >/dev/null 2>&1 # warm the page cache
	for _ in $(seq "$RUNS"); do
		measure "$work/pdftextbench" extract "$pdf" >>"$work/x"
		measure "$work/pdftextbench" layout "$pdf" >>"$work/l"
		measure pdftotext -bbox "$pdf" /dev/null >>"$work/p"
	done
	xw=$(cut -d' ' -f1 "$work/x" | median); xc=$(cut -d' ' -f2 "$work/x" | median)
	lw=$(cut -d' ' -f1 "$work/l" | median); lc=$(cut -d' ' -f2 "$work/l" | median)
	pw=$(cut -d' ' -f1 "$work/p" | median); pc=$(cut -d' ' -f2 "$work/p" | median)
	awk -v s="$set" -v xw="$xw" -v xc="$xc" -v lw="$lw" -v lc="$lc" -v pw="$pw" -v pc="$pc" 'BEGIN {
		printf "| %s | %.2f s / %.2f s | %.2f s / %.2f s | %.2f s / %.2f s | %.2fx | %.2fx |\n",
			s, xw, xc, lw, lc, pw, pc, lc / xc, lc / pc }'
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
