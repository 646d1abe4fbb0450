#!/usr/bin/env bash
# Scan pipeline benchmarks (review engine and marked-up PDF stage). Builds
# planreview and bench/scanbench, starts `planreview serve` on a temp data
# folder and a free loopback port (2 scan workers), issues a key, lifts its
# rate limit and scan quota, writes the plan sets with bench/scanbench, and
# measures RUNS times each:
#   1. a 100-page set, scan call -> complete, per-stage times from the job's
#      pipeline.stages, for plangen.Bench (100 x 300 labels) and a realistic
#      plangen.Generate residential set padded to 100 pages; poppler's
#      `pdftotext -bbox` on the same file in the same run as the reference
#   2. a ~100 MB, 500-page set (plangen.Bench + one random-bytes image per
#      page): the server's VmHWM before upload, after upload and its peak
#      during the scan (a fresh server per run; VmHWM reset after upload)
#   3. GET /api/v1/jobs/{id} latency (wrk --latency, closed loop, and an
#      open-loop probe at PROBE_RATE req/s over 8 connections, a polling
#      partner) on the idle server, and while both scan workers are busy with
#      100-page scans the whole time
#   4. the annotating stage of the realistic set (about 500 findings), and
#      the Go benchmarks of scan/bench_test.go (BenchmarkPipeline100Pages,
#      BenchmarkAnnotate500Findings: 500 findings on a 100-page set)
# and prints medians and ratios as Markdown tables.
#
# Usage: bench/scan.sh       (RUNS=3 DURATION=10s CONNS=16 THREADS=2 GOBENCH=1)
#        ONLY="m1 m3" bench/scan.sh          (a subset: m1 m2 m3 go)
#        SERVER_ENV="GOMAXPROCS=4" bench/scan.sh   (environment for serve)
#        PLANREVIEW_BIN=/tmp/other/planreview bench/scan.sh  (A/B another build)
# Everything binds 127.0.0.1; every wait is bounded; all is stopped on exit.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
CONNS=${CONNS:-16}
THREADS=${THREADS:-2}
GOBENCH=${GOBENCH:-1}
PROBE_RATE=${PROBE_RATE:-200}
ONLY=${ONLY:-m1 m2 m3 go}
SERVER_ENV=${SERVER_ENV:-}
want() { [[ " $ONLY " == *" $1 "* ]]; }
want go || GOBENCH=0
WORK=$(mktemp -d "${BENCH_TMP:-/tmp}/prscan.XXXXXX")

