// A small closed-loop HTTP load generator and the statistics the benchmarks report.
// `concurrency` workers each send one request, wait for the whole response, check it, and send
// the next, over keep-alive connections (one per worker), until `requests` were sent or
// `maxSeconds` passed, whichever comes first. Any failed check stops the run with an error:
// timing a stream of errors would be meaningless.
import http from "node:http";
import { performance } from "node:perf_hooks";

export type Reply = { status: number; body: string };

export type LoadOptions = {
  url: string;
  headers?: Record<string, string>;
  concurrency: number;
  requests: number;
  maxSeconds: number;
  /** Returns a description of what is wrong with a response, or null when it is right. */
  check: (reply: Reply) => string | null;
  /** Share one agent between a warm-up and the measured run so its connections stay open. */
  agent: http.Agent;
  /** A request that takes longer than this fails the run. */
  timeoutMs?: number;
};

export type LoadResult = {
  /** Latency of every completed request, in milliseconds, in completion order. */
  latenciesMs: number[];
  elapsedMs: number;
  /** True when the run stopped at maxSeconds before sending `requests` requests. */
  timedOut: boolean;
};

export type Stats = {
  requests: number;
  seconds: number;
  rps: number;
  meanMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
};

export function keepAliveAgent(concurrency: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
}

function get(url: URL, headers: Record<string, string>, agent: http.Agent, timeoutMs: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: "GET", headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no response within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const url = new URL(o.url);
  const headers = o.headers ?? {};
  const timeoutMs = o.timeoutMs ?? 10_000;
  const latenciesMs: number[] = [];
  let sent = 0;
  let failed = false;
  const t0 = performance.now();
  const deadline = t0 + o.maxSeconds * 1000;

  async function worker(): Promise<void> {
    while (!failed && sent < o.requests && performance.now() < deadline) {
      sent++;
      const start = performance.now();
      let reply: Reply;
      try {
        reply = await get(url, headers, o.agent, timeoutMs);
      } catch (err) {
        failed = true;
        throw new Error(`GET ${o.url} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      const ms = performance.now() - start;
      const problem = o.check(reply);
      if (problem) {
        failed = true;
        throw new Error(`GET ${o.url}: ${problem} (status ${reply.status}, body ${reply.body.slice(0, 300)})`);
      }
      latenciesMs.push(ms);
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker));
  return { latenciesMs, elapsedMs: performance.now() - t0, timedOut: sent < o.requests };
}

/**
 * Nearest-rank percentile of an ascending array: the smallest value such that at least p% of
 * the values are less than or equal to it. p in [0, 100]; p = 0 gives the minimum. NaN when empty.
 */
export function percentile(sortedAsc: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100 (got ${p})`);
  const n = sortedAsc.length;
  if (n === 0) return NaN;
  const rank = Math.ceil((p / 100) * n); // 1-based
  return sortedAsc[Math.min(n, Math.max(1, rank)) - 1]!;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

export function summarize(result: LoadResult): Stats {
  const s = [...result.latenciesMs].sort((a, b) => a - b);
  const seconds = result.elapsedMs / 1000;
  return {
    requests: s.length,
    seconds,
    rps: seconds > 0 ? s.length / seconds : 0,
    meanMs: s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN,
    p50Ms: percentile(s, 50),
    p90Ms: percentile(s, 90),
    p99Ms: percentile(s, 99),
    maxMs: s.length ? s[s.length - 1]! : NaN,
  };
}
