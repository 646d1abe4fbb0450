#!/usr/bin/env bash
# Benchmark of `planreview inspect --sheets` (extraction plus the document
# model, scan/model) side by side with poppler's `pdftotext -bbox` on the
# corpus sets of the speed target (Calgary, Purdue), in one run,
# alternating, RUNS times each. Reports the median wall time and median CPU
# time (user+sys) of each and the ratios of medians (target: wall <= 1.0x).
# `planreview version` is timed too: the process start-up (package
# initialisation of the whole binary) that every command pays before it
# reads a byte, so the model's own share can be told from it. The in-process
# split (extraction, set reading, whole model) is BenchmarkBuildCorpus in
# scan/model.
#
# Usage: bench/sheets.sh [RUNS]      (from the repository root; default 7)
set -euo pipefail

RUNS="${1:-7}"
cd "$(dirname "$0")/.."
CORPUS="${CORPUS:-../../shared/corpus}"
[ -d "$CORPUS" ] || CORPUS=/work/shared/corpus

for tool in pdftotext /usr/bin/time go; do
	command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

. bench/timing.sh # the repository root is the working directory here
build_release "$work/planreview"

echo "pdftotext: $(pdftotext -v 2>&1 | head -1); go: $(go version | cut -d' ' -f3); cpus: $(nproc); runs: $RUNS"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| set | pages | inspect --sheets wall | pdftotext -bbox wall | wall ratio | inspect CPU | pdftotext CPU | CPU ratio | start-up (version) wall / CPU |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in ca_calgary_sample_dp_bp_house_26p us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh; do
	pdf="$CORPUS/$name.pdf"
	: >"$work/ours"; : >"$work/poppler"; : >"$work/start"
	# Warm the page cache and check both tools read the file.
	"$work/planreview" inspect --sheets "$pdf" >/dev/null
	pdftotext -bbox "$pdf" /dev/null 2>/dev/null
	for _ in $(seq "$RUNS"); do
		measure "$work/planreview" inspect --sheets "$pdf" >>"$work/ours"
		measure pdftotext -bbox "$pdf" /dev/null >>"$work/poppler"
		measure "$work/planreview" version >>"$work/start"
	done
	ow=$(cut -d' ' -f1 "$work/ours" | median); oc=$(cut -d' ' -f2 "$work/ours" | median)
	pw=$(cut -d' ' -f1 "$work/poppler" | median); pc=$(cut -d' ' -f2 "$work/poppler" | median)
	sw=$(cut -d' ' -f1 "$work/start" | median); sc=$(cut -d' ' -f2 "$work/start" | median)
	pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
	printf "| %s | %s | %.3f s | %.3f s | **%.2fx** | %.3f s | %.3f s | %.2fx | %.3f s / %.3f s |\n" "$name" "${pages:-?}" \
		"$ow" "$pw" "$(echo "$ow / $pw" | bc -l)" "$oc" "$pc" "$(echo "$oc / $pc" | bc -l)" "$sw" "$sc"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
