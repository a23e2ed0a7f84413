// What charging agent turns costs: turns per second of the built-in local agent (no step delay)
// with billing off and on, in one process on one database, phases interleaved (off, on, off, on, …)
// so drift of the machine hits both alike. Each turn starts as a sent message starts one: the todo
// moves into RUNNING through the lifecycle (changeTodo → setStatus), which with billing on asks
// the start check (assertCanStartTurn); every finished turn is charged in the transaction that
// ends it (chargeTurn). Besides turns per second it counts the SQL statements per turn of each
// phase (the database's driver adapter counts them, server/db/statement-count.ts), which do not
// depend on the machine's load, and the CPU time of this process per turn (with the embedded
// database the database runs in it too), which depends on it far less than turns per second.
// Target: billing costs at most 10%.
//
//   npx tsx bench/billing.ts [--turns 200] [--rounds 3] [--pg]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { liveStatementCounts } from "../server/db/statement-count.ts";
import { setLogLevel } from "../server/log.ts";
import { changeTodo, setStatus } from "../server/services/todos/lifecycle.ts";
import { createTestUser, startTestRuntime } from "../server/testing/runtime.ts";

const { values: opts } = parseArgs({
  options: {
    turns: { type: "string", default: "200" },
    rounds: { type: "string", default: "3" },
    pg: { type: "boolean", default: false },
  },
});
const TURNS = Number(opts.turns);
const ROUNDS = Number(opts.rounds);

setLogLevel("silent");
// The statement counter wraps the driver adapter when BENCH_STATEMENTS_FILE is set at open.
const countsDir = mkdtempSync(path.join(tmpdir(), "bench-billing-"));
process.env.BENCH_STATEMENTS_FILE = path.join(countsDir, "statements.json");
const rt = await startTestRuntime({ database: opts.pg ? "postgres" : "pglite", env: { AGENT_STEP_MS: "0", AGENT_MAX_CONCURRENT: "8", AGENT_MAX_CONCURRENT_PER_USER: "8" } });
const counts = liveStatementCounts();
if (!counts) throw new Error("statement counter not installed");

type Phase = { turnsPerSecond: number; cpuMsPerTurn: number; statementsPerTurn: number; transactionsPerTurn: number };

async function phase(billing: boolean): Promise<Phase> {
  rt.runtime.config.billingEnabled = billing;
  // One user per todo: each has its own row lock and windows (a plan's allowance is not the point).
  const todos = [];
  for (let i = 0; i < TURNS; i++) {
    const user = await createTestUser(rt.prisma);
    const project = await rt.prisma.project.create({ data: { ownerId: user.id, name: "Bench" } });
    const content = `Bench turn ${i}:\n- one\n- two`;
    const todo = await rt.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content, status: "READY" } });
    await rt.prisma.message.create({ data: { todoId: todo.id, role: "user", content, state: "PENDING" } });
    todos.push(todo);
  }
  const before = { ...counts! };
  const cpu = process.cpuUsage();
  const started = performance.now();
  // Into RUNNING as a sent message moves it (the start check with billing on); the turn starts after the commit.
  for (const t of todos) await changeTodo(t.id, (tx, todo, fx) => setStatus(tx, todo, fx, "RUNNING"));
  await rt.runtime.agent.idle();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const after = { ...counts! };
  const done = await rt.prisma.todo.count({ where: { id: { in: todos.map((t) => t.id) }, status: "READY" } });
  if (done !== TURNS) throw new Error(`only ${done} of ${TURNS} turns ended READY`);
  const charged = await rt.prisma.usageRecord.count({ where: { todoId: { in: todos.map((t) => t.id) } } });
  if (charged !== (billing ? TURNS : 0)) throw new Error(`billing ${billing ? "on" : "off"}: ${charged} turns charged`);
  return { turnsPerSecond: TURNS / seconds, cpuMsPerTurn: (used.user + used.system) / 1000 / TURNS, statementsPerTurn: (after.statements - before.statements) / TURNS, transactionsPerTurn: (after.transactions - before.transactions) / TURNS };
}

try {
  await phase(false); // warm-up
  const off: Phase[] = [];
  const on: Phase[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    off.push(await phase(false));
    on.push(await phase(true));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const mOff = median(off.map((p) => p.turnsPerSecond));
  const mOn = median(on.map((p) => p.turnsPerSecond));
  const show = (ps: Phase[]) =>
    `${ps.map((p) => p.turnsPerSecond.toFixed(1)).join(", ")} turns/s (median ${median(ps.map((p) => p.turnsPerSecond)).toFixed(1)}); CPU ${ps.map((p) => p.cpuMsPerTurn.toFixed(1)).join(", ")} ms/turn (median ${median(ps.map((p) => p.cpuMsPerTurn)).toFixed(1)}); ${median(ps.map((p) => p.statementsPerTurn)).toFixed(2)} statements, ${median(ps.map((p) => p.transactionsPerTurn)).toFixed(2)} transactions per turn`;
  console.log(`billing benchmark: ${TURNS} turns per phase, ${ROUNDS} rounds, ${opts.pg ? "PostgreSQL" : "embedded database"}, AGENT_STEP_MS 0`);
  console.log(`  billing off: ${show(off)}`);
  console.log(`  billing on:  ${show(on)}`);
  console.log(`  per-round ratio on/off: ${on.map((p, i) => (p.turnsPerSecond / off[i]!.turnsPerSecond).toFixed(3)).join(", ")}`);
  const cOff = median(off.map((p) => p.cpuMsPerTurn));
  const cOn = median(on.map((p) => p.cpuMsPerTurn));
  console.log(`  per-round CPU ratio on/off: ${on.map((p, i) => (p.cpuMsPerTurn / off[i]!.cpuMsPerTurn).toFixed(3)).join(", ")}`);
  console.log(`  cost of billing: ${(((mOff - mOn) / mOff) * 100).toFixed(1)}% fewer turns per second, ${(((cOn - cOff) / cOn) * 100).toFixed(1)}% of this process's CPU per turn${opts.pg ? " (PostgreSQL's own CPU not included)" : ""} (target ≤ 10%); +${(median(on.map((p) => p.statementsPerTurn)) - median(off.map((p) => p.statementsPerTurn))).toFixed(2)} statements per turn`);
} finally {
  await rt.close();
  rmSync(countsDir, { recursive: true, force: true });
}
