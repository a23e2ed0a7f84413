import { spawn } from "node:child_process";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createUser } from "../support/users";
import { startBridge } from "../support/bridge";
import { TURN_TIMEOUT, createProject, addMessage, createTodo, fromTemplate, getTodo, h, listTodos, okJson, waitForStatus, type Block } from "../support/todos";

// Issue 14: the shipped `todo` command as a child process against the real server.

const BIN = path.resolve("cli/todo.mjs");

type Run = { code: number | null; stdout: string; stderr: string };

type RunOptions = {
  /** Called with all of stderr so far, each time more arrives. */
  onStderr?: (text: string) => void;
  /** Close our end of stdout after the first chunk, as `| head` does. */
  stopReadingStdout?: boolean;
};

function todo(args: string[], env: Record<string, string>, { onStderr, stopReadingStdout }: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, TODO_NO_BROWSER: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    if (stopReadingStdout) child.stdout.once("data", () => child.stdout.destroy());
    else child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      onStderr?.(stderr);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

test("login approved through the cookie API, key stored 0600; projects --json; create --watch streams the reply until READY; exit codes", async ({ baseURL }, info) => {
  test.setTimeout(90_000);
  const u = await createUser(info, "cli");
  const dir = await mkdtemp(path.join(tmpdir(), "todo-cli-"));
  const env = { TODO_CONFIG_DIR: dir, TODO_SERVER: baseURL! };

  expect((await todo(["whoami"], env)).code).toBe(3);

  let approved: Promise<unknown> | undefined;
  const login = await todo(["login", "--name", "e2e-box"], env, {
    onStderr: (text) => {
      const m = text.match(/code ([A-Z]{4}-[A-Z]{4})/);
      if (m && !approved) approved = u.session.post("/cookie/v1/cli/login/approve", { data: { userCode: m[1] } }).then((r) => okJson(r));
    },
  });
  expect(login.stderr).toContain(`${baseURL}/device?code=`);
  expect(login.code, login.stderr).toBe(0);
  await approved;
  expect(login.stdout).toContain(u.email);
  const file = path.join(dir, "config.json");
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  const stored = JSON.parse(await readFile(file, "utf8")) as { apiKey: string; server: string };
  expect(stored.apiKey).toMatch(/^tsk_/);
  expect(stored.server).toBe(baseURL);

  const who = await todo(["whoami", "--json"], env);
  expect(JSON.parse(who.stdout)).toMatchObject({ id: u.userId, email: u.email });

  const p = await createProject(u, "From the terminal");
  const projects = JSON.parse((await todo(["projects", "--json"], env)).stdout) as { id: string; name: string }[];
  expect(projects.map((x) => x.id)).toContain(p.id);

  const created = await todo(["create", "Say hello", "--project", p.id, "--watch"], env);
  expect(created.code, created.stderr).toBe(0);
  const id = created.stderr.match(/Created (\S+)/)![1]!;
  const final = await getTodo(u, id);
  expect(final.status).toBe("READY");
  const reply = [...final.messages].reverse().find((m) => m.role === "assistant")!;
  expect(reply.content.length).toBeGreaterThan(0);
  expect(created.stdout.trim()).toBe(reply.content.trim());

  const sent = await todo(["send", id, "And once more", "--watch", "--json"], env);
  expect(sent.code, sent.stderr).toBe(0);
  const after = JSON.parse(sent.stdout) as { id: string; status: string; messages: { role: string }[] };
  expect(after).toMatchObject({ id, status: "READY" });
  expect(after.messages.filter((m) => m.role === "assistant")).toHaveLength(2);

  const listed = JSON.parse((await todo(["list", "--project", p.id, "--json"], env)).stdout) as { items: { id: string }[] };
  expect(listed.items.map((t) => t.id)).toEqual([id]);
  const done = await todo(["status", id, "complete", "--json"], env);
  expect(JSON.parse(done.stdout)).toEqual({ id, status: "DONE" });

  const missing = await todo(["show", "cmissingtodoid00000000000", "--json"], env);
  expect(missing.code).toBe(4);
  expect(JSON.parse(missing.stdout).error.code).toBe("NOT_FOUND");
  expect((await todo(["status", id, "explode"], env)).code).toBe(2);

  const out = await todo(["logout"], env);
  expect(out.code).toBe(0);
  expect(out.stdout).toContain("revoked");
  expect((await u.session.get("/cookie/v1/apikeys")).ok()).toBeTruthy();
  const keys = (await (await u.session.get("/cookie/v1/apikeys")).json()) as { name: string }[];
  expect(keys.map((k) => k.name)).toEqual(["e2e"]);
  expect((await todo(["whoami"], env)).code).toBe(3);
});

test("projects create --default; list pages with a cursor hint; show numbers the checklist; check and uncheck by number and by id; link todos to an item; search; watch; --at; export", async ({ baseURL }, info) => {
  test.setTimeout(90_000);
  const u = await createUser(info, "cli-lists");
  const env = { TODO_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), "todo-cli-")), TODO_SERVER: baseURL!, TODO_API_KEY: u.apiKey };

  const none = await todo(["list"], env);
  expect(none.code).toBe(4);
  expect(none.stderr).toContain("todo projects create");
  const made = await todo(["projects", "create", "Trip", "--description", "Packing", "--default"], env);
  expect(made.code, made.stderr).toBe(0);
  const projectId = made.stdout.match(/Created project (\S+)/)![1]!;
  expect(JSON.parse((await todo(["whoami", "--json"], env)).stdout).defaultProjectId).toBe(projectId);
  expect((await todo(["projects"], env)).stdout).toContain(`${projectId}  Trip  (default)`);
  const other = JSON.parse((await todo(["projects", "create", "Other", "--json"], env)).stdout) as { id: string; name: string; description: string };
  expect(other).toMatchObject({ name: "Other", description: "" });
  expect((await todo(["projects", "create", " "], env)).code).toBe(6);

  // Created in the default project (no --project), the list as the agent's checklist.
  const created = await todo(["create", "Pack:\n- passport\n- charger\n- socks", "--watch"], env);
  expect(created.code, created.stderr).toBe(0);
  const todoId = created.stderr.match(/Created (\S+)/)![1]!;
  const fillers: string[] = [];
  for (let i = 0; i < 2; i++) fillers.push((await createTodo(u, projectId, `filler ${i}`)).id);

  const first = await todo(["list", "--limit", "2"], env);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout.trim().split("\n")).toHaveLength(2);
  const more = first.stderr.match(/More: todo list --project (\S+) --limit 2 --cursor (\d+)/);
  expect(more?.[1]).toBe(projectId);
  const rest = await todo(["list", "--limit", "2", "--cursor", more![2]!, "--json"], env);
  const page = JSON.parse(rest.stdout) as { items: { id: string }[]; nextCursor: number | null };
  expect(page).toEqual({ items: [expect.objectContaining({ id: todoId })], nextCursor: null });
  expect(rest.stderr).not.toContain("More:");
  expect((await todo(["list", "--search", "filler", "--json"], env)).stdout).not.toContain(todoId);
  expect((await todo(["list", "--limit", "lots"], env)).code).toBe(6);

  const shown = await todo(["show", todoId], env);
  expect(shown.stdout).toMatch(/^ {2}1\. \[ \] passport$/m);
  expect(shown.stdout).toMatch(/^ {2}3\. \[ \] socks$/m);
  const checked = await todo(["check", todoId, "2"], env);
  expect(checked.code, checked.stderr).toBe(0);
  expect(checked.stdout).toContain('Checked 2. "charger"');
  const blocks = (await getTodo(u, todoId)).blocks.filter((b) => b.type === "checklist_item");
  expect(blocks.map((b) => b.checked)).toEqual([false, true, false]);
  expect((await todo(["show", todoId], env)).stdout).toMatch(/^ {2}2\. \[x\] charger$/m);

  expect((await todo(["uncheck", todoId, blocks[1]!.id], env)).code).toBe(0);
  expect((await todo(["check", todoId, blocks[2]!.id, "--json"], env)).stdout.trim()).toBe(JSON.stringify({ todoId, blockId: blocks[2]!.id, checked: true }));
  expect((await getTodo(u, todoId)).blocks.filter((b) => b.type === "checklist_item").map((b) => b.checked)).toEqual([false, false, true]);

  // Link todos to an item, by its number, then by its block id: added in order, never twice; show prints them.
  const linked = await todo(["link", todoId, "1", fillers[0]!], env);
  expect(linked.code, linked.stderr).toBe(0);
  expect(linked.stdout).toContain(`Linked ${fillers[0]} to 1. "passport"`);
  expect((await todo(["link", todoId, blocks[0]!.id, fillers[1]!, fillers[0]!, "--json"], env)).stdout.trim()).toBe(JSON.stringify({ todoId, blockId: blocks[0]!.id, subTodoIds: [fillers[1], fillers[0]] }));
  expect((await getTodo(u, todoId)).blocks.find((b) => b.id === blocks[0]!.id)!.subTodoIds).toEqual([fillers[0], fillers[1]]);
  expect((await todo(["show", todoId], env)).stdout).toContain(`passport  → ${fillers[0]}, ${fillers[1]}`);
  // The todo itself, or one that does not exist, is refused and nothing is linked.
  expect((await todo(["link", todoId, "2", todoId], env)).code).toBe(6);
  expect((await todo(["link", todoId, "2", "cmissingtodoid00000000000"], env)).code).toBe(4);
  expect((await getTodo(u, todoId)).blocks.find((b) => b.id === blocks[1]!.id)!.subTodoIds).toEqual([]);

  const found = await todo(["search", "passport"], env);
  expect(found.code, found.stderr).toBe(0);
  expect(found.stdout).toContain(`${todoId}  READY      Trip / Pack: - passport - charger - socks`);
  const foundJson = JSON.parse((await todo(["search", "passport", "--project", other.id, "--json"], env)).stdout) as { exact: unknown[] };
  expect(foundJson.exact).toEqual([]);
  // --todo: the todo's own messages, the matched word in stars; --role; --limit pages with a hint.
  await addMessage(u, todoId, { content: "The passport is in the drawer", startProcessing: false });
  const inTodo = await todo(["search", "passport", "--todo", todoId], env);
  expect(inTodo.code, inTodo.stderr).toBe(0);
  expect(inTodo.stdout).toMatch(/^\S+ {2}user {6}.+\n {4}The \*passport\* is in the drawer\n\S+ {2}/);
  expect(inTodo.stdout).toMatch(/^\S+ {2}user {6}.+\n {4}Pack: - \*passport\* - charger - socks$/m);
  const mine = JSON.parse((await todo(["search", "passport", "--todo", todoId, "--role", "user", "--json"], env)).stdout) as { items: { todoId: string; role: string }[] };
  expect(mine.items.map((h) => [h.todoId, h.role])).toEqual([
    [todoId, "user"],
    [todoId, "user"],
  ]);
  const paged = await todo(["search", "passport", "--todo", todoId, "--role", "user", "--limit", "1"], env);
  expect(paged.stdout).toContain("drawer");
  const next = paged.stderr.match(new RegExp(`More: todo search "passport" --todo ${todoId} --role user --limit 1 --cursor (\\d+)`));
  expect(next, paged.stderr).not.toBeNull();
  const last = await todo(["search", "passport", "--todo", todoId, "--role", "user", "--limit", "1", "--cursor", next![1]!], env);
  expect(last.stdout).toContain("Pack: - *passport*");
  expect(last.stderr).not.toContain("More:");
  expect((await todo(["search", "passport", "--role", "robot"], env)).code).toBe(6);

  // watch: follows a turn started elsewhere (here, a send without --watch) until it ends.
  expect((await todo(["send", todoId, "And the charger?"], env)).code).toBe(0);
  const watched = await todo(["watch", todoId], env);
  expect(watched.code, watched.stderr).toBe(0);
  const replied = await getTodo(u, todoId);
  expect(replied.status).toBe("READY");
  expect(watched.stdout.trim()).toBe([...replied.messages].reverse().find((m) => m.role === "assistant")!.content.trim());

  // --at: scheduled, not started; a time the CLI cannot read, or --at with --watch, is a usage error and sends nothing.
  const before = Date.now();
  const later = await todo(["send", todoId, "Remind me about the socks", "--at", "in 2h", "--json"], env);
  expect(later.code, later.stderr).toBe(0);
  const scheduled = JSON.parse(later.stdout) as { id: string; state: string; scheduledAt: number };
  expect(scheduled.state).toBe("SCHEDULED");
  expect(scheduled.scheduledAt).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
  expect(scheduled.scheduledAt).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);
  expect((await todo(["send", todoId, "never", "--at", "tomorrow"], env)).code).toBe(2);
  expect((await todo(["send", todoId, "never", "--at", "1h", "--watch"], env)).code).toBe(2);
  const sent = (await getTodo(u, todoId)).messages.map((m) => m.content);
  expect(sent).not.toContain("never");
  const year = new Date().getUTCFullYear() + 1;
  const plant = await todo(["create", "Water the plants", "--at", `${year}-06-30T09:00Z`], env);
  expect(plant.code, plant.stderr).toBe(0);
  const plantId = plant.stderr.match(/Created (\S+), scheduled for/)![1]!;
  expect(await getTodo(u, plantId)).toMatchObject({ status: "SCHEDULED", scheduledAt: Date.UTC(year, 5, 30, 9) });

  // upcoming: both scheduled messages, soonest first; a proposal, accepted with status.
  const proposal = await fromTemplate(u, projectId, { content: "Maybe: buy a map", propose: true });
  const upcoming = await todo(["upcoming"], env);
  expect(upcoming.code, upcoming.stderr).toBe(0);
  const lines = upcoming.stdout.trim().split("\n");
  expect(lines[0]).toBe("Scheduled:");
  expect(lines[1]).toMatch(new RegExp(`^${todoId}  .+  Trip / Pack: - passport`));
  expect(lines[2]).toBe("    Remind me about the socks");
  expect(lines[3]).toMatch(new RegExp(`^${plantId}  .+  Trip / Water the plants$`));
  expect(lines.slice(4)).toEqual(["", "Proposed (todo status <id> accept | dismiss):", `${proposal.id}  Trip / Maybe: buy a map`]);
  const accepted = await todo(["status", proposal.id, "accept"], env);
  expect(accepted.code, accepted.stderr).toBe(0);
  expect((await todo(["upcoming"], env)).stdout).not.toContain(proposal.id);

  // export: the account's data streamed to a file only its owner reads (or to stdout).
  const file = path.join(env.TODO_CONFIG_DIR, "mine.json");
  const exported = await todo(["export", "--output", file, "--json"], env);
  expect(exported.code, exported.stderr).toBe(0);
  expect(JSON.parse(exported.stdout)).toEqual({ file, bytes: (await stat(file)).size });
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  const data = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  expect(JSON.stringify(data)).toContain(todoId);
  expect(JSON.stringify(data)).not.toContain(u.apiKey);
  const piped = await todo(["export", "-o", "-"], env);
  expect(piped.code, piped.stderr).toBe(0);
  expect(Object.keys(JSON.parse(piped.stdout) as object)).toEqual(Object.keys(data));
  // A reader that stops early (`| head`) is no error: exit 0, nothing on stderr.
  expect(await todo(["export", "-o", "-"], env, { stopReadingStdout: true })).toEqual({ code: 0, stdout: "", stderr: "" });

  const outOfRange = await todo(["check", todoId, "4"], env);
  expect(outOfRange.code).toBe(4);
  expect(outOfRange.stderr).toContain("has no checklist item 4 (it has 3");
  expect((await todo(["check", todoId, "cmissingblockid0000000000"], env)).code).toBe(4);
});

