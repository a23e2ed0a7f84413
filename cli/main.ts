import { hostname } from "node:os";
import path from "node:path";
import { Command, CommanderError } from "commander";
import { createClient, type Client } from "./client.ts";
import { clearConfig, configFile, readConfig, serverOf, writeConfig } from "./config.ts";
import { CliError, EXIT } from "./exit-codes.ts";
import { download, formatBytes, suggestedName } from "./export.ts";
import { deviceLogin } from "./login.ts";
import { chooseModel, modelLabel, modelsText } from "./models.ts";
import { blockLine, checklistItemAt, checklistOf, pendingText, searchText, messageHitsText, type MessageRole, todoText } from "./render.ts";
import { isPendingShell, watchTodo } from "./watch.ts";
import { parseWhen } from "./when.ts";
import type { TStatusAction } from "../lib/schemas/todos.ts";
import { againSpec } from "../lib/todo-lifecycle.ts";
import { slugify } from "../lib/ui/format.ts";

/** `todo status`'s actions: those of todo_updateStatus (a type import: the CLI loads no schemas). */
const STATUS_ACTIONS: readonly TStatusAction[] = ["pause", "resume", "complete", "cancel", "accept", "dismiss"];

// `todo`: the service from the command line (README "Command line"). Every command takes --json
// (one JSON document on stdout, nothing else there) and exits with a code of exit-codes.ts.

type Globals = { server?: string; json?: boolean };

const program = new Command();
program
  .name("todo")
  .description("Todo Service from the command line")
  .option("--server <url>", "server address (default: TODO_SERVER, the stored server, or http://localhost:3000)")
  .option("--json", "print JSON for scripts")
  .showHelpAfterError()
  .exitOverride();

const globals = (): Globals => program.opts<Globals>();
const out = (value: unknown, text: () => string) => {
  process.stdout.write(globals().json ? JSON.stringify(value) + "\n" : text() + "\n");
};
/** Progress for people: stderr, so stdout stays clean for --json. */
const say = (line: string) => process.stderr.write(line + "\n");

/** After a page with more behind it: the command that prints the next one (stderr, for people). */
function moreHint(command: string, options: Record<string, string | undefined>, nextCursor: string | number | null): void {
  if (nextCursor === null || globals().json) return;
  const given = Object.entries(options).flatMap(([name, value]) => (value === undefined ? [] : [`--${name} ${/^[\w:.-]+$/.test(value) ? value : JSON.stringify(value)}`]));
  say(`More: ${[command, ...given, `--cursor ${nextCursor}`].join(" ")}`);
}

async function session(): Promise<{ client: Client; key: string }> {
  const stored = await readConfig();
  const key = process.env.TODO_API_KEY || stored?.apiKey;
  if (!key) throw new CliError("Not logged in: run `todo login` (or set TODO_API_KEY).", EXIT.AUTH);
  return { client: createClient(serverOf(globals().server, stored), key), key };
}

async function projectOf(client: Client, flag: string | undefined): Promise<string> {
  if (flag) return flag;
  const profile = await client.call("user_profile");
  if (profile.defaultProjectId) return profile.defaultProjectId;
  const [first] = await client.call("project_list");
  if (!first) throw new CliError("You have no project yet: create one with `todo projects create <name>`, or pass --project.", EXIT.NOT_FOUND);
  return first.id;
}

program
  .command("login")
  .description("log in through the browser (device code) and store the key")
  .option("--name <name>", "how this machine is named on the approval page", hostname().slice(0, 64))
  .action(async (opts: { name: string }) => {
    const stored = await readConfig();
    const server = serverOf(globals().server, stored);
    const done = await deviceLogin(createClient(server), "cli", opts.name.replace(/[^A-Za-z0-9 _.@-]/g, "-") || "cli", say);
    await writeConfig({ ...stored, server, apiKey: done.apiKey! });
    const me = await createClient(server, done.apiKey).call("user_profile");
    out({ server, email: me.email, userId: me.id, config: configFile() }, () => `Logged in to ${server} as ${me.email}.`);
  });

