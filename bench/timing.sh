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