test("models lists what the server offers; model shows and changes a todo's, keeping its other settings; the next reply is that model's; a bad choice changes nothing; again runs it anew", async ({ baseURL }, info) => {
  const u = await createUser(info, "cli-models");
  const env = { TODO_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), "todo-cli-")), TODO_SERVER: baseURL!, TODO_API_KEY: u.apiKey };
  const p = await createProject(u, "Models");
  const t = await createTodo(u, p.id, { content: "Which model?", agentSettings: { systemPrompt: "Be brief." } });

  const listed = await todo(["models"], env);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toMatch(/^local {2}\(built in, offline\) {2}← default$/m);
  expect(listed.stdout).toMatch(/^ {2}gpt-4\.1-mini {2}\S/m);
  const names = (JSON.parse((await todo(["models", "--json"], env)).stdout) as { name: string }[]).map((x) => x.name);
  expect(names).toEqual(["local", "openai"]);

  expect((await todo(["model", t.id], env)).stdout.trim()).toBe(`${t.id} uses the service's default (the built-in offline agent)`);
  const set = await todo(["model", t.id, "gpt-4.1-mini"], env);
  expect(set.code, set.stderr).toBe(0);
  expect(set.stdout.trim()).toBe(`${t.id} now uses openai · gpt-4.1-mini for its next turns`);
  expect((await getTodo(u, t.id)).agentSettings).toEqual({ systemPrompt: "Be brief.", provider: "openai", model: "gpt-4.1-mini" });
  expect((await todo(["show", t.id], env)).stdout).toContain("status: TODO · model: openai · gpt-4.1-mini");

  const bad = await todo(["model", t.id, "gpt-5"], env);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('No provider or model "gpt-5" here (see `todo models`)');
  expect((await todo(["model", "cmissingtodoid000000000000", "default"], env)).code).toBe(4);
  expect((await getTodo(u, t.id)).agentSettings).toEqual({ systemPrompt: "Be brief.", provider: "openai", model: "gpt-4.1-mini" });

  const sent = await todo(["send", t.id, "Hello there", "--watch", "--json"], env);
  expect(sent.code, sent.stderr).toBe(0);
  const reply = (JSON.parse(sent.stdout) as { messages: { role: string; usage: { provider?: string; model?: string } | null }[] }).messages.at(-1)!;
  expect(reply).toMatchObject({ role: "assistant", usage: { provider: "openai", model: "gpt-4.1-mini" } });

  // Run again: a new todo with the same text and settings, its first reply by the same model; the first keeps its own.
  const again = await todo(["again", t.id, "--watch", "--json"], env);
  expect(again.code, again.stderr).toBe(0);
  const copy = JSON.parse(again.stdout) as { id: string; content: string; status: string; agentSettings: unknown; messages: { role: string; content: string; usage: { model?: string } | null }[] };
  expect(copy.id).not.toBe(t.id);
  expect(copy).toMatchObject({ content: "Which model?", status: "READY", agentSettings: { systemPrompt: "Be brief.", provider: "openai", model: "gpt-4.1-mini" } });
  expect(copy.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(copy.messages[1]!.usage).toMatchObject({ model: "gpt-4.1-mini" });
  expect((await getTodo(u, t.id)).messages).toHaveLength(3);
  expect((await todo(["again", "cmissingtodoid000000000000"], env)).code).toBe(4);

  expect(JSON.parse((await todo(["model", t.id, "default", "--json"], env)).stdout)).toEqual({ id: t.id, agentSettings: { systemPrompt: "Be brief." } });
});

