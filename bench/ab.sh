#!/usr/bin/env bash
# A/B timing of two planreview binaries on one command, alternating runs
# (so both see the same machine load), with pdftotext -bbox on the same
# file in the same rotation as the reference. Prints median wall and median
# CPU (user+sys) of each, and each one's ratios to poppler. On a machine
# other work shares, the CPU medians are the figure to compare.
#
# Usage: bench/ab.sh OLD_BINARY NEW_BINARY RUNS FILE.pdf SUBCOMMAND [ARGS...]
#   e.g. bench/ab.sh /tmp/old /tmp/new 9 corpus/x.pdf review --format json --fail-on none
set -euo pipefail

old="$1" new="$2" runs="$3" pdf="$4"
shift 4
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

. "$(dirname "$0")/timing.sh"

"$old" "$@" "$pdf" >/dev/null 2>&1 || true
"$new" "$@" "$pdf" >/dev/null 2>&1 || true
load0="$(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do
	measure "$old" "$@" "$pdf" >>"$work/old"
	measure "$new" "$@" "$pdf" >>"$work/new"
	measure pdftotext -bbox "$pdf" /dev/null >>"$work/poppler"
done
pw=$(cut -d' ' -f1 "$work/poppler" | median); pc=$(cut -d' ' -f2 "$work/poppler" | median)
echo "$(basename "$pdf") $*: runs $runs, load $load0 -> $(cut -d' ' -f1-3 /proc/loadavg)"
printf "  %-8s wall %.3f s  CPU %.3f s\n" poppler "$pw" "$pc"
for who in old new; do
	w=$(cut -d' ' -f1 "$work/$who" | median); c=$(cut -d' ' -f2 "$work/$who" | median)
	printf "  %-8s wall %.3f s (%.2fx)  CPU %.3f s (%.2fx)\n" "$who" "$w" "$(echo "$w / $pw" | bc -l)" "$c" "$(echo "$c / $pc" | bc -l)"
done
