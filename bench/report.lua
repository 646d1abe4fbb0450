-- Prints one machine-readable line after a wrk run; bench/api.sh parses it.
-- Include from another script with dofile, or use alone for plain GETs.
function done(summary, latency, requests)
  local secs = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "RESULT rps=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f requests=%d non2xx=%d sockerr=%d\n",
    summary.requests / secs,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    summary.requests, e.status, e.connect + e.read + e.write + e.timeout))
end