test("notes: add personal and project notes, list them a page at a time, edit, rm; nobody else's", async ({ baseURL }, info) => {
  const u = await createUser(info, "cli-notes");
  const stranger = await createUser(info, "cli-notes-stranger");
  const env = { TODO_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), "todo-cli-")), TODO_SERVER: baseURL! };
  const as = (who: typeof u) => ({ ...env, TODO_API_KEY: who.apiKey });
  const p = await createProject(u, "Garden");

  expect((await todo(["notes"], as(u))).stdout.trim()).toBe("No notes.");
  const added = async (args: string[]) => {
    const r = await todo(["notes", "add", ...args, "--json"], as(u));
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { id: string; projectId: string | null; content: string };
  };
  const a = await added(["Prefers  metric\nunits"]);
  const b = await added(["Allergic to wasps"]);
  const g = await added(["Roses need water on Fridays", "--project", p.id]);
  expect([a.projectId, g.projectId]).toEqual([null, p.id]);
  expect((await todo(["notes", "add", "  "], as(u))).code).toBe(6);

  const first = await todo(["notes", "--limit", "1"], as(u));
  expect(first.stdout.trim()).toBe(`${b.id}  Allergic to wasps`);
  const cursor = first.stderr.match(/More: todo notes --limit 1 --cursor (\S+)/)![1]!;
  expect((await todo(["notes", "list", "--limit", "1", "--cursor", cursor], as(u))).stdout.trim()).toBe(`${a.id}  Prefers metric units`);
  expect((await todo(["notes", "--project", p.id], as(u))).stdout.trim()).toBe(`${g.id}  Roses need water on Fridays`);

  expect((await todo(["notes", "edit", a.id, "Prefers metric units, always"], as(u))).stdout).toContain(`Updated note ${a.id}`);
  expect((await todo(["notes", "rm", b.id], as(u))).code).toBe(0);
  const left = JSON.parse((await todo(["notes", "--json"], as(u))).stdout) as { items: { id: string; content: string }[] };
  expect(left.items.map((n) => [n.id, n.content])).toEqual([[a.id, "Prefers metric units, always"]]);

  expect((await todo(["notes", "rm", a.id], as(stranger))).code).toBe(4);
  expect((await todo(["notes", "edit", g.id, "mine now"], as(stranger))).code).toBe(4);
  expect((await todo(["notes", "--project", p.id], as(stranger))).code).toBe(4);
  expect((await todo(["notes"], as(stranger))).stdout.trim()).toBe("No notes.");
});

