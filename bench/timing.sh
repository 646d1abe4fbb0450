# Shared by the benchmarks that time whole commands (sourced; needs $work,
# a scratch directory).

# measure CMD...: prints "wall_seconds cpu_seconds" (CPU: user + sys) of one
# run; a command that fails is still timed.
measure() {
	/usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$@" >/dev/null 2>&1 || true
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$work/time.txt"
}

# median: the median of the numbers on standard input, one per line.
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# build_release OUT: builds the binary as scripts/release.sh does (no cgo,
# so static; paths trimmed; symbols stripped): the binary that ships is the
# one timed. A cgo build is dynamically linked, and loading libc through
# ld.so added about 5 ms to every command's start.
build_release() { CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w" -o "$1" .; }