program
  .command("logout")
  .description("revoke the stored key on the server and forget it")
  .action(async () => {
    const stored = await readConfig();
    let revoked = false;
    if (stored?.apiKey) {
      const client = createClient(serverOf(globals().server, stored), stored.apiKey);
      try {
        // apiKey_validate is served under /api/v1 only, so it is not in the (cookie) client's types.
        const res = await client.send("GET", "/apikey/validate");
        const key = (await res.json()) as { name: string };
        if (!res.ok) throw new Error("not valid");
        await client.call("apiKey_delete", { params: { name: key.name }, body: { name: key.name } });
        revoked = true;
      } catch {
        // Already revoked, or the server is away: forgetting it locally is what matters.
      }
    }
    await clearConfig();
    out({ loggedOut: true, revoked }, () => (revoked ? "Logged out; the key is revoked." : "Logged out."));
  });

program
  .command("whoami")
  .description("the account of the stored key")
  .action(async () => {
    const { client } = await session();
    const me = await client.call("user_profile");
    out(me, () => `${me.email} (${me.id}) on ${client.server}`);
  });

const projects = program.command("projects").description("list your projects, or create one");
projects
  .command("list", { isDefault: true })
  .description("list your projects (the default)")
  .action(async () => {
    const { client } = await session();
    const [list, me] = await Promise.all([client.call("project_list"), client.call("user_profile")]);
    out(list, () =>
      list.map((p) => `${p.id}  ${p.name}${p.role === "owner" ? "" : `  (${p.role})`}${p.id === me.defaultProjectId ? "  (default)" : ""}`).join("\n") || "No projects: create one with `todo projects create <name>`.",
    );
  });
projects
  .command("create")
  .description("create a project")
  .argument("<name>", "its name")
  .option("--description <text>", "what it is for")
  .option("--default", "make it your default project (the one `todo list` and `todo create` use)")
  .action(async (name: string, opts: { description?: string; default?: boolean }) => {
    const { client } = await session();
    const project = await client.call("project_create", { body: { name, description: opts.description } });
    if (opts.default) await client.call("user_setDefaultProject", { body: { projectId: project.id } });
    out(project, () => `Created project ${project.id}  ${project.name}${opts.default ? "  (default)" : ""}`);
  });

program
  .command("list")
  .description("list todos of a project, newest activity first (default: your default project)")
  .option("--project <id>", "project id")
  .option("--search <text>", "only todos whose content contains it, or with that status (e.g. running)")
  .option("--limit <n>", "at most n todos (1-200; default 50)")
  .option("--cursor <cursor>", "the page after the one that printed it")
  .action(async (opts: { project?: string; search?: string; limit?: string; cursor?: string }) => {
    const { client } = await session();
    const projectId = await projectOf(client, opts.project);
    const page = await client.call("todo_list", { params: { projectId }, query: { search: opts.search, limit: opts.limit, cursor: opts.cursor } });
    out(page, () => page.items.map((t) => `${t.id}  ${t.status.padEnd(9)}  ${t.content.split("\n")[0]!.slice(0, 80)}`).join("\n") || "No todos.");
    moreHint("todo list", { project: projectId, search: opts.search, limit: opts.limit }, page.nextCursor);
  });

/** `--at` as epoch ms (undefined without it); with `--watch` it is a usage error: there is nothing to watch yet. */
function scheduleOf(opts: { at?: string; watch?: boolean }): number | undefined {
  if (opts.at === undefined) return undefined;
  if (opts.watch) throw new CliError("--at and --watch do not go together: the turn starts later (watch it then with `todo watch`).", EXIT.USAGE);
  return parseWhen(opts.at);
}