test("groups: list, add (slug from the name), rename; create --group, move in and out; edit a todo's text; rm several; nobody else's", async ({ baseURL }, info) => {
  const u = await createUser(info, "cli-groups");
  const stranger = await createUser(info, "cli-groups-stranger");
  const env = { TODO_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), "todo-cli-")), TODO_SERVER: baseURL! };
  const as = (who: typeof u) => ({ ...env, TODO_API_KEY: who.apiKey });
  const p = await createProject(u, "Garden");
  const run = async (args: string[], who = u) => {
    const r = await todo(args, as(who));
    expect(r.code, r.stderr).toBe(0);
    return r.stdout.trim();
  };

  expect(await run(["groups", "--project", p.id])).toBe("No groups: add one with `todo groups add <name>`.");
  expect(await run(["groups", "add", "Bed 2 — Roses", "--project", p.id])).toBe("Added group bed-2-roses  Bed 2 — Roses");
  expect(await run(["groups", "add", "Later", "--slug", "someday", "--project", p.id])).toBe("Added group someday  Later");
  // Adding never renames: a slug that exists is refused, and the group stays as it was.
  const again = await todo(["groups", "add", "Bed 2 roses", "--project", p.id], as(u));
  expect(again.code).toBe(6);
  expect(again.stderr).toContain("todo groups rename bed-2-roses <name>");
  expect(await run(["groups", "rename", "someday", "Some day", "--project", p.id])).toBe("Renamed someday to Some day");
  expect((await todo(["groups", "rename", "nope", "X", "--project", p.id], as(u))).code).toBe(4);

  const created = await todo(["create", "Prune the roses", "--group", "bed-2-roses", "--project", p.id, "--json"], as(u));
  expect(created.code, created.stderr).toBe(0);
  const t = JSON.parse(created.stdout) as { id: string; groupSlug: string | null };
  expect(t.groupSlug).toBe("bed-2-roses");
  expect(await run(["groups", "--project", p.id])).toBe("bed-2-roses  Bed 2 — Roses  (1 todo)\nsomeday  Some day  (0 todos)");
  expect(await run(["move", t.id, "someday"])).toBe(`Moved ${t.id} to someday`);
  expect((await getTodo(u, t.id)).groupSlug).toBe("someday");
  expect(await run(["move", t.id, "-"])).toBe(`Moved ${t.id} out of its group`);
  expect((await getTodo(u, t.id)).groupSlug).toBeNull();
  const noGroup = await todo(["move", t.id, "no-such-group"], as(u));
  expect(noGroup.code).toBe(4);
  expect(noGroup.stderr).toContain("no-such-group");

  expect(await run(["edit", t.id, "Prune the roses in March"])).toBe(`Updated ${t.id}`);
  expect((await getTodo(u, t.id)).content).toBe("Prune the roses in March");
  expect((await todo(["edit", t.id, "  "], as(u))).code).toBe(6);

  // Nobody else's: a stranger can neither change nor delete it, nor see the groups.
  expect((await todo(["edit", t.id, "mine"], as(stranger))).code).toBe(4);
  expect((await todo(["rm", t.id], as(stranger))).code).toBe(4);
  expect((await todo(["groups", "--project", p.id], as(stranger))).code).toBe(4);

  const second = await createTodo(u, p.id, "Water the lawn");
  expect(JSON.parse(await run(["rm", t.id, second.id, "--json"]))).toEqual({ deleted: [t.id, second.id] });
  expect((await listTodos(u, p.id)).items).toEqual([]);
  // The first that fails stops the rest and says what was deleted before it.
  const third = await createTodo(u, p.id, "Rake the leaves");
  const fourth = await createTodo(u, p.id, "Mow");
  const partial = await todo(["rm", third.id, t.id, fourth.id], as(u));
  expect(partial.code).toBe(4);
  expect(partial.stderr).toContain(`Deleted ${third.id} before ${t.id} failed.`);
  expect((await listTodos(u, p.id)).items.map((x) => x.id)).toEqual([fourth.id]);
});

