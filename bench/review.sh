#!/usr/bin/env bash
# Benchmark of a whole `planreview review` (extraction, layout, document
# model, rules; JSON findings out; no chat index, which only `serve`
# builds), built as the release builds it, side by side with poppler's
# `pdftotext -bbox` on the corpus sets of the speed target (Calgary,
# Purdue, St. Cloud), in one run, alternating, RUNS times each. Reports the
# median wall time and median CPU time (user+sys) of each and the ratios of
# medians (target: <= 1.0x). On a shared machine the CPU ratio is the
# steadier figure. bench/sheets.sh does the same for `inspect --sheets`.
#
# Usage: bench/review.sh [RUNS]      (from the repository root; default 7)
set -euo pipefail

RUNS="${1:-7}"
cd "$(dirname "$0")/.."
CORPUS="${CORPUS:-../../shared/corpus}"
[ -d "$CORPUS" ] || CORPUS=/work/shared/corpus

for tool in pdftotext pdfinfo /usr/bin/time go; do
	command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
review=("$work/planreview" review --format json --application-date 2026-11-27 --fail-on none)

. bench/timing.sh # the repository root is the working directory here
build_release "$work/planreview"

echo "pdftotext: $(pdftotext -v 2>&1 | head -1); go: $(go version | cut -d' ' -f3); cpus: $(nproc); runs: $RUNS"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| set | pages | review wall | pdftotext -bbox wall | wall ratio | review CPU | pdftotext CPU | CPU ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for name in ca_calgary_sample_dp_bp_house_26p us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh us_va_stcloud_bldg28_renovation_cds; do
	pdf="$CORPUS/$name.pdf"
	: >"$work/ours"; : >"$work/poppler"
	# Warm the page cache and check both tools read the file.
	"${review[@]}" "$pdf" >/dev/null
	pdftotext -bbox "$pdf" /dev/null 2>/dev/null
	for _ in $(seq "$RUNS"); do
		measure "${review[@]}" "$pdf" >>"$work/ours"
		measure pdftotext -bbox "$pdf" /dev/null >>"$work/poppler"
	done
	ow=$(cut -d' ' -f1 "$work/ours" | median); oc=$(cut -d' ' -f2 "$work/ours" | median)
	pw=$(cut -d' ' -f1 "$work/poppler" | median); pc=$(cut -d' ' -f2 "$work/poppler" | median)
	pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
	printf "| %s | %s | %.3f s | %.3f s | **%.2fx** | %.3f s | %.3f s | %.2fx |\n" "$name" "${pages:-?}" \
		"$ow" "$pw" "$(echo "$ow / $pw" | bc -l)" "$oc" "$pc" "$(echo "$oc / $pc" | bc -l)"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
