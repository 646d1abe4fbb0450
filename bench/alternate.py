#!/usr/bin/env python3
"""Alternating runs of several commands on one file, medians and ratios.

Each round runs every command once, in the order given, so the machine's
drift (load, other tenants of the host) falls on all of them alike. Wall
time is measured around the process, CPU time (user + system) from the
children's rusage; the last command is the reference the ratios are taken
against (pdftotext -bbox for the speed targets).

Usage (from the repository root):
  bench/alternate.py RUNS FILE.pdf "name=command {f}" ... "poppler=pdftotext -bbox {f} /dev/null"

  e.g. bench/alternate.py 21 ../../shared/corpus/ca_calgary_sample_dp_bp_house_26p.pdf \\
         "before=/tmp/planreview-before inspect --sheets {f}" \\
         "after=/tmp/planreview-after inspect --sheets {f}" \\
         "poppler=pdftotext -bbox {f} /dev/null"
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    runs, path = int(sys.argv[1]), sys.argv[2]
    specs = [s.split("=", 1) for s in sys.argv[3:]]
    times = {name: ([], []) for name, _ in specs}
    with open(os.devnull, "w") as null:
        for _, cmd in specs:  # warm the page cache, check each command runs
            subprocess.run(cmd.format(f=path).split(), stdout=null, stderr=null, check=False)
        for _ in range(runs):
            for name, cmd in specs:
                r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
                subprocess.run(cmd.format(f=path).split(), stdout=null, stderr=null, check=False)
                t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
                times[name][0].append(t1 - t0)
                times[name][1].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    ref = specs[-1][0]
    ref_wall, ref_cpu = statistics.median(times[ref][0]), statistics.median(times[ref][1])
    print(f"{os.path.basename(path)}: {runs} alternating runs, medians; load {os.getloadavg()[0]:.2f}")
    for name, _ in specs:
        wall, cpu = statistics.median(times[name][0]), statistics.median(times[name][1])
        print(f"  {name:10s} wall {wall * 1000:7.1f} ms  cpu {cpu * 1000:7.1f} ms  "
              f"wall/{ref} {wall / ref_wall:.2f}x  cpu/{ref} {cpu / ref_cpu:.2f}x")


if __name__ == "__main__":
    main()