test("todo mcp: the SDK's own client lists the tools (reads only by default) and creates a todo through one with --allow-writes", async ({ baseURL }, info) => {
  test.setTimeout(90_000);
  const u = await createUser(info, "mcp");
  const p = await createProject(u, "Via MCP");
  const env = { ...(process.env as Record<string, string>), TODO_API_KEY: u.apiKey, TODO_SERVER: baseURL!, TODO_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), "todo-mcp-")) };
  const open = async (args: string[]) => {
    const client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", ...args], env, stderr: "pipe" }));
    return client;
  };

  const reader = await open([]);
  try {
    const names = (await reader.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["project_list", "todo_get", "todo_list"]));
    expect(names).not.toContain("project_createTodo");
    expect(names.some((n) => n.startsWith("apiKey_"))).toBe(false);
    const listed = await reader.callTool({ name: "project_list", arguments: {} });
    expect(JSON.parse((listed.content as { text: string }[])[0]!.text).map((x: { id: string }) => x.id)).toContain(p.id);
    expect((await reader.callTool({ name: "project_createTodo", arguments: { projectId: p.id, content: "x" } })).isError).toBe(true);
  } finally {
    await reader.close();
  }

  const writer = await open(["--allow-writes"]);
  try {
    const tools = (await writer.listTools()).tools;
    const create = tools.find((t) => t.name === "project_createTodo")!;
    expect(create.inputSchema.properties).toHaveProperty("projectId");
    expect(create.inputSchema.properties).toHaveProperty("content");
    expect(create.annotations?.readOnlyHint).toBe(false);
    const result = await writer.callTool({ name: "project_createTodo", arguments: { projectId: p.id, content: "Made by an assistant" } });
    expect(result.isError, JSON.stringify(result.content)).toBe(false);
    const todo = JSON.parse((result.content as { text: string }[])[0]!.text) as { id: string; content: string };
    expect(todo.content).toBe("Made by an assistant");
    expect((await listTodos(u, p.id)).items.map((t) => t.id)).toContain(todo.id);
    // Input the operation refuses comes back as a tool error, not a crash.
    const bad = await writer.callTool({ name: "project_createTodo", arguments: { projectId: p.id, content: "" } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toContain("BAD_REQUEST");
  } finally {
    await writer.close();
  }
});

