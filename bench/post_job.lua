-- POST /api/v1/jobs with a JSON body; the bearer key comes from -H.
-- Each request carries a distinct name so no two bodies are equal.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

local counter = 0
local next_id = 0
thread_id = 0 -- a global: setup() sets it in each thread's own state

function setup(thread)
  thread:set("thread_id", next_id)
  next_id = next_id + 1
end

function request()
  counter = counter + 1
  local body = string.format(
    '{"name":"bench job %d-%d","description":"Benchmark job created by bench/api.sh","externalId":"B-%d-%d"}',
    thread_id, counter, thread_id, counter)
  return wrk.format(nil, nil, nil, body)
end

dofile(os.getenv("PLANREVIEW_BENCH_DIR") .. "/report.lua")
