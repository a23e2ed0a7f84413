import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../http/errors.ts";
import type { AppEvent } from "../../realtime/bus.ts";
import { createTestUser, suiteTestRuntime, withPostgresRuntime } from "../../testing/runtime.ts";
import { apiError, callerOf } from "../../testing/caller.ts";
import { requireProjectAccess } from "../access.ts";
import { getProjectBrand } from "./brand.ts";
import { listCards } from "./cards.ts";
import { listGroups, upsertGroup } from "./groups.ts";
import { shareProject } from "./sharing.ts";

const t = suiteTestRuntime();

async function setup() {
  const owner = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: owner.id, name: "Shared" } });
  return { owner, project, ownerCaller: callerOf(owner) };
}

function events(): { seen: AppEvent[]; stop: () => void } {
  const seen: AppEvent[] = [];
  const stop = t.bus.subscribe((e) => seen.push(e));
  return { seen, stop };
}

describe("shareProject", () => {
  test("shares as editor by default, case-insensitively, and publishes project.updated to the project and the sharee", async () => {
    const { project, ownerCaller } = await setup();
    const sharee = await createTestUser(t.prisma);
    const ev = events();
    const out = await shareProject(ownerCaller, project.id, { email: sharee.email.toUpperCase(), role: "editor" });
    ev.stop();
    assert.equal(out.id, project.id);
    assert.equal("role" in out, false, "the plain Project, not ProjectFull");
    assert.equal(await requireProjectAccess(callerOf(sharee), project.id, "write"), "editor");
    assert.equal(ev.seen.length, 1);
    assert.deepEqual(
      { type: ev.seen[0]!.type, projectId: ev.seen[0]!.projectId, userId: ev.seen[0]!.userId },
      { type: "project.updated", projectId: project.id, userId: sharee.id },
    );
    const data = ev.seen[0]!.data as { action: string; userId: string; role: string; project: { id: string } };
    assert.deepEqual([data.action, data.userId, data.role, data.project.id], ["shared", sharee.id, "editor", project.id]);
  });

  test("sharing again changes the role (one share row)", async () => {
    const { project, ownerCaller } = await setup();
    const sharee = await createTestUser(t.prisma);
    await shareProject(ownerCaller, project.id, { email: sharee.email, role: "editor" });
    await shareProject(ownerCaller, project.id, { email: sharee.email, role: "viewer" });
    assert.equal(await t.prisma.projectShare.count({ where: { projectId: project.id } }), 1);
    await assert.rejects(requireProjectAccess(callerOf(sharee), project.id, "write"), apiError("FORBIDDEN"));
    assert.equal(await requireProjectAccess(callerOf(sharee), project.id, "read"), "viewer");
  });

  test("unknown email → 404 'No user with that email'; own email → 400; nothing is shared", async () => {
    const { owner, project, ownerCaller } = await setup();
    await assert.rejects(shareProject(ownerCaller, project.id, { email: "nobody-here@unit.example.com", role: "editor" }), apiError("NOT_FOUND", /^No user with that email$/));
    await assert.rejects(shareProject(ownerCaller, project.id, { email: owner.email.toUpperCase(), role: "viewer" }), (e: unknown) => {
      assert.ok(e instanceof ApiError && e.code === "BAD_REQUEST");
      assert.deepEqual((e.data as { issues: { path: string }[] }).issues.map((i) => i.path), ["body.email"]);
      return true;
    });
    assert.equal(await t.prisma.projectShare.count({ where: { projectId: project.id } }), 0);
  });

  test("only the owner shares: a sharee gets 403, a stranger 404 (before the email is looked at)", async () => {
    const { project, ownerCaller } = await setup();
    const editor = await createTestUser(t.prisma);
    const stranger = await createTestUser(t.prisma);
    await shareProject(ownerCaller, project.id, { email: editor.email, role: "editor" });
    await assert.rejects(shareProject(callerOf(editor), project.id, { email: stranger.email, role: "viewer" }), apiError("FORBIDDEN"));
    await assert.rejects(shareProject(callerOf(stranger), project.id, { email: "nobody@unit.example.com", role: "viewer" }), apiError("NOT_FOUND", /^Project not found$/));
  });
});

