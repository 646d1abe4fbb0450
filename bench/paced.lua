-- Paced GETs: each connection waits PLANREVIEW_BENCH_PACE_MS (default 12)
-- between requests, so 64 connections offer at most ~5,000 req/s instead
-- of saturating the server. wrk's latency then is the server's answer time
-- at that load, not the queueing of a closed loop at its limit.
local pace = tonumber(os.getenv("PLANREVIEW_BENCH_PACE_MS") or "12")

function delay()
  return pace
end

dofile(os.getenv("PLANREVIEW_BENCH_DIR") .. "/report.lua")
