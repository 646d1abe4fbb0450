package metrics

import (
	"bytes"
	"math"
	"os"
	"strconv"
	"strings"
)

// The process metrics, under the Prometheus clients' names and help texts,
// read from /proc/self at scrape time. A file that cannot be read leaves
// its series out of that scrape.

var (
	cpuDesc        = desc{name: "process_cpu_seconds_total", kind: kindCounter, help: "Total user and system CPU time spent in seconds."}
	openFDsDesc    = desc{name: "process_open_fds", kind: kindGauge, help: "Number of open file descriptors."}
	maxFDsDesc     = desc{name: "process_max_fds", kind: kindGauge, help: "Maximum number of open file descriptors."}
	virtualDesc    = desc{name: "process_virtual_memory_bytes", kind: kindGauge, help: "Virtual memory size in bytes."}
	virtualMaxDesc = desc{name: "process_virtual_memory_max_bytes", kind: kindGauge, help: "Maximum amount of virtual memory available in bytes."}
	residentDesc   = desc{name: "process_resident_memory_bytes", kind: kindGauge, help: "Resident memory size in bytes."}
	startTimeDesc  = desc{name: "process_start_time_seconds", kind: kindGauge, help: "Start time of the process since unix epoch in seconds."}
)

// userHZ is the unit of the CPU times in /proc (USER_HZ): 100 on every
// Linux architecture Go supports.
const userHZ = 100

func collectProcess(s *scrape) {
	if stat, err := os.ReadFile("/proc/self/stat"); err == nil {
		collectStat(s, stat)
	}
	if fds, err := os.Open("/proc/self/fd"); err == nil {
		names, err := fds.Readdirnames(-1)
		fds.Close()
		if err == nil {
			s.gaugeValue(&openFDsDesc, float64(len(names)))
		}
	}
	if limits, err := os.ReadFile("/proc/self/limits"); err == nil {
		if v, ok := softLimit(limits, "Max open files"); ok {
			s.gaugeValue(&maxFDsDesc, v)
		}
		if v, ok := softLimit(limits, "Max address space"); ok {
			s.gaugeValue(&virtualMaxDesc, v)
		}
	}
}

// collectStat reads CPU time, memory and start time from /proc/self/stat
// (proc(5)): the fields after the command name, which is in parentheses
// and may itself hold spaces and parentheses.
func collectStat(s *scrape, stat []byte) {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return
	}
	fields := strings.Fields(string(stat[end+1:]))
	// fields[0] is field 3 of proc(5) (state).
	const utime, stime, starttime, vsize, rss = 14 - 3, 15 - 3, 22 - 3, 23 - 3, 24 - 3
	if len(fields) <= rss {
		return
	}
	num := func(i int) (float64, bool) {
		v, err := strconv.ParseUint(fields[i], 10, 64)
		return float64(v), err == nil
	}
	u, okU := num(utime)
	st, okS := num(stime)
	if okU && okS {
		s.add(&cpuDesc, series{value: (u + st) / userHZ})
	}
	if v, ok := num(vsize); ok {
		s.gaugeValue(&virtualDesc, v)
	}
	if v, ok := num(rss); ok {
		s.gaugeValue(&residentDesc, v*float64(os.Getpagesize()))
	}
	if ticks, ok := num(starttime); ok {
		if boot, ok := bootTime(); ok {
			s.gaugeValue(&startTimeDesc, boot+ticks/userHZ)
		}
	}
}

// bootTime is when the machine booted (Unix seconds), from /proc/stat.
func bootTime() (float64, bool) {
	stat, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(stat)) {
		if rest, ok := strings.CutPrefix(line, "btime "); ok {
			v, err := strconv.ParseUint(strings.TrimSpace(rest), 10, 64)
			return float64(v), err == nil
		}
	}
	return 0, false
}

// softLimit is the soft limit of one row of /proc/self/limits;
// "unlimited" is the largest uint64, as the Prometheus clients report it.
func softLimit(limits []byte, row string) (float64, bool) {
	for line := range strings.Lines(string(limits)) {
		rest, ok := strings.CutPrefix(line, row)
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0, false
		}
		if fields[0] == "unlimited" {
			return math.MaxUint64, true
		}
		v, err := strconv.ParseUint(fields[0], 10, 64)
		return float64(v), err == nil
	}
	return 0, false
}