test("todo bridge: enrolls with the key, the device is online while it runs, with its workspace path; offline when stopped", async ({ request, baseURL }, info) => {
  test.setTimeout(90_000);
  const u = await createUser(info, "bridge-cli");
  const dir = await mkdtemp(path.join(tmpdir(), "todo-bridge-"));
  const child = spawn(process.execPath, [BIN, "bridge", "--name", "ci-box", "--path", "/srv/work/", "--json"], {
    env: { ...process.env, TODO_API_KEY: u.apiKey, TODO_SERVER: baseURL!, TODO_CONFIG_DIR: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (d: Buffer) => resolve(d.toString()));
      void exited.then(() => reject(new Error(`bridge exited: ${stderr}`)));
    });
    const { deviceId } = JSON.parse(line) as { deviceId: string };
    const devices = () => request.get("/api/v1/devices", { headers: { authorization: `Bearer ${u.apiKey}` } }).then((r) => okJson<{ id: string; name: string; online: boolean; workspacePaths: string[] }[]>(r));
    expect(await devices()).toEqual([expect.objectContaining({ id: deviceId, name: "ci-box", online: true, workspacePaths: ["/srv/work"] })]);
    const stored = JSON.parse(await readFile(path.join(dir, "config.json"), "utf8")) as { device: { id: string } };
    expect(stored.device.id).toBe(deviceId);
    expect((await stat(path.join(dir, "config.json"))).mode & 0o777).toBe(0o600);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect.poll(async () => (await devices())[0]!.online).toBe(false);
  } finally {
    child.kill("SIGKILL");
  }
});