async function finish(client: Client, key: string, todoId: string, watch: boolean | undefined): Promise<unknown> {
  if (!watch) return undefined;
  const status = await watchTodo(client, key, todoId, { quiet: !!globals().json });
  if (status === "ERROR") process.exitCode = EXIT.ERROR;
  return client.call("todo_get", { params: { todoId } });
}

program
  .command("create")
  .description("create a todo and start the agent on it")
  .argument("<content>", "what to do")
  .option("--project <id>", "project id")
  .option("--watch", "stream the agent's reply until its turn ends")
  .option("--at <time>", "start the agent later instead: 30m, in 2h, 2026-12-01T09:00 …")
  .option("--group <slug>", "put it into this group of the project (see `todo groups`)")
  .action(async (content: string, opts: { project?: string; watch?: boolean; at?: string; group?: string }) => {
    const scheduledAt = scheduleOf(opts);
    const { client, key } = await session();
    const projectId = await projectOf(client, opts.project);
    const todo = await client.call("project_createTodo", { params: { projectId }, body: { content, ...(opts.group ? { groupSlug: opts.group } : {}), ...(scheduledAt ? { scheduledAt } : { startProcessing: true }) } });
    if (!globals().json) say(scheduledAt ? `Created ${todo.id}, scheduled for ${new Date(scheduledAt).toLocaleString()}` : `Created ${todo.id}`);
    const final = await finish(client, key, todo.id, opts.watch);
    if (globals().json) out(final ?? todo, () => "");
  });

program
  .command("again")
  .description("run a todo again: a new todo with its text, group and agent settings, the agent started on it")
  .argument("<id>", "the todo to run again (it stays as it is)")
  .option("--watch", "stream the agent's reply until its turn ends")
  .action(async (todoId: string, opts: { watch?: boolean }) => {
    const { client, key } = await session();
    const todo = await client.call("todo_get", { params: { todoId }, query: { messageLimit: 1 } });
    const copy = await client.call("project_startFromTemplate", { params: { projectId: todo.projectId }, body: { spec: againSpec(todo) } });
    if (!globals().json) say(`Started ${copy.id}, again from ${todo.id}`);
    const final = await finish(client, key, copy.id, opts.watch);
    if (globals().json) out(final ?? copy, () => "");
  });

program
  .command("edit")
  .description("replace a todo's text (a todo not started yet: its waiting first message too)")
  .argument("<id>", "todo id")
  .argument("<content>", "its new text")
  .action(async (todoId: string, content: string) => {
    const { client } = await session();
    await client.call("todo_update", { params: { todoId }, body: { content } });
    out({ id: todoId, content }, () => `Updated ${todoId}`);
  });

program
  .command("move")
  .description("put a todo into a group of its project, or out of its group with -")
  .argument("<id>", "todo id")
  .argument("<group>", "the group's slug (see `todo groups`), or - for none")
  .action(async (todoId: string, group: string) => {
    const { client } = await session();
    const groupSlug = group === "-" ? null : group;
    await client.call("todo_update", { params: { todoId }, body: { groupSlug } });
    out({ id: todoId, groupSlug }, () => (groupSlug ? `Moved ${todoId} to ${groupSlug}` : `Moved ${todoId} out of its group`));
  });

program
  .command("rm")
  .description("delete todos with all their messages, for good")
  .argument("<ids...>", "todo ids")
  .action(async (todoIds: string[]) => {
    const { client } = await session();
    // One at a time, in the order given: the first that fails stops here, saying which were deleted.
    const deleted: string[] = [];
    for (const todoId of todoIds) {
      try {
        await client.call("todo_delete", { params: { todoId }, body: { todoId } });
      } catch (err) {
        if (deleted.length && !globals().json) say(`Deleted ${deleted.join(", ")} before ${todoId} failed.`);
        throw err;
      }
      deleted.push(todoId);
    }
    out({ deleted }, () => `Deleted ${deleted.join(", ")}`);
  });

