-- wrk's requests for the HTTP benchmark (scripts/http_bench.py):
--   wrk ... -s http_wrk.lua URL -- get             GET /
--   wrk ... -s http_wrk.lua URL -- post 1024       POST /echo with a body of that many bytes
--   wrk ... -s http_wrk.lua URL -- pipeline 16     GET / sent that many at a time on each connection
-- and one line at the end that the runner reads:
--   requests=N duration_us=N p50_us=N p99_us=N errors=N
-- (pipelined: every response counts as a request; a latency is a batch's).
local batch

function init(args)
  local mode, count = args[1] or "get", tonumber(args[2] or "0")
  if mode == "post" then
    wrk.headers["Content-Type"] = "application/octet-stream"
    batch = wrk.format("POST", "/echo", nil, string.rep("x", count))
  elseif mode == "pipeline" then
    local requests = {}
    for i = 1, count do
      requests[i] = wrk.format("GET", "/")
    end
    batch = table.concat(requests)
  else
    batch = wrk.format("GET", "/")
  end
end

function request()
  return batch
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("requests=%d duration_us=%d p50_us=%d p99_us=%d errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