test("a shell command the agent proposes: watch says how to decide, approve takes the one waiting and the bridge runs it, deny refuses", async ({ baseURL }, info) => {
  test.setTimeout(120_000);
  const u = await createUser(info, "cli-shell");
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  const bridge = await startBridge(peerUrl ?? baseURL!, u.apiKey, "cli-box");
  const env = { TODO_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), "todo-cli-")), TODO_SERVER: baseURL!, TODO_API_KEY: u.apiKey };
  try {
    await expect.poll(async () => (await okJson<{ online: boolean }[]>(await u.session.get("/api/v1/devices", { headers: h(u) })))[0]?.online).toBe(true);
    const p = await createProject(u, "Shell from the terminal");
    const t = await createTodo(u, p.id, { content: "Greet from my machine", agentSettings: { provider: "openai" } });
    const nothing = await todo(["approve", t.id], env);
    expect(nothing.code).toBe(4);
    expect(nothing.stderr).toContain("waits for a decision");

    expect((await todo(["send", t.id, `Say hello [shell ${bridge.workspace}]`], env)).code).toBe(0);
    let approval: Promise<Run> | undefined;
    const watched = await todo(["watch", t.id], env, {
      onStderr: (stderr) => {
        if (!approval && /Approve: todo approve \S+ \S+ {3}Deny: todo deny/.test(stderr)) approval = todo(["approve", t.id], env);
      },
    });
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stderr).toContain(`The agent wants to run \`echo hello\` on cli-box:${bridge.workspace}.`);
    const approved = await approval!;
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`Approved: \`echo hello\` runs on cli-box:${bridge.workspace}.`);
    expect(watched.stdout).toMatch(/exit code 0\s+output:\s+hello/);
    const ran = (await getTodo(u, t.id)).blocks.find((b) => b.type === "shell")!;
    expect(ran.content).toMatchObject({ state: "done", exitCode: 0 });
    expect((await todo(["show", t.id], env)).stdout).toContain(`  $ echo hello  [cli-box:${bridge.workspace}]  (done, exit 0; block ${ran.id})`);

    expect((await todo(["send", t.id, `Once more [shell ${bridge.workspace}]`], env)).code).toBe(0);
    let waiting: Block | undefined;
    await expect.poll(async () => (waiting = (await getTodo(u, t.id)).blocks.find((b) => b.type === "shell" && (b.content as { state: string }).state === "pending"))?.id, { timeout: TURN_TIMEOUT }).toBeTruthy();
    const denied = await todo(["deny", t.id, waiting!.id], env);
    expect(denied.code, denied.stderr).toBe(0);
    expect(denied.stdout).toContain("Denied `echo hello`");
    expect((await todo(["deny", t.id, waiting!.id], env)).code).toBe(6);
    await waitForStatus(u, t.id, "READY", TURN_TIMEOUT);
    expect(bridge.output().match(/Running \(approved in the chat\)/g)).toHaveLength(1);
  } finally {
    expect(await bridge.stop()).toBe(0);
  }
});