const groups = program.command("groups").description("a project's todo groups: list them, add one, rename one");
groups
  .command("list", { isDefault: true })
  .description("the groups in their order, with their slugs and todo counts (the default)")
  .option("--project <id>", "project id (default: your default project)")
  .action(async (opts: { project?: string }) => {
    const { client } = await session();
    const projectId = await projectOf(client, opts.project);
    const list = await client.call("project_groups", { params: { projectId } });
    out(list, () => list.map((g) => `${g.slug}  ${g.name}  (${g.todoCount} todo${g.todoCount === 1 ? "" : "s"})`).join("\n") || "No groups: add one with `todo groups add <name>`.");
  });
groups
  .command("add")
  .description("add a group at the end (its slug is made from the name unless given)")
  .argument("<name>", "its name")
  .option("--slug <slug>", "its slug (a-z, 0-9 and -)")
  .option("--project <id>", "project id (default: your default project)")
  .action(async (name: string, opts: { slug?: string; project?: string }) => {
    const { client } = await session();
    const projectId = await projectOf(client, opts.project);
    const slug = opts.slug ?? slugify(name);
    if (!slug) throw new CliError("The name needs a letter or a digit (a-z, 0-9) for its slug, or pass --slug.", EXIT.REFUSED);
    // The API's upsert renames a group that has the slug: adding refuses it instead.
    const existing = (await client.call("project_groups", { params: { projectId } })).find((g) => g.slug === slug);
    if (existing) throw new CliError(`A group with the slug ${slug} exists (“${existing.name}”): rename it with \`todo groups rename ${slug} <name>\`.`, EXIT.REFUSED);
    const group = await client.call("project_upsertGroup", { params: { projectId, slug }, body: { name } });
    out(group, () => `Added group ${group.slug}  ${group.name}`);
  });
groups
  .command("rename")
  .description("rename a group (it keeps its slug and place)")
  .argument("<slug>", "the group's slug")
  .argument("<name>", "its new name")
  .option("--project <id>", "project id (default: your default project)")
  .action(async (slug: string, name: string, opts: { project?: string }) => {
    const { client } = await session();
    const projectId = await projectOf(client, opts.project);
    if (!(await client.call("project_groups", { params: { projectId } })).some((g) => g.slug === slug)) throw new CliError(`No group ${slug} in this project: see \`todo groups\`.`, EXIT.NOT_FOUND);
    const group = await client.call("project_upsertGroup", { params: { projectId, slug }, body: { name } });
    out(group, () => `Renamed ${group.slug} to ${group.name}`);
  });

program
  .command("show")
  .description("a todo with its messages")
  .argument("<id>", "todo id")
  .action(async (todoId: string) => {
    const { client } = await session();
    const todo = await client.call("todo_get", { params: { todoId } });
    out(todo, () => todoText(todo));
  });

program
  .command("watch")
  .description("follow a todo's agent: print its reply as it streams, until the turn ends")
  .argument("<id>", "todo id")
  .action(async (todoId: string) => {
    const { client, key } = await session();
    const final = await finish(client, key, todoId, true);
    if (globals().json) out(final, () => "");
  });

program
  .command("search")
  .description("search your todos' conversations and memory notes; with --todo or --role, the matching messages themselves")
  .argument("<query>", "words to find (every one must match)")
  .option("--project <id>", "only this project")
  .option("--todo <id>", "the messages of this todo that match, newest first")
  .option("--role <role>", "messages of this author only: user, assistant or system (implies messages)")
  .option("--limit <n>", "at most n todos with exact matches (1-50; default 20), or n messages (1-200; default 50)")
  .option("--cursor <cursor>", "messages: the page after the one that printed it")
  .action(async (q: string, opts: { project?: string; todo?: string; role?: string; limit?: string; cursor?: string }) => {
    const { client } = await session();
    if (opts.todo === undefined && opts.role === undefined && opts.cursor === undefined) {
      const found = await client.call("todo_searchUnified", { query: { q, projectId: opts.project, limit: opts.limit } });
      return out(found, () => searchText(found));
    }
    const query = { q, projectId: opts.project, todoId: opts.todo, role: opts.role as MessageRole | undefined, limit: opts.limit };
    const page = await client.call("todo_searchMessages", { query: { ...query, cursor: opts.cursor } });
    out(page, () => messageHitsText(page, opts.todo !== undefined));
    moreHint(`todo search ${JSON.stringify(q)}`, { project: opts.project, todo: opts.todo, role: opts.role, limit: opts.limit }, page.nextCursor);
  });