describe("getProjectBrand", () => {
  test("public: anyone, also anonymous; private: readers only, others exactly like a missing project", async () => {
    const { project, ownerCaller } = await setup();
    await t.prisma.project.update({ where: { id: project.id }, data: { brandMarkdown: "# Hello" } });
    const viewer = await createTestUser(t.prisma);
    const stranger = await createTestUser(t.prisma);
    await shareProject(ownerCaller, project.id, { email: viewer.email, role: "viewer" });
    assert.deepEqual(await getProjectBrand(ownerCaller, project.id), { projectId: project.id, markdown: "# Hello" });
    assert.deepEqual(await getProjectBrand(callerOf(viewer), project.id), { projectId: project.id, markdown: "# Hello" });
    const missing = await getProjectBrand(null, "cmissing").catch((e: ApiError) => e.toBody());
    assert.deepEqual(await getProjectBrand(null, project.id).catch((e: ApiError) => e.toBody()), missing);
    assert.deepEqual(await getProjectBrand(callerOf(stranger), project.id).catch((e: ApiError) => e.toBody()), missing);

    await t.prisma.project.update({ where: { id: project.id }, data: { isPublic: true } });
    assert.equal((await getProjectBrand(null, project.id)).markdown, "# Hello");
    assert.equal((await getProjectBrand(callerOf(stranger), project.id)).markdown, "# Hello");
  });
});

describe("groups", () => {
  test("upsert creates, then renames by slug; positions default to after the last group; list orders by position then creation", async () => {
    const { project, ownerCaller } = await setup();
    const a = await upsertGroup(ownerCaller, project.id, "backlog", { name: "Backlog" });
    const b = await upsertGroup(ownerCaller, project.id, "doing", { name: "Doing" });
    const c = await upsertGroup(ownerCaller, project.id, "first", { name: "First", position: 0 });
    assert.deepEqual([a.position, b.position, c.position], [0, 1, 0]);
    const renamed = await upsertGroup(ownerCaller, project.id, "backlog", { name: "Later" });
    assert.equal(renamed.id, a.id);
    assert.equal(renamed.position, 0, "a rename without position keeps the place");
    assert.equal(renamed.name, "Later");
    const list = await listGroups(ownerCaller, project.id);
    assert.deepEqual(list.map((g) => g.slug), ["backlog", "first", "doing"]);
    assert.ok(list.every((g) => g.todoCount === 0 && g.projectId === project.id));
    const moved = await upsertGroup(ownerCaller, project.id, "doing", { name: "Doing", position: 0 });
    assert.equal(moved.position, 0);
  });

  test("todoCount counts the group's todos", async () => {
    const { owner, project, ownerCaller } = await setup();
    const g = await upsertGroup(ownerCaller, project.id, "g", { name: "G" });
    await t.prisma.todo.createMany({
      data: [
        { projectId: project.id, userId: owner.id, content: "one", groupId: g.id },
        { projectId: project.id, userId: owner.id, content: "two", groupId: g.id },
        { projectId: project.id, userId: owner.id, content: "ungrouped" },
      ],
    });
    assert.equal((await listGroups(ownerCaller, project.id))[0]!.todoCount, 2);
    assert.equal((await upsertGroup(ownerCaller, project.id, "g", { name: "G2" })).todoCount, 2);
  });

  test("concurrent upserts of one slug all succeed and leave one group", async () => {
    const { project, ownerCaller } = await setup();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => upsertGroup(ownerCaller, project.id, "race", { name: `Race ${i}` })));
    assert.equal(new Set(results.map((r) => r.id)).size, 1);
    assert.equal(await t.prisma.todoGroup.count({ where: { projectId: project.id } }), 1);
  });

  test("publishes project.updated {action: group}; viewers may list but not upsert; strangers get 404", async () => {
    const { project, ownerCaller } = await setup();
    const viewer = await createTestUser(t.prisma);
    const stranger = await createTestUser(t.prisma);
    await shareProject(ownerCaller, project.id, { email: viewer.email, role: "viewer" });
    const ev = events();
    const g = await upsertGroup(ownerCaller, project.id, "x", { name: "X" });
    ev.stop();
    assert.deepEqual(ev.seen.map((e) => [e.type, e.projectId, (e.data as { action: string }).action]), [["project.updated", project.id, "group"]]);
    assert.deepEqual((ev.seen[0]!.data as { group: unknown }).group, g);
    assert.equal((await listGroups(callerOf(viewer), project.id)).length, 1);
    await assert.rejects(upsertGroup(callerOf(viewer), project.id, "y", { name: "Y" }), apiError("FORBIDDEN"));
    await assert.rejects(listGroups(callerOf(stranger), project.id), apiError("NOT_FOUND"));
    await assert.rejects(upsertGroup(callerOf(stranger), project.id, "y", { name: "Y" }), apiError("NOT_FOUND"));
  });
});

