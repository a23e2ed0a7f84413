import { expect, test } from "@playwright/test";
import { bearer, createUser, type TestUser } from "../support/users";
import { addMessage, createProject, createTodo, getTodo, sleep, waitForReply } from "../support/todos";

// Issue 9 A1: one hostile message must not freeze the server for everyone else. Another user's
// GET /users/profile is timed at idle and while the agent works on hostile messages; the test holds
// the ratio of the medians (never a bound in milliseconds), so a slow or busy machine does not matter.
test.describe.configure({ timeout: 180_000 });

/** The message: one list line of 99,990 spaces ending in a letter (quadratic for the old pattern). */
const HOSTILE = `- a${" ".repeat(99_990)}b`;
/** The same shape in 99 lines short enough to be list items. */
const HOSTILE_LINES = `- a${" ".repeat(995)}b\n`.repeat(99);

const PROBE_EVERY_MS = 100;

/** One GET /users/profile as `u`, its latency in ms (fetch, so nothing queues on the test's side). */
async function probe(u: TestUser): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${u.baseURL}/api/v1/users/profile`, { headers: bearer(u.apiKey) });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return performance.now() - start;
}

/**
 * Probes started every PROBE_EVERY_MS (each without waiting for the one before, so a blocked
 * server delays all of them) until `until` resolves and at least `min` were started.
 */
async function probesDuring(u: TestUser, min: number, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const probes: Promise<number>[] = [];
  while (!done || probes.length < min) {
    probes.push(probe(u));
    await sleep(PROBE_EVERY_MS);
  }
  return Promise.all(probes);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

test("another user's requests stay fast while the agent processes hostile messages (ratio to idle latency)", async ({}, info) => {
  const attacker = await createUser(info, "attacker");
  const bystander = await createUser(info, "bystander");
  const project = await createProject(attacker);
  for (let i = 0; i < 5; i++) await probe(bystander); // warm connections and caches

  const idle = await probesDuring(bystander, 15, Promise.resolve());

  // The hostile todo starts a turn at once; the second hostile message waits for the next turn.
  let todoId = "";
  const processed = (async () => {
    const todo = await createTodo(attacker, project.id, { content: HOSTILE, startProcessing: true });
    todoId = todo.id;
    await addMessage(attacker, todo.id, { content: HOSTILE_LINES });
    await waitForReply(attacker, todo.id, 120_000);
  })();
  const loaded = await probesDuring(bystander, 15, processed);
  await processed;

  const ratio = median(loaded) / median(idle);
  const summary = `median ${median(loaded).toFixed(1)} ms while processing vs ${median(idle).toFixed(1)} ms idle (${ratio.toFixed(1)}×), worst ${Math.max(...loaded).toFixed(0)} ms over ${loaded.length} probes`;
  info.annotations.push({ type: "latency", description: summary });
  expect(ratio, summary).toBeLessThan(5);

  // And the hostile input was answered like any other: the long line is prose, the short lines items.
  const done = await getTodo(attacker, todoId);
  expect(done.status).toBe("READY");
  expect(done.blocks.length).toBe(99);
});