program
  .command("upcoming")
  .description("what waits on you: scheduled messages, soonest first, and todos the agent proposed")
  .action(async () => {
    const { client } = await session();
    const tasks = await client.call("task_getPending", {});
    out(tasks, () => pendingText(tasks));
  });

for (const [name, approve] of [["approve", true], ["deny", false]] as const) {
  program
    .command(name)
    .description(`${approve ? "run" : "refuse"} a shell command the agent proposed on one of your devices`)
    .argument("<id>", "todo id")
    .argument("[block]", "the shell block's id (default: the one command that waits)")
    .action(async (todoId: string, blockRef: string | undefined) => {
      const { client } = await session();
      let blockId = blockRef;
      if (!blockId) {
        const waiting = (await client.call("todo_get", { params: { todoId } })).blocks.filter(isPendingShell);
        if (waiting.length === 0) throw new CliError(`No shell command of ${todoId} waits for a decision.`, EXIT.NOT_FOUND);
        if (waiting.length > 1) throw new CliError(`Several commands wait; name one:\n${waiting.map((b) => blockLine(b)).join("\n")}`, EXIT.USAGE);
        blockId = waiting[0]!.id;
      }
      const block = await client.call("todo_decideShell", { params: { todoId, blockId }, body: { approve } });
      const c = block.content as { command?: string; deviceName?: string; path?: string };
      out(block, () => (approve ? `Approved: \`${c.command}\` runs on ${c.deviceName}:${c.path}.` : `Denied \`${c.command}\`; the agent is told.`));
    });
}

/** A checklist item named by its number as `todo show` prints it (read from the todo), or by its block id (as given). */
async function checklistItem(client: Client, todoId: string, item: string): Promise<{ blockId: string; label: string }> {
  if (!/^\d+$/.test(item)) return { blockId: item, label: item };
  const todo = await client.call("todo_get", { params: { todoId } });
  const block = checklistItemAt(todo, Number(item));
  if (!block) throw new CliError(`${todoId} has no checklist item ${item} (it has ${checklistOf(todo).length}; see \`todo show ${todoId}\`)`, EXIT.NOT_FOUND);
  return { blockId: block.id, label: `${item}. ${JSON.stringify((block.content as { text?: unknown }).text ?? "")}` };
}

for (const [name, checked] of [["check", true], ["uncheck", false]] as const) {
  program
    .command(name)
    .description(`${checked ? "check" : "uncheck"} a checklist item of a todo`)
    .argument("<id>", "todo id")
    .argument("<item>", "the item's number as `todo show` prints it, or its block id")
    .action(async (todoId: string, item: string) => {
      const { client } = await session();
      const { blockId, label } = await checklistItem(client, todoId, item);
      await client.call("todo_toggleBlockChecked", { params: { todoId, blockId }, body: { blockId, checked } });
      out({ todoId, blockId, checked }, () => `${checked ? "Checked" : "Unchecked"} ${label}`);
    });
}

