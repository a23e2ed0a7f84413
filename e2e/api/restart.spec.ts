import { execFile, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { expect, request as pwRequest, test } from "@playwright/test";
import { ownPort, startOwnServer, waitUp } from "../support/own-server";

// A server of this test's own (embedded database), killed hard and started again on the same data.
const run = promisify(execFile);
const PORT = ownPort(19);
const BASE = `http://localhost:${PORT}`;

test.describe.configure({ mode: "serial", timeout: 180_000 });

function startServer(dataDir: string): ChildProcess {
  return startOwnServer(PORT, dataDir, { AGENT_STEP_MS: "150", AUTH_SECRET: "restart-test-secret-0123456789" });
}

async function killHard(child: ChildProcess) {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}

test("a turn cut by a crash resumes after restart; a scheduled message due meanwhile fires", async ({}, info) => {
  test.skip(info.project.name !== "api-embedded", "one server of its own is enough");
  const dataDir = info.outputPath("data");
  let server = startServer(dataDir);
  try {
    await waitUp(BASE);
    const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/user-create.ts", "--email", `restart-${Date.now()}@e2e.example.com`], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
    });
    const { apiKey } = JSON.parse(stdout) as { apiKey: string };
    const api = await pwRequest.newContext({ baseURL: BASE, extraHTTPHeaders: { "x-api-key": apiKey } });
    const project = (await (await api.post("/api/v1/projects", { data: { name: "Crash" } })).json()) as { id: string };
    const todo = (await (await api.post(`/api/v1/projects/${project.id}/todos`, { data: { content: "Survive a crash, please", startProcessing: true } })).json()) as { id: string };
    const later = (await (await api.post(`/api/v1/projects/${project.id}/todos`, { data: { content: "Later" } })).json()) as { id: string };
    const due = Date.now() + 2_500;
    expect((await api.post(`/api/v1/todos/${later.id}/messages`, { data: { content: "fire while down", scheduledAt: due } })).status()).toBe(200);

    // Wait until the reply is half written, then kill the server without warning.
    await expect
      .poll(async () => {
        const t = (await (await api.get(`/api/v1/todos/${todo.id}`)).json()) as { messages: { role: string; content: string }[] };
        return t.messages.find((m) => m.role === "assistant")?.content.length ?? 0;
      }, { timeout: 30_000 })
      .toBeGreaterThan(10);
    await killHard(server);
    await api.dispose();
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now()) + 500));

    server = startServer(dataDir);
    await waitUp(BASE);
    const again = await pwRequest.newContext({ baseURL: BASE, extraHTTPHeaders: { "x-api-key": apiKey } });
    await expect
      .poll(async () => ((await (await again.get(`/api/v1/todos/${todo.id}`)).json()) as { status: string }).status, { timeout: 60_000 })
      .toBe("READY");
    const t = (await (await again.get(`/api/v1/todos/${todo.id}`)).json()) as { messages: { role: string; content: string; state: string }[] };
    const replies = t.messages.filter((m) => m.role === "assistant");
    expect(replies).toHaveLength(1);
    expect(replies[0]!.state).toBe("DONE");
    expect(replies[0]!.content).toMatch(/^On "Survive a crash, please": .+\.$/);

    await expect
      .poll(async () => ((await (await again.get(`/api/v1/todos/${later.id}`)).json()) as { status: string }).status, { timeout: 60_000 })
      .toBe("READY");
    const l = (await (await again.get(`/api/v1/todos/${later.id}`)).json()) as { messages: { role: string; content: string; state: string }[] };
    // The todo's first message waited (PENDING) for a turn; the fired one started it; one reply answers both.
    expect(l.messages.map((m) => [m.role, m.state])).toEqual([
      ["user", "DONE"],
      ["user", "DONE"],
      ["assistant", "DONE"],
    ]);
    await again.dispose();
  } finally {
    await killHard(server).catch(() => undefined);
  }
});
