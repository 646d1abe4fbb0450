#!/usr/bin/env bash
# Partner API benchmarks (issue 2). Builds planreview and bench/bare, starts
# planreview on a temp data folder and a loopback port, issues a key, lifts
# its rate limit, and measures RUNS times each:
#   1. GET /api/v1/jobs/{id}: planreview vs the bare net/http handler (wrk),
#      at saturation and at a fixed ~5,000 req/s offered (latency)
#   2. POST /api/v1/jobs with CONNS concurrent connections (wrk + Lua)
#   3. a 100 MB upload (curl -T, which streams the file as partner uploaders
#      do) vs cp, cp + sync and dd conv=fsync of the
#      same file on the same disk, and vs the same PUT into a sink that
#      drops the bytes, with the server's resident memory before/during/after
# and prints medians and ratios as a Markdown table.
#
# Usage: bench/api.sh            (RUNS=3 DURATION=10s CONNS=64 THREADS=2)
#        PLANREVIEW_LOG_LEVEL=warn bench/api.sh   (without per-request logs)
# Everything binds 127.0.0.1 and is stopped on exit.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
CONNS=${CONNS:-64}
THREADS=${THREADS:-2}
UPLOAD_BYTES=104857600 # the contract's 100 MB limit
WORK=$(mktemp -d "${BENCH_TMP:-/tmp}/prbench.XXXXXX")
export PLANREVIEW_BENCH_DIR="$ROOT/bench"