SERVER_PID=
cleanup() {
	if [ -n "$SERVER_PID" ]; then
		kill "$SERVER_PID" 2>/dev/null || true
		wait "$SERVER_PID" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT

need() { command -v "$1" >/dev/null || { echo "bench: $1 is required" >&2; exit 1; }; }
need wrk; need curl; need jq; need go; need pdftotext; need python3

log() { echo "bench: $*" >&2; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
field() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" <<<"$2"; }
med() { while read -r line; do field "$2" "$line"; done <"$1" | median; } # med FILE FIELD
now() { date +%s.%N; }
fmt() { printf "%.${2:-2}f" "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == 0) print "nan"; else printf "%.2f", a / b}'; }

log "building"
(cd "$ROOT" && go build -o "$WORK/planreview" . && go build -o "$WORK/scanbench" ./bench/scanbench)
PR=${PLANREVIEW_BIN:-"$WORK/planreview"} # PLANREVIEW_BIN: measure another build (A/B)
SB="$WORK/scanbench"

log "writing plan sets"
"$SB" gen -kind bench -pages 100 -labels 300 -out "$WORK/bench100.pdf" >&2
"$SB" gen -kind realistic -pages 100 -filler 300 -out "$WORK/real100.pdf" >&2
if want go; then
	"$SB" gen -kind bulk -pages 100 -labels 300 -seed 7 -target-bytes 20000000 -out "$WORK/bulk100.pdf" >&2
fi
if want m2; then
	"$SB" gen -kind bulk -pages 500 -labels 300 -target-bytes 100000000 -out "$WORK/bulk500.pdf" >&2
	"$SB" gen -kind realistic-bulk -pages 500 -filler 300 -target-bytes 100000000 -out "$WORK/realbulk500.pdf" >&2
fi
size() { stat -c %s "$1" 2>/dev/null || echo 0; }

cat >"$WORK/config.yaml" <<'EOF'
scan:
  workers: 2
EOF

# start_server DATA: a server on a fresh free port; sets ADDR, BASE, KEY, AUTH.
start_server() {
	local data=$1
	local port
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	ADDR="127.0.0.1:$port"
	BASE="http://$ADDR"
	env $SERVER_ENV "$PR" serve --config "$WORK/config.yaml" --data-dir "$data" --listen "$ADDR" 2>>"$WORK/serve.log" &
	SERVER_PID=$!
	for _ in $(seq 200); do
		curl -fs "$BASE/readyz" >/dev/null 2>&1 && break
		sleep 0.05
	done
	curl -fs "$BASE/readyz" >/dev/null || { log "server did not start"; tail -20 "$WORK/serve.log" >&2; exit 1; }
	KEY=$("$PR" keys issue --partner bench --json --data-dir "$data" | jq -r .key)
	"$PR" partners set bench --rate-limit 1000000 --rate-burst 1000000 --scan-quota 100000 --data-dir "$data" >/dev/null
	AUTH="Authorization: Bearer $KEY"
}

stop_server() {
	kill "$SERVER_PID" 2>/dev/null || true
	wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=
}

start_server "$WORK/data"

# 1. 100-page sets, scan call to complete, with pdftotext -bbox alongside.
for set in bench100 real100; do
	: >"$WORK/m1_$set" && : >"$WORK/pop_$set"
done
M1_RUNS=$RUNS
want m1 || M1_RUNS=1 # m3 needs a completed job and the scan time
for i in $(seq "$M1_RUNS"); do
	for set in bench100 real100; do
		log "100-page scan run $i: $set"
		"$SB" run -base "$BASE" -key "$KEY" -file "$WORK/$set.pdf" | tee -a "$WORK/m1_$set" >&2
		t0=$(now)
		pdftotext -bbox "$WORK/$set.pdf" "$WORK/pop.html"
		t1=$(now)
		echo "RESULT secs=$(echo "$t1 - $t0" | bc -l)" | tee -a "$WORK/pop_$set" >&2
	done
done
DONE_JOB=$(field job "$(head -1 "$WORK/m1_bench100")")
BENCH_SCAN_S=$(med "$WORK/m1_bench100" total_s)

# 3. GET /jobs/{id}: idle, then with both workers busy with 100-page scans.
# A fresh server per run (the scans still queued when wrk ends are left
# behind with it), its first job scanned to completion as the GET target.
# wrk_run OUTFILE: one wrk run on the completed job; its RESULT line is kept
# with the server's own view: the request log's duration_ms (handler time,
# without the time a connection waits to be read) of the GETs of the run.
wrk_run() {
	local from
	from=$(($(wc -l <"$WORK/serve.log") + 1))
	wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$ROOT/bench/report.lua" -H "$AUTH" \
		"$BASE/api/v1/jobs/$DONE_JOB" >"$WORK/wrk.txt" 2>&1 || { cat "$WORK/wrk.txt" >&2; exit 1; }
	local srv
	srv=$(tail -n +"$from" "$WORK/serve.log" | grep "method=GET path=/api/v1/jobs/$DONE_JOB " |
		sed -n 's/.* duration_ms=\([0-9.]*\).*/\1/p' | sort -g |
		awk '{a[NR]=$1} END {if (NR) {i = int(NR*0.99)+1; if (i > NR) i = NR; printf "srv_p50_ms=%.3f srv_p99_ms=%.3f srv_max_ms=%.3f", a[int(NR*0.5)+1], a[i], a[NR]}}')
	echo "$(grep '^RESULT' "$WORK/wrk.txt") $srv load1=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$1" >&2
}
SECS=${DURATION%s}
M3_RUNS=$RUNS
want m3 || M3_RUNS=0
# Enough queued scans that both workers stay busy past the end of wrk and
# the probe (2 * SECS): a scan running beside another is no faster than a
# lone one, so 2 workers * 2 * SECS / BENCH_SCAN_S scans would do; queue
# twice that plus 4 (the m3_cover lines tell whether it was enough).
NSCANS=$(awk -v d="$SECS" -v s="$BENCH_SCAN_S" 'BEGIN {n = int(2 * 2 * 2 * d / s) + 4; if (n > 600) n = 600; print n}')
: >"$WORK/m3_idle" && : >"$WORK/m3_busy" && : >"$WORK/m3_cover" && : >"$WORK/m3_probe_idle" && : >"$WORK/m3_probe_busy"
stop_server
for i in $(seq "$M3_RUNS"); do
	rm -rf "$WORK/data3"
	start_server "$WORK/data3"
	DONE_JOB=$(field job "$("$SB" run -base "$BASE" -key "$KEY" -file "$WORK/bench100.pdf")")
	log "GET run $i: idle"
	wrk_run "$WORK/m3_idle"
	"$SB" probe -base "$BASE" -key "$KEY" -job "$DONE_JOB" -rate "$PROBE_RATE" -conns 8 -duration "$DURATION" | tee -a "$WORK/m3_probe_idle" >&2
	log "GET run $i: preparing $NSCANS scans of the 100-page set"
	JOBS=()
	for _ in $(seq "$NSCANS"); do JOBS+=("$("$SB" prepare -base "$BASE" -key "$KEY" -file "$WORK/bench100.pdf")"); done
	"$SB" start -base "$BASE" -key "$KEY" "${JOBS[@]}" >/dev/null
	sleep 0.5 # both workers have claimed a scan
	log "GET run $i: during scans"
	wrk_run "$WORK/m3_busy"
	"$SB" probe -base "$BASE" -key "$KEY" -job "$DONE_JOB" -rate "$PROBE_RATE" -conns 8 -duration "$DURATION" | tee -a "$WORK/m3_probe_busy" >&2
	# Queue order is FIFO: with two jobs not yet complete when wrk and the
	# probe end, both workers were busy all through them.
	ST=$("$SB" status -base "$BASE" -key "$KEY" "${JOBS[@]}")
	left=$((NSCANS - $(field complete "$ST") - $(field failed "$ST")))
	echo "RESULT scans=$NSCANS not_complete_at_wrk_end=$left covered=$([ "$left" -ge 2 ] && echo yes || echo no) $(sed 's/^RESULT //' <<<"$ST")" | tee -a "$WORK/m3_cover" >&2
	stop_server
done
rm -rf "$WORK/data3"

# 2. ~100 MB, 500 pages: a fresh server per run, so VmHWM is this run's.
# bulk500 is the label grid of plangen.Bench, realbulk500 the realistic set
# (about 2,400 findings): findings cost memory too.
M2_SETS="bulk500 realbulk500"
for set in $M2_SETS; do : >"$WORK/m2_$set"; done
M2_RUNS=$RUNS
want m2 || M2_RUNS=0
for i in $(seq "$M2_RUNS"); do
	for set in $M2_SETS; do
		log "100 MB scan run $i: $set"
		rm -rf "$WORK/data2"
		start_server "$WORK/data2"
		"$SB" run -base "$BASE" -key "$KEY" -file "$WORK/$set.pdf" -pid "$SERVER_PID" -timeout 20m | tee -a "$WORK/m2_$set" >&2
		stop_server
	done
done
rm -rf "$WORK/data2"

# 4b. Go benchmarks.
if [ "$GOBENCH" = 1 ]; then
	log "Go benchmarks (scan/bench_test.go)"
	(cd "$ROOT" && SCAN_BENCH_BULK_FILE="$WORK/bulk100.pdf" go test ./scan/ -run '^$' -bench 'Pipeline100Pages|Annotate500Findings' -benchtime 3x -count "$RUNS") | tee "$WORK/gobench" >&2
fi

# ---- report ----
M() { med "$WORK/$1" "$2"; }
echo
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  nproc: $(nproc)  go: $(go version | awk '{print $3}')  runs: $RUNS  wrk: -t$THREADS -c$CONNS -d$DURATION  scan workers: 2  measured: $ONLY  server env: ${SERVER_ENV:-(none)}  binary: ${PLANREVIEW_BIN:-built from $ROOT}"
echo "load average at report: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "files: bench100 $(size "$WORK/bench100.pdf") B, real100 $(size "$WORK/real100.pdf") B, bulk500 $(size "$WORK/bulk500.pdf") B"
echo
echo "### 1. 100-page set, scan call to complete (medians of $RUNS, seconds)"
echo
echo "| set | findings | scan -> complete | preparing | extracting | classifying | reviewing | annotating | (classifying+reviewing)/extracting | pdftotext -bbox | extracting / pdftotext |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for set in bench100 real100; do
	f="m1_$set"
	echo "| $set | $(M "$f" findings) | $(fmt "$(M "$f" total_s)" 3) | $(fmt "$(M "$f" preparing_s)" 3) | $(fmt "$(M "$f" extracting_s)" 3) | $(fmt "$(M "$f" classifying_s)" 3) | $(fmt "$(M "$f" reviewing_s)" 3) | $(fmt "$(M "$f" annotating_s)" 3) | $(fmt "$(M "$f" review_over_extract)" 2) | $(fmt "$(M "pop_$set" secs)" 3) | $(ratio "$(M "$f" extracting_s)" "$(M "pop_$set" secs)") |"
done
echo
echo "Targets: scan -> complete < 15 s; (classifying+reviewing)/extracting < 0.50."
echo
echo "### 2. ~100 MB, 500-page set: server memory (medians of $RUNS, MB)"
echo
echo "| file | scan -> complete (s) | findings | VmHWM before upload | VmHWM after upload | VmRSS after upload | VmHWM peak during scan (max of runs) | sampled VmRSS peak: extracting / classifying / reviewing / annotating | extracting (s) | annotating (s) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for set in $M2_SETS; do
	f="m2_$set"
	echo "| $set $(awk -v b="$(size "$WORK/$set.pdf")" 'BEGIN {printf "%.1f MB", b / 1e6}') | $(fmt "$(M "$f" total_s)" 2) | $(M "$f" findings) | $(fmt "$(M "$f" hwm_before_mb)" 1) | $(fmt "$(M "$f" hwm_upload_mb)" 1) | $(fmt "$(M "$f" rss_upload_mb)" 1) | $(fmt "$(M "$f" hwm_scan_mb)" 1) ($(while read -r l; do field hwm_scan_mb "$l"; done <"$WORK/$f" | sort -g | tail -1)) | $(fmt "$(M "$f" rss_extracting_mb)" 0) / $(fmt "$(M "$f" rss_classifying_mb)" 0) / $(fmt "$(M "$f" rss_reviewing_mb)" 0) / $(fmt "$(M "$f" rss_annotating_mb)" 0) | $(fmt "$(M "$f" extracting_s)" 2) | $(fmt "$(M "$f" annotating_s)" 2) |"
done
echo
echo "Target: VmHWM peak during the scan < 512 MB."
echo
echo "### 3. GET /api/v1/jobs/{id} (medians of $RUNS wrk runs, ms)"
echo
echo "| server | req/s | p50 | p90 | p99 | max | errors | in-handler p50 / p99 (request log) | load1 |"
echo "|---|---|---|---|---|---|---|---|---|"
for s in idle busy; do
	errs=$(while read -r l; do echo $(($(field non2xx "$l") + $(field sockerr "$l"))); done <"$WORK/m3_$s" | paste -sd+ | bc)
	echo "| $s | $(fmt "$(M "m3_$s" rps)" 0) | $(fmt "$(M "m3_$s" p50_ms)" 2) | $(fmt "$(M "m3_$s" p90_ms)" 2) | $(fmt "$(M "m3_$s" p99_ms)" 2) | $(fmt "$(M "m3_$s" max_ms)" 2) | $errs | $(fmt "$(M "m3_$s" srv_p50_ms)" 3) / $(fmt "$(M "m3_$s" srv_p99_ms)" 2) | $(M "m3_$s" load1) |"
done
for s in idle busy; do
	f="m3_probe_$s"
	echo "| $s, open-loop probe $PROBE_RATE req/s, 8 conns | $PROBE_RATE | $(fmt "$(M "$f" probe_p50_ms)" 2) | $(fmt "$(M "$f" probe_p90_ms)" 2) | $(fmt "$(M "$f" probe_p99_ms)" 2) | $(fmt "$(M "$f" probe_max_ms)" 2) | $(while read -r l; do field probe_errors "$l"; done <"$WORK/$f" | paste -sd+ | bc) | | |"
done
echo
echo "busy = 2 workers scanning the 100-page bench set throughout ($NSCANS queued per run; both busy to the end of wrk and probe: $(while read -r l; do field covered "$l"; done <"$WORK/m3_cover" | paste -sd, -)); p99 busy/idle: wrk $(ratio "$(M m3_busy p99_ms)" "$(M m3_idle p99_ms)"), probe $(ratio "$(M m3_probe_busy probe_p99_ms)" "$(M m3_probe_idle probe_p99_ms)"). Target: busy p99 < 20 ms."
echo
echo "### 4. Annotating stage, realistic 100-page set in the server"
echo
echo "| set | findings | annotating (s) | annotating / scan |"
echo "|---|---|---|---|"
echo "| real100 | $(M m1_real100 findings) | $(fmt "$(M m1_real100 annotating_s)" 3) | $(ratio "$(M m1_real100 annotating_s)" "$(M m1_real100 total_s)") |"
if [ "$GOBENCH" = 1 ]; then
	echo
	echo "### Go benchmarks (medians of $RUNS, -benchtime 3x)"
	echo
	awk '
	function median(key,   n, i, j, t, a) {
		n = split(vals[key], a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return a[int((n + 1) / 2)]
	}
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		if (!(name in seen)) { seen[name] = 1; order[++count] = name }
		for (i = 3; i < NF; i += 2) {
			unit = $(i + 1)
			if (!((name, unit) in has)) { has[name, unit] = 1; units[name] = units[name] " " unit }
			vals[name SUBSEP unit] = vals[name SUBSEP unit] " " $i
		}
	}
	END {
		print "| benchmark | metric | median |"
		print "|---|---|---|"
		for (k = 1; k <= count; k++) {
			name = order[k]
			n = split(units[name], us, " ")
			for (u = 1; u <= n; u++) {
				v = median(name SUBSEP us[u])
				if (us[u] ~ /ns\/op$/) printf "| %s | %s | %.1f ms |\n", name, us[u], v / 1e6
				else printf "| %s | %s | %s |\n", name, us[u], v
			}
		}
	}' "$WORK/gobench"
fi
echo
echo "Per-run lines:"
for f in m1_bench100 pop_bench100 m1_real100 pop_real100 m2_bulk500 m2_realbulk500 m3_idle m3_busy m3_probe_idle m3_probe_busy m3_cover; do sed "s/^RESULT/$f/" "$WORK/$f"; done