program
  .command("link")
  .description("link other todos to a checklist item of a todo: they show under it, with their status (links are added, never removed)")
  .argument("<id>", "todo id")
  .argument("<item>", "the item's number as `todo show` prints it, or its block id")
  .argument("<todos...>", "the ids of the todos to link (any you can read)")
  .action(async (todoId: string, item: string, subTodoIds: string[]) => {
    const { client } = await session();
    const { blockId, label } = await checklistItem(client, todoId, item);
    await client.call("todo_linkBlockSubTodo", { params: { todoId, blockId }, body: { subTodoIds } });
    out({ todoId, blockId, subTodoIds }, () => `Linked ${subTodoIds.join(", ")} to ${label}`);
  });

program
  .command("status")
  .description("pause, resume, complete or cancel a todo; accept or dismiss one the agent proposed")
  .argument("<id>", "todo id")
  .addArgument(new Command().createArgument("<action>", "the change").choices(STATUS_ACTIONS))
  .action(async (todoId: string, action: TStatusAction) => {
    const { client } = await session();
    await client.call("todo_updateStatus", { params: { todoId }, body: { action } });
    const todo = await client.call("todo_get", { params: { todoId } });
    out({ id: todo.id, status: todo.status }, () => `${todo.id} is ${todo.status}`);
  });

program
  .command("models")
  .description("the providers and models a todo's agent may use on this server")
  .action(async () => {
    const { client } = await session();
    const { providers } = await client.call("settings_getAgentProviders");
    out(providers, () => modelsText(providers));
  });

program
  .command("model")
  .description("the model a todo's agent uses, or choose another for its next turns")
  .argument("<id>", "todo id")
  .argument("[choice]", "provider/model, a model's name, a provider, or default (see `todo models`)")
  .action(async (todoId: string, choice: string | undefined) => {
    const { client } = await session();
    const [todo, { providers }] = await Promise.all([client.call("todo_get", { params: { todoId }, query: { messageLimit: 1 } }), client.call("settings_getAgentProviders")]);
    if (choice === undefined) return out({ id: todo.id, agentSettings: todo.agentSettings }, () => `${todo.id} uses ${modelLabel(todo.agentSettings, providers)}`);
    const agentSettings = chooseModel(choice, providers, todo.agentSettings);
    await client.call("todo_updateAgentMapping", { params: { todoId }, body: { agentSettings } });
    out({ id: todo.id, agentSettings }, () => `${todo.id} now uses ${modelLabel(agentSettings, providers)} for its next turns`);
  });

program
  .command("send")
  .description("send a message to a todo (starts the agent)")
  .argument("<id>", "todo id")
  .argument("<content>", "the message")
  .option("--watch", "stream the agent's reply until its turn ends")
  .option("--at <time>", "send it later instead: 30m, in 2h, 2026-12-01T09:00 …")
  .action(async (todoId: string, content: string, opts: { watch?: boolean; at?: string }) => {
    const scheduledAt = scheduleOf(opts);
    const { client, key } = await session();
    const message = await client.call("todo_addMessage", { params: { todoId }, body: { content, ...(scheduledAt ? { scheduledAt } : {}) } });
    if (!globals().json) say(scheduledAt ? `Scheduled ${message.id} for ${new Date(scheduledAt).toLocaleString()}` : `Sent ${message.id}`);
    const final = await finish(client, key, todoId, opts.watch);
    if (globals().json) out(final ?? message, () => "");
  });

const notes = program.command("notes").description("memory notes: what you and the agent keep (personal, or a project's)");
notes
  .command("list", { isDefault: true })
  .description("your personal notes, or a project's, most recently updated first (the default)")
  .option("--project <id>", "a project's notes instead")
  .option("--limit <n>", "at most n notes (1-200; default 50)")
  .option("--cursor <cursor>", "the page after the one that printed it")
  .action(async (opts: { project?: string; limit?: string; cursor?: string }) => {
    const { client } = await session();
    const page = await client.call("note_list", { query: { projectId: opts.project, limit: opts.limit, cursor: opts.cursor } });
    out(page, () => page.items.map((n) => `${n.id}  ${n.content.replace(/\s+/g, " ").slice(0, 100)}`).join("\n") || "No notes.");
    moreHint("todo notes", { project: opts.project, limit: opts.limit }, page.nextCursor);
  });