describe("listCards", () => {
  test("lists the project's renderer cards oldest first, and only this project's", async () => {
    const { project, ownerCaller } = await setup();
    const other = await setup();
    assert.deepEqual(await listCards(ownerCaller, project.id), []);
    const first = await t.prisma.rendererCard.create({ data: { projectId: project.id, name: "Chart", html: "<div>chart</div>", createdAt: new Date(1_700_000_000_000) } });
    await t.prisma.rendererCard.create({ data: { projectId: project.id, name: "Table", description: "Rows", html: "<table></table>", createdAt: new Date(1_700_000_001_000) } });
    await t.prisma.rendererCard.create({ data: { projectId: other.project.id, name: "Elsewhere", html: "<p></p>" } });
    const cards = await listCards(ownerCaller, project.id);
    assert.deepEqual(cards[0], { id: first.id, projectId: project.id, name: "Chart", description: "", html: "<div>chart</div>", createdAt: 1_700_000_000_000 });
    assert.deepEqual(cards.map((c) => c.name), ["Chart", "Table"]);
    await assert.rejects(listCards(other.ownerCaller, project.id), apiError("NOT_FOUND"));
  });
});

// PGlite is one connection; on a PostgreSQL server the upserts below really overlap.
describe("on a PostgreSQL server (overlapping requests)", () => {
  const pg = withPostgresRuntime(before, after);

  test("concurrent first upserts of one slug all succeed and leave one group", async (ctx) => {
    const pgRt = pg.get();
    if (!pgRt) return ctx.skip(pg.reason());
    const owner = await createTestUser(pgRt.prisma);
    const project = await pgRt.prisma.project.create({ data: { ownerId: owner.id, name: "Race" } });
    for (let round = 0; round < 3; round++) {
      const slug = `race-${round}`;
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => upsertGroup(callerOf(owner), project.id, slug, { name: `Race ${i}` })));
      assert.equal(new Set(results.map((r) => r.id)).size, 1);
    }
    assert.equal(await pgRt.prisma.todoGroup.count({ where: { projectId: project.id } }), 3);
  });

  test("concurrent shares with one user leave one share", async (ctx) => {
    const pgRt = pg.get();
    if (!pgRt) return ctx.skip(pg.reason());
    const owner = await createTestUser(pgRt.prisma);
    const sharee = await createTestUser(pgRt.prisma);
    const project = await pgRt.prisma.project.create({ data: { ownerId: owner.id, name: "Race" } });
    await Promise.all(Array.from({ length: 6 }, (_, i) => shareProject(callerOf(owner), project.id, { email: sharee.email, role: i % 2 ? "viewer" : "editor" })));
    assert.equal(await pgRt.prisma.projectShare.count({ where: { projectId: project.id } }), 1);
  });
});