PIDS=()
cleanup() {
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT

need() { command -v "$1" >/dev/null || { echo "bench: $1 is required" >&2; exit 1; }; }
need wrk; need curl; need jq; need go; need python3; need bc

log() { echo "bench: $*" >&2; }

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# field NAME LINE: the value of NAME=... in a RESULT line.
field() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" <<<"$2"; }

now() { date +%s.%N; }

log "building"
(cd "$ROOT" && go build -o "$WORK/planreview" . && go build -o "$WORK/bare" ./bench/bare)

DATA="$WORK/data"
# The kernel picks a free port for bare; planreview needs its port up front
# because signed upload URLs carry it (public URL = http://LISTEN).
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ADDR="127.0.0.1:$PORT"
"$WORK/planreview" serve --data-dir "$DATA" --listen "$ADDR" 2>"$WORK/serve.log" &
SERVER_PID=$!
PIDS+=("$SERVER_PID")
for _ in $(seq 200); do
	curl -fs "http://$ADDR/readyz" >/dev/null 2>&1 && break
	sleep 0.05
done
curl -fs "http://$ADDR/readyz" >/dev/null || { log "server did not start"; cat "$WORK/serve.log" >&2; exit 1; }

"$WORK/bare" -listen 127.0.0.1:0 -lifetime 30m >"$WORK/bare.out" &
BARE_PID=$!
PIDS+=("$BARE_PID")
for _ in $(seq 100); do grep -q listening "$WORK/bare.out" && break; sleep 0.05; done
BARE_ADDR=$(awk '/listening/ {print $2}' "$WORK/bare.out")

KEY_JSON=$("$WORK/planreview" keys issue --partner bench --json --data-dir "$DATA")
KEY=$(jq -r .key <<<"$KEY_JSON")
"$WORK/planreview" partners set bench --rate-limit 1000000 --rate-burst 1000000 --data-dir "$DATA" >/dev/null
AUTH="Authorization: Bearer $KEY"

JOB=$(curl -fsS -X POST -H "$AUTH" -H 'Content-Type: application/json' \
	-d '{"name":"bench job","description":"Bench job","externalId":"EXT-1"}' "http://$ADDR/api/v1/jobs" | jq -r .jobId)
SIZE_PR=$(curl -fsS -H "$AUTH" "http://$ADDR/api/v1/jobs/$JOB" | wc -c)
SIZE_BARE=$(curl -fsS "http://$BARE_ADDR/api/v1/jobs/$JOB" | wc -c)
log "job $JOB: planreview answers $SIZE_PR bytes, bare $SIZE_BARE bytes"

TCK=$(getconf CLK_TCK)
cputicks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime + stime

wrk_run() { # wrk_run OUTFILE PID ARGS...: run wrk, keep its RESULT line plus
	# the server's CPU time per request (less sensitive to a shared
	# machine's noise than throughput)
	local out=$1 pid=$2
	shift 2
	local c0 c1 line n
	c0=$(cputicks "$pid")
	wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency "$@" >"$WORK/wrk.txt" 2>&1 || { cat "$WORK/wrk.txt" >&2; exit 1; }
	c1=$(cputicks "$pid")
	line=$(grep '^RESULT' "$WORK/wrk.txt")
	n=$(field requests "$line")
	line="$line server_cpu_us=$(((c1 - c0) * 1000000 / TCK / n))"
	echo "$line" >>"$out"
	echo "$line" >&2
}

# 1. GET: interleave planreview and bare so drift in the machine's load
# hits both alike.
: >"$WORK/get_pr" && : >"$WORK/get_bare"
for i in $(seq "$RUNS"); do
	log "GET run $i: planreview"
	wrk_run "$WORK/get_pr" "$SERVER_PID" -s "$ROOT/bench/report.lua" -H "$AUTH" "http://$ADDR/api/v1/jobs/$JOB"
	log "GET run $i: bare"
	wrk_run "$WORK/get_bare" "$BARE_PID" -s "$ROOT/bench/report.lua" "http://$BARE_ADDR/api/v1/jobs/$JOB"
done

# 1b. GET latency at a paced load (at most ~5,000 req/s: 64 connections,
# 12 ms pause each), where a p99 target is meaningful: at saturation a
# closed loop's latency is just connections / throughput.
: >"$WORK/paced_pr" && : >"$WORK/paced_bare"
for i in $(seq "$RUNS"); do
	log "paced GET run $i: planreview"
	wrk_run "$WORK/paced_pr" "$SERVER_PID" -s "$ROOT/bench/paced.lua" -H "$AUTH" "http://$ADDR/api/v1/jobs/$JOB"
	log "paced GET run $i: bare"
	wrk_run "$WORK/paced_bare" "$BARE_PID" -s "$ROOT/bench/paced.lua" "http://$BARE_ADDR/api/v1/jobs/$JOB"
done

# 2. POST /jobs.
: >"$WORK/post"
for i in $(seq "$RUNS"); do
	log "POST run $i"
	wrk_run "$WORK/post" "$SERVER_PID" -s "$ROOT/bench/post_job.lua" -H "$AUTH" "http://$ADDR/api/v1/jobs"
done
JOBS_TOTAL=$(curl -fsS -H "$AUTH" "http://$ADDR/api/v1/jobs?limit=1" | jq '.jobs | length')
[ "$JOBS_TOTAL" = 1 ] || { log "job listing failed after POST runs"; exit 1; }

# 3. Upload vs cp. The source file lives in the same folder tree (same disk)
# as the data folder, and is in the page cache for every contender.
SRC="$WORK/upload.pdf"
{ printf '%%PDF-1.7\n'; head -c $((UPLOAD_BYTES - 9)) /dev/urandom; } >"$SRC"
cat "$SRC" >/dev/null
# settle: every timed contender starts from the same state: dirty pages
# written, then SETTLE seconds idle. On this VM the cost of writing new
# page cache depends on how recently the guest freed memory (pages it
# handed back to the host fault in slowly), so cp's time swings up to 8x
# with whatever ran just before it.
SETTLE=${SETTLE:-2}
settle() { sync; sleep "$SETTLE"; }
rss() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$SERVER_PID/status"; } # kB
timed() { # timed OUTFILE CMD...: settle, then append the command's wall time
	local out=$1 t0 t1
	shift
	[ -n "${SETTLED:-}" ] || settle
	t0=$(now)
	"$@"
	t1=$(now)
	echo "RESULT secs=$(echo "$t1 - $t0" | bc -l)" | tee -a "$out" >&2
}
do_upload() {
	local reg url resp t0 t1 secs before hwm0 after hwm1 peak sampler
	reg=$(curl -fsS -X POST -H "$AUTH" -H 'Content-Type: application/json' \
		-d "{\"fileName\":\"big-$1.pdf\",\"fileSize\":$UPLOAD_BYTES,\"contentType\":\"application/pdf\"}" \
		"http://$ADDR/api/v1/jobs/$JOB/files")
	url=$(jq -r .uploadUrl <<<"$reg")
	settle
	before=$(rss VmRSS)
	hwm0=$(rss VmHWM)
	: >"$WORK/rss_samples"
	(
		for _ in $(seq 3000); do # at most 60 s of samples
			rss VmRSS >>"$WORK/rss_samples" 2>/dev/null || exit 0
			sleep 0.02
		done
	) &
	sampler=$!
	t0=$(now)
	resp=$(curl -fsS -X PUT -H 'Content-Type: application/pdf' -H 'Expect:' -T "$SRC" "$url")
	t1=$(now)
	kill "$sampler" 2>/dev/null || true
	wait "$sampler" 2>/dev/null || true
	after=$(rss VmRSS)
	hwm1=$(rss VmHWM)
	peak=$(sort -n "$WORK/rss_samples" | tail -1)
	[ "$(jq -r .size <<<"$resp")" = "$UPLOAD_BYTES" ] || { log "upload failed: $resp"; exit 1; }
	secs=$(echo "$t1 - $t0" | bc -l)
	echo "RESULT secs=$secs rss_before_kb=$before rss_peak_kb=$peak rss_after_kb=$after growth_kb=$((peak > after ? peak - before : after - before)) hwm_before_kb=$hwm0 hwm_after_kb=$hwm1" | tee -a "$WORK/upload" >&2
}
do_sink() { # the network half: the same curl PUT into bench/bare's sink
	local resp t0 t1
	settle
	t0=$(now)
	resp=$(curl -fsS -X PUT -H 'Content-Type: application/pdf' -H 'Expect:' -T "$SRC" "http://$BARE_ADDR/sink")
	t1=$(now)
	[ "$(jq -r .size <<<"$resp")" = "$UPLOAD_BYTES" ] || { log "sink upload failed: $resp"; exit 1; }
	echo "RESULT secs=$(echo "$t1 - $t0" | bc -l)" | tee -a "$WORK/sink" >&2
}
do_copies() {
	timed "$WORK/cp" cp "$SRC" "$WORK/cp-$1.pdf"
	rm -f "$WORK/cp-$1.pdf"
	# cp again right after 100 MB of page cache was freed (see settle):
	# pages the guest just freed are cheap to reuse. This is cp at its
	# fastest on this VM.
	settle
	cp "$SRC" "$WORK/cpw-prep.pdf" && rm -f "$WORK/cpw-prep.pdf"
	SETTLED=1 timed "$WORK/cpwarm" cp "$SRC" "$WORK/cpw-$1.pdf"
	rm -f "$WORK/cpw-$1.pdf"
	timed "$WORK/cpsync" sh -c 'cp "$1" "$2" && sync "$2"' sh "$SRC" "$WORK/cps-$1.pdf"
	rm -f "$WORK/cps-$1.pdf"
	# A user-space copy with fsync: read and write through 1 MB buffers as
	# the server does, without the network and the hash.
	timed "$WORK/dd" dd if="$SRC" of="$WORK/dd-$1.pdf" bs=1M conv=fsync status=none
	rm -f "$WORK/dd-$1.pdf"
}
: >"$WORK/upload" && : >"$WORK/cp" && : >"$WORK/cpwarm" && : >"$WORK/cpsync" && : >"$WORK/dd" && : >"$WORK/sink"
UPLOAD_RUNS=${UPLOAD_RUNS:-$((RUNS < 5 ? 5 : RUNS))}
for i in $(seq "$UPLOAD_RUNS"); do
	log "upload run $i"
	if ((i % 2)); then # alternate the order so neither side always goes first
		do_upload "$i"
		do_copies "$i"
		do_sink
	else
		do_sink
		do_copies "$i"
		do_upload "$i"
	fi
done

med() { # med FILE FIELD
	while read -r line; do field "$2" "$line"; done <"$1" | median
}
ratio() { echo "scale=3; $1 / $2" | bc -l; }
fmt() { printf "%.${2:-1}f" "$1"; }

GET_PR=$(med "$WORK/get_pr" rps)
GET_BARE=$(med "$WORK/get_bare" rps)
P99_PR=$(med "$WORK/get_pr" p99_ms)
P99_BARE=$(med "$WORK/get_bare" p99_ms)
P50_PR=$(med "$WORK/get_pr" p50_ms)
P50_BARE=$(med "$WORK/get_bare" p50_ms)
PACED_RPS_PR=$(med "$WORK/paced_pr" rps)
PACED_RPS_BARE=$(med "$WORK/paced_bare" rps)
PACED_P50_PR=$(med "$WORK/paced_pr" p50_ms)
PACED_P99_PR=$(med "$WORK/paced_pr" p99_ms)
PACED_P50_BARE=$(med "$WORK/paced_bare" p50_ms)
PACED_P99_BARE=$(med "$WORK/paced_bare" p99_ms)
CPU_PR=$(med "$WORK/get_pr" server_cpu_us)
CPU_BARE=$(med "$WORK/get_bare" server_cpu_us)
CPU_POST=$(med "$WORK/post" server_cpu_us)
POST=$(med "$WORK/post" rps)
P99_POST=$(med "$WORK/post" p99_ms)
UP=$(med "$WORK/upload" secs)
CP=$(med "$WORK/cp" secs)
CPW=$(med "$WORK/cpwarm" secs)
CPS=$(med "$WORK/cpsync" secs)
DD=$(med "$WORK/dd" secs)
SINK=$(med "$WORK/sink" secs)
GROWTH=$(printf "%.0f" "$(med "$WORK/upload" growth_kb)")
GROWTH_MAX=$(while read -r l; do field growth_kb "$l"; done <"$WORK/upload" | sort -n | tail -1)
ERRS=$(cat "$WORK/get_pr" "$WORK/get_bare" "$WORK/paced_pr" "$WORK/paced_bare" "$WORK/post" | while read -r l; do echo $(($(field non2xx "$l") + $(field sockerr "$l"))); done | paste -sd+ | bc)
mbps() { echo "$UPLOAD_BYTES / $1 / 1000000" | bc -l; }

echo
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  nproc: $(nproc)  go: $(go version | awk '{print $3}')  wrk runs: $RUNS x $DURATION, wrk -t$THREADS -c$CONNS  upload runs: $UPLOAD_RUNS  log level: ${PLANREVIEW_LOG_LEVEL:-info}"
echo "load average before report: $(cut -d' ' -f1-3 /proc/loadavg)  non-2xx + socket errors over all wrk runs: $ERRS"
echo "GET body: planreview $SIZE_PR bytes, bare $SIZE_BARE bytes"
echo
echo "| Measurement | planreview (median) | baseline (median) | ratio | target |"
echo "|---|---|---|---|---|"
echo "| GET /api/v1/jobs/{id} throughput | $(fmt "$GET_PR" 0) req/s | bare net/http $(fmt "$GET_BARE" 0) req/s | $(ratio "$GET_PR" "$GET_BARE") | >= 0.50 |"
echo "| GET p50 / p99 at saturation | $(fmt "$P50_PR" 2) / $(fmt "$P99_PR" 2) ms | bare $(fmt "$P50_BARE" 2) / $(fmt "$P99_BARE" 2) ms | | p99 < 5 ms |"
echo "| GET p50 / p99 paced (64 conns, 12 ms pause each) | $(fmt "$PACED_P50_PR" 2) / $(fmt "$PACED_P99_PR" 2) ms at $(fmt "$PACED_RPS_PR" 0) req/s | bare $(fmt "$PACED_P50_BARE" 2) / $(fmt "$PACED_P99_BARE" 2) ms at $(fmt "$PACED_RPS_BARE" 0) req/s | | p99 < 5 ms |"
echo "| GET server CPU per request | $(fmt "$CPU_PR" 0) us | bare $(fmt "$CPU_BARE" 0) us | $(ratio "$CPU_BARE" "$CPU_PR") (bare/planreview) | |"
echo "| POST /api/v1/jobs throughput ($CONNS conns) | $(fmt "$POST" 0) jobs/s (p99 $(fmt "$P99_POST" 1) ms, $(fmt "$CPU_POST" 0) us server CPU/job) | | | >= 2000 jobs/s |"
echo "| 100 MB upload | $(fmt "$UP" 3) s = $(fmt "$(mbps "$UP")" 0) MB/s | cp $(fmt "$CP" 3) s = $(fmt "$(mbps "$CP")" 0) MB/s | $(ratio "$CP" "$UP") of cp | >= 0.70 of cp |"
echo "| 100 MB upload vs cp into just-freed page cache | | cp $(fmt "$CPW" 3) s = $(fmt "$(mbps "$CPW")" 0) MB/s | $(ratio "$CPW" "$UP") of cp | |"
echo "| 100 MB upload vs cp + sync | | cp+sync $(fmt "$CPS" 3) s = $(fmt "$(mbps "$CPS")" 0) MB/s | $(ratio "$CPS" "$UP") of cp+sync | |"
echo "| 100 MB upload vs dd bs=1M conv=fsync | | dd $(fmt "$DD" 3) s = $(fmt "$(mbps "$DD")" 0) MB/s | $(ratio "$DD" "$UP") of dd | |"
echo "| 100 MB upload vs the same curl PUT into bare's sink (network only) | | sink $(fmt "$SINK" 3) s = $(fmt "$(mbps "$SINK")" 0) MB/s | $(ratio "$SINK" "$UP") of sink | |"
echo "| server RSS growth during upload | median $((GROWTH / 1024)) MB, max $((GROWTH_MAX / 1024)) MB | | | < 32 MB |"
echo
echo "Per-run lines:"
for f in get_pr get_bare paced_pr paced_bare post upload cp cpwarm cpsync dd sink; do sed "s/^RESULT/$f/" "$WORK/$f"; done