notes
  .command("add")
  .description("keep a note (the agent recalls it in this project's todos, or in all of yours if personal)")
  .argument("<text>", "the note")
  .option("--project <id>", "a project's note, seen by its members (default: personal)")
  .action(async (content: string, opts: { project?: string }) => {
    const { client } = await session();
    const note = await client.call("note_create", { body: { content, projectId: opts.project } });
    out(note, () => `Added note ${note.id}`);
  });
notes
  .command("edit")
  .description("replace a note's text")
  .argument("<noteId>", "note id")
  .argument("<text>", "its new text")
  .action(async (noteId: string, content: string) => {
    const { client } = await session();
    const note = await client.call("note_update", { params: { noteId }, body: { content } });
    out(note, () => `Updated note ${noteId}`);
  });
notes
  .command("rm")
  .description("delete a note")
  .argument("<noteId>", "note id")
  .action(async (noteId: string) => {
    const { client } = await session();
    await client.call("note_delete", { params: { noteId }, body: { noteId } });
    out({ deleted: noteId }, () => `Deleted note ${noteId}`);
  });

program
  .command("export")
  .description("download everything your account holds as one JSON document (readable by you only)")
  .option("-o, --output <file>", "where to write it (default: the server's file name, here; - for stdout)")
  .action(async (opts: { output?: string }) => {
    const { client } = await session();
    const res = await client.stream("user_exportData");
    const target = opts.output ?? suggestedName(res.headers.get("content-disposition"));
    const live = !!process.stderr.isTTY && target !== "-";
    const bytes = await download(res, target, live ? (n) => process.stderr.write(`\rDownloading… ${formatBytes(n)}`) : undefined);
    if (live) process.stderr.write("\r\x1b[K");
    if (target !== "-") out({ file: path.resolve(target), bytes }, () => `Wrote ${target} (${formatBytes(bytes)}).`);
  });

program
  .command("bridge")
  .description("connect this machine as a device and stay online until stopped")
  .option("--name <name>", "the device's name", hostname().slice(0, 64))
  .option("--path <dir...>", "workspace roots to report (absolute; default: the current directory)")
  .action(async (opts: { name: string; path?: string[] }) => {
    const stored = await readConfig();
    const { runBridge } = await import("./bridge.ts");
    await runBridge(serverOf(globals().server, stored), {
      name: opts.name.replace(/[^A-Za-z0-9 _.@-]/g, "-") || "bridge",
      paths: opts.path ?? [process.cwd()],
      say,
      json: !!globals().json,
    });
  });

program
  .command("mcp")
  .description("serve the service's operations as Model Context Protocol tools over stdio")
  .option("--allow-writes", "also expose operations that change data (default: reads only)")
  .action(async (opts: { allowWrites?: boolean }) => {
    const { client } = await session();
    // Loaded on demand: it reads the operation registry, which the other commands do not need.
    const { serveMcp } = await import("./mcp.ts");
    await serveMcp(client, { allowWrites: !!opts.allowWrites });
  });

/** The reader of our output went away (`todo export -o - | head`): not an error, as for any Unix tool. */
const brokenPipe = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code === "EPIPE";

async function main(): Promise<void> {
  process.stdout.on("error", (err) => {
    if (brokenPipe(err)) process.exit(EXIT.OK);
    throw err;
  });
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (brokenPipe(err)) process.exit(EXIT.OK);
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
      return;
    }
    const e = err instanceof CliError ? err : new CliError((err as Error)?.message ?? String(err), EXIT.ERROR);
    if (globals().json) process.stdout.write(JSON.stringify({ error: { message: e.message, code: e.code ?? null } }) + "\n");
    process.stderr.write(`todo: ${e.message}\n`);
    process.exitCode = e.exitCode;
  }
}

await main();
