// How a server process is started (npm start, npm run cluster, the benches and the end-to-end
// specs that start their own): Node with SERVER_NODE_OPTIONS, then the server's entry through tsx.
//
// --max-semi-space-size: V8's young generation grows to 16 MB per semi-space by default. A request
// allocates its whole life there (Next's request and response objects, Prisma's query and its
// result, the JSON), and with tens of requests in flight a 16 MB space fills several times a
// second: every scavenge copies the requests still in flight, and what survives two is promoted
// and later collected again by a full GC. 64 MB lets most requests finish between scavenges: the
// server's CPU per project_get fell by 5 % at 8 connections and 11 % at 50 (bench/README.md "GC");
// the young generation may then take up to 128 MB instead of 32. V8 reads the size when it sets
// up the heap, so it must be on the command line (or in NODE_OPTIONS): setting it from inside the
// process (v8.setFlagsFromString) has no effect.

/** @type {readonly string[]} */
export const SERVER_NODE_OPTIONS = ["--max-semi-space-size=64"];

/**
 * The arguments of `node` for a server process: the options, tsx, the entry.
 * @param {string} [entry] default server/main.ts (relative to the repository, or absolute)
 * @param {readonly string[]} [options] default SERVER_NODE_OPTIONS (bench/node-options.ts compares others)
 * @returns {string[]}
 */
export function serverNodeArgs(entry = "server/main.ts", options = SERVER_NODE_OPTIONS) {
  return [...options, "--import", "tsx", entry];
}
