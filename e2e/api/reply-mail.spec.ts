import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type TestInfo } from "@playwright/test";
import { createUser, readOutbox, type TestUser } from "../support/users";
import { addMessage, createProject, createTodo, getTodo, h, okJson, sleep, waitForReply, waitForStatus } from "../support/todos";
import { connect } from "../support/sockets";
import { startBridge } from "../support/bridge";
import { ownPort, startOwnServer, stopOwnServer, waitUp } from "../support/own-server";

// "Email notifications": an agent's reply (or its error) is mailed to the todo's owner when they
// are away, on a server of this test's own whose REPLY_MAIL_DELAY_MS is 500 ms instead of a minute:
// on the embedded database (jobs in process), and in the api-postgres project on PostgreSQL with
// Redis (jobs on BullMQ, whose keyed job ids recur: a todo's second reply must be mailed too).
test.describe.configure({ timeout: 180_000 });

type Target = { base: string; env: Record<string, string> };

function targetOf(info: TestInfo): Target {
  const pg = info.project.metadata?.databaseUrl as string | undefined;
  const redis = info.project.metadata?.redisUrl as string | undefined;
  const port = ownPort(pg ? 29 : 28);
  const base = `http://localhost:${port}`;
  return { base, env: { PORT: String(port), ...(pg && redis ? { DATABASE_URL: pg, REDIS_URL: redis, REDIS_PREFIX: `reply-mail-${Date.now()}` } : {}) } };
}

function startServer(dataDir: string, { base, env }: Target) {
  return startOwnServer(Number(env.PORT), dataDir, {
    ...env,
    APP_URL: base,
    REPLY_MAIL_DELAY_MS: "500",
    AGENT_STEP_MS: "50",
    AGENT_MAX_RETRIES: "0",
    // The OpenAI-compatible stand-in of this run (playwright.config.ts): "[fail]" fails a turn.
    OPENAI_BASE_URL: `http://127.0.0.1:${ownPort(20)}/v1`,
    RATE_LIMITS: "signInIp=1000000/900",
  });
}

/** Every mail to `to` in the outbox, oldest first. */
async function mailsTo(dataDir: string, to: string): Promise<{ subject: string; text: string }[]> {
  const dir = path.join(dataDir, "outbox");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  const mails = await Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), "utf8")) as { to: string; subject: string; text: string }));
  return mails.filter((m) => m.to === to);
}

/** The newest mail to the user once its subject starts with `prefix`. */
async function mailStartingWith(dataDir: string, u: TestUser, prefix: string, timeoutMs = 15_000) {
  let mail = await readOutbox(dataDir, u.email);
  const deadline = Date.now() + timeoutMs;
  while (!mail.subject.startsWith(prefix) && Date.now() < deadline) {
    await sleep(100);
    mail = await readOutbox(dataDir, u.email);
  }
  expect(mail.subject.startsWith(prefix), `the newest mail: ${mail.subject}`).toBe(true);
  return mail;
}

test("an agent's reply, or its wait for a shell command's approval, is mailed to its away owner; not while they are connected, nor with the setting off; an error says why", async ({}, info) => {
  const target = targetOf(info);
  const BASE = target.base;
  const dataDir = await mkdtemp(path.join(tmpdir(), "todo-e2e-reply-mail-"));
  const server = startServer(dataDir, target);
  try {
    await waitUp(BASE);
    const on = { baseURL: BASE, dataDir };

    // Away (no page, no script; only a device's bridge, which runs while nobody looks): a mail
    // half a second after the reply, linking the chat.
    const away = await createUser(info, "reply-away", on);
    const bridge = await startBridge(BASE, away.apiKey);
    const p = await createProject(away, "Picnic");
    const t = await createTodo(away, p.id, { content: "Plan the picnic\nfor Sunday", startProcessing: true });
    const done = await waitForReply(away, t.id);
    const mail = await mailStartingWith(dataDir, away, "Replied:");
    expect(mail.subject).toBe("Replied: Plan the picnic for Sunday");
    expect(mail.text).toContain(`Open the todo: ${BASE}/projects/${p.id}/todos/${t.id}`);
    expect(mail.text).toContain(done.messages.at(-1)!.content.trim().split("\n")[0]!);
    expect(mail.text).toContain(`${BASE}/settings`);
    // The todo's next reply is mailed too (its own job and its own mail, under the same key).
    await addMessage(away, t.id, { content: "And if it rains?" });
    await waitForStatus(away, t.id, "READY");
    await expect.poll(async () => (await mailsTo(dataDir, away.email)).filter((m) => m.subject === "Replied: Plan the picnic for Sunday").length, { timeout: 15_000 }).toBe(2);
    // A shell command the agent proposes waits for the owner: that is mailed too, with the command.
    const sh = await createTodo(away, p.id, { content: "Greet from my machine", agentSettings: { provider: "openai" } });
    await addMessage(away, sh.id, { content: `Say hello [shell ${bridge.workspace}]` });
    const ask = await mailStartingWith(dataDir, away, "Approve?:");
    expect(ask.subject).toBe("Approve?: Greet from my machine");
    expect(ask.text).toContain("The agent waits for you to approve or deny a command");
    expect(ask.text).toContain(`echo hello\n\n(on e2e-box, in ${bridge.workspace})`);
    expect(ask.text).toContain(`${BASE}/projects/${p.id}/todos/${sh.id}`);
    expect((await getTodo(away, sh.id)).status).toBe("RUNNING");
    await bridge.stop();

    // Connected (a script watching with its key): no mail. Once it has gone, the next reply is mailed.
    const watcher = await createUser(info, "reply-watch", on);
    const wp = await createProject(watcher, "Watched");
    const socket = await connect(BASE, { token: watcher.apiKey });
    const wt = await createTodo(watcher, wp.id, { content: "Sort the photos", startProcessing: true });
    await waitForReply(watcher, wt.id);
    await sleep(2_000);
    expect((await readOutbox(dataDir, watcher.email)).subject).toBe("Sign in to Todo Service");
    socket.close();
    await sleep(300);
    await addMessage(watcher, wt.id, { content: "And the videos?" });
    await waitForStatus(watcher, wt.id, "READY");
    expect((await mailStartingWith(dataDir, watcher, "Replied:")).subject).toBe("Replied: Sort the photos");

    // The setting off: no mail.
    const quiet = await createUser(info, "reply-off", on);
    await okJson(await quiet.session.put("/api/v1/settings/user", { headers: h(quiet), data: { emailNotifications: false } }));
    const qp = await createProject(quiet, "Quiet");
    const qt = await createTodo(quiet, qp.id, { content: "Water the plants", startProcessing: true });
    await waitForReply(quiet, qt.id);
    await sleep(2_000);
    expect((await readOutbox(dataDir, quiet.email)).subject).toBe("Sign in to Todo Service");

    // A turn that fails: the mail says it stopped, and why.
    const failing = await createTodo(away, p.id, { content: "Please [fail] now", startProcessing: true, agentSettings: { provider: "openai" } });
    await waitForStatus(away, failing.id, "ERROR");
    const failed = await mailStartingWith(dataDir, away, "Failed:");
    expect(failed.subject).toBe("Failed: Please [fail] now");
    expect(failed.text).toContain("stopped");
    expect(failed.text).toContain(`${BASE}/projects/${p.id}/todos/${failing.id}`);
  } finally {
    await stopOwnServer(server);
  }
});
