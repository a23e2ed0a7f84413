// What charging agent turns costs: turns per second of the built-in local agent (no step delay)
// with billing off and on, in one process on one embedded database, phases interleaved
// (off, on, off, on, …) so drift of the machine hits both alike. Billing on = every finished turn
// is charged in the transaction that ends it (user row lock, three window sums, UsageRecord) and
// every start is checked (assertTurnAllowed). Target: billing costs at most 10%.
//
//   npx tsx bench/billing.ts [--turns 200] [--rounds 3] [--concurrency 8]
import { parseArgs } from "node:util";
import { setLogLevel } from "../server/log.ts";
import { createTestUser, createWaitingTodo, startTestRuntime } from "../server/testing/runtime.ts";

const { values: opts } = parseArgs({
  options: {
    turns: { type: "string", default: "200" },
    rounds: { type: "string", default: "3" },
  },
});
const TURNS = Number(opts.turns);
const ROUNDS = Number(opts.rounds);

setLogLevel("silent");
const rt = await startTestRuntime({ env: { AGENT_STEP_MS: "0", AGENT_MAX_CONCURRENT: "8", AGENT_MAX_CONCURRENT_PER_USER: "8" } });

async function phase(billing: boolean): Promise<number> {
  rt.runtime.config.billingEnabled = billing;
  // One user per todo: each has its own row lock and windows (a plan's allowance is not the point).
  const todos = [];
  for (let i = 0; i < TURNS; i++) {
    const user = await createTestUser(rt.prisma);
    const project = await rt.prisma.project.create({ data: { ownerId: user.id, name: "Bench" } });
    todos.push(await createWaitingTodo(rt.prisma, { projectId: project.id, userId: user.id }, `Bench turn ${i}:\n- one\n- two`));
  }
  const started = performance.now();
  for (const t of todos) rt.runtime.agent.start(t.id);
  await rt.runtime.agent.idle();
  const seconds = (performance.now() - started) / 1000;
  const done = await rt.prisma.todo.count({ where: { id: { in: todos.map((t) => t.id) }, status: "READY" } });
  if (done !== TURNS) throw new Error(`only ${done} of ${TURNS} turns ended READY`);
  const charged = await rt.prisma.usageRecord.count({ where: { todoId: { in: todos.map((t) => t.id) } } });
  if (charged !== (billing ? TURNS : 0)) throw new Error(`billing ${billing ? "on" : "off"}: ${charged} turns charged`);
  return TURNS / seconds;
}

await phase(false); // warm-up
const off: number[] = [];
const on: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  off.push(await phase(false));
  on.push(await phase(true));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mOff = median(off);
const mOn = median(on);
console.log(`billing benchmark: ${TURNS} turns per phase, ${ROUNDS} rounds, embedded database, AGENT_STEP_MS 0`);
console.log(`  billing off: ${off.map((x) => x.toFixed(1)).join(", ")} turns/s (median ${mOff.toFixed(1)})`);
console.log(`  billing on:  ${on.map((x) => x.toFixed(1)).join(", ")} turns/s (median ${mOn.toFixed(1)})`);
console.log(`  cost of billing: ${(((mOff - mOn) / mOff) * 100).toFixed(1)}% fewer turns per second (target ≤ 10%)`);
await rt.close();
