#!/usr/bin/env bash
# Operator figures: backup/restore at scale and sizing per 1,000 scans.
# Builds planreview and bench/opsbench, then runs:
#   backup: 10,000 jobs and 2 GB of uploads (JOBS, BYTES to scale down on a
#           small disk: it needs about 5x BYTES free), backup while serving
#           (cold, then warm), restore, GNU tar as the same-run reference
#   sizing: SCANS scans of real plan sets from ../shared/corpus on 2 workers;
#           data folder growth and server peak RSS, per scan and per 1,000
# Usage: bench/ops.sh            (ONLY="backup sizing" JOBS=10000 BYTES=2000000000 SCANS=100)
# Prints Markdown for docs/benchmarks.md and docs/operations.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ONLY=${ONLY:-backup sizing}
JOBS=${JOBS:-10000}
BYTES=${BYTES:-2000000000}
SCANS=${SCANS:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$ROOT" && go build -o "$tmp/planreview" . && go build -o "$tmp/opsbench" ./bench/opsbench)
echo "machine: $(nproc) CPUs, $(free -g | awk '/Mem:/{print $2}') GB RAM; $(df -h "$tmp" | awk 'NR==2{print $4}') free on the work disk"
for what in $ONLY; do
  echo
  echo "## $what"
  case $what in
    backup) "$tmp/opsbench" -bin "$tmp/planreview" -mode backup -jobs "$JOBS" -bytes "$BYTES" ;;
    sizing) (cd "$ROOT" && "$tmp/opsbench" -bin "$tmp/planreview" -mode sizing -scans "$SCANS" -corpus "$ROOT/../shared/corpus") ;;
  esac
done
