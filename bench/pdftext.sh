#!/usr/bin/env bash
# Benchmark of the pure-Go text extractor (scan/pdftext) side by side with
# poppler's `pdftotext -bbox` on the two generated plan sets of the
# extraction issue:
#   archd      100 ARCH D sheets (36x24 in), ~300 labels a sheet
#   textheavy  20 ARCH D sheets, ~3,000 labels a sheet, a font switch per label
# Both tools run on the same files in one run, alternating, RUNS times each;
# the script reports median wall time and median peak RSS (/usr/bin/time -v)
# and our/poppler ratios. Targets: wall <= 1.0x, peak memory <= 2.0x.
# "ours + layout" runs extraction plus layout.Analyze of every page (the
# layout's targets: <= 1.0x poppler, <= 1.5x extraction alone).
#
# Usage: bench/pdftext.sh [RUNS]      (from the repository root; default 7)
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

# measure CMD...: prints "wall_seconds peak_rss_kb" of one run.
measure() {
	/usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt"
	awk -F': ' '/Elapsed \(wall clock\)/ {
			n = split($2, t, ":"); s = 0
			for (i = 1; i <= n; i++) s = s * 60 + t[i]
			wall = s
		}
		/Maximum resident set size/ { rss = $2 }
		END { printf "%.3f %d\n", wall, rss }' "$work/time.txt"
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "pdftotext: $(pdftotext -v 2>&1 | head -1); go: $(go version | cut -d' ' -f3); cpus: $(nproc); runs: $RUNS"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| set | pages | file | ours wall (median) | poppler wall (median) | wall ratio | ours peak RSS | poppler peak RSS | RSS ratio | ours + layout wall | + layout / poppler | + layout / ours |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for set in archd textheavy; do
	pdf="$work/$set.pdf"
	: >"$work/ours" ; : >"$work/poppler" ; : >"$work/layout"
	# Warm the page cache and check both tools read the file.
	"$work/pdftextbench" extract "$pdf" >/dev/null
	pdftotext -bbox "$pdf" /dev/null
	for _ in $(seq "$RUNS"); do
		measure "$work/pdftextbench" extract "$pdf" >>"$work/ours"
		measure pdftotext -bbox "$pdf" /dev/null >>"$work/poppler"
		measure "$work/pdftextbench" layout "$pdf" >>"$work/layout"
	done
	ow=$(cut -d' ' -f1 "$work/ours" | median);    pw=$(cut -d' ' -f1 "$work/poppler" | median)
	om=$(cut -d' ' -f2 "$work/ours" | median);    pm=$(cut -d' ' -f2 "$work/poppler" | median)
	lw=$(cut -d' ' -f1 "$work/layout" | median)
	pages=$(pdftotext -bbox "$pdf" - | grep -c '<page ')
	size=$(du -k "$pdf" | cut -f1)
	awk -v s="$set" -v p="$pages" -v z="$size" -v ow="$ow" -v pw="$pw" -v om="$om" -v pm="$pm" -v lw="$lw" 'BEGIN {
		printf "| %s | %d | %d KB | %.2f s | %.2f s | %.2fx | %.1f MB | %.1f MB | %.2fx | %.2f s | %.2fx | %.2fx |\n",
			s, p, z, ow, pw, ow / pw, om / 1024, pm / 1024, om / pm, lw, lw / pw, lw / ow }'
done

# Real sheets from the shared corpus, for information (not a target): the
# same measurement, 3 runs each, when the corpus is present.
corpus="${CORPUS:-../shared/corpus}"
if [ -d "$corpus" ]; then
	echo
	echo "| corpus file | ours wall | poppler wall | wall ratio | ours peak RSS | poppler peak RSS | RSS ratio |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for pdf in "$corpus"/*.pdf; do
		"$work/pdftextbench" extract "$pdf" >/dev/null 2>&1 || continue # not a PDF
		: >"$work/ours" ; : >"$work/poppler"
		for _ in 1 2 3; do
			measure "$work/pdftextbench" extract "$pdf" >>"$work/ours"
			measure pdftotext -bbox "$pdf" /dev/null >>"$work/poppler"
		done
		ow=$(cut -d' ' -f1 "$work/ours" | median);    pw=$(cut -d' ' -f1 "$work/poppler" | median)
		om=$(cut -d' ' -f2 "$work/ours" | median);    pm=$(cut -d' ' -f2 "$work/poppler" | median)
		awk -v s="$(basename "$pdf")" -v ow="$ow" -v pw="$pw" -v om="$om" -v pm="$pm" 'BEGIN {
			r = (pw > 0 && ow > 0) ? sprintf("%.2fx", ow / pw) : "–" # under the 10 ms resolution
			printf "| %s | %.2f s | %.2f s | %s | %.1f MB | %.1f MB | %.2fx |\n", s, ow, pw, r, om / 1024, pm / 1024, om / pm }'
	done
fi
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
