import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { AppEvent } from "../../realtime/bus.ts";
import { createTestUser, suiteTestRuntime, withPostgresRuntime } from "../../testing/runtime.ts";
import { apiError, callerOf } from "../../testing/caller.ts";
import { ZBillingInfoInput } from "../../../lib/schemas/billing.ts";
import { ZUserSettingsUpdateInput } from "../../../lib/schemas/settings.ts";
import { getProfile } from "../users/users.ts";
import { setDefaultProject, updateProjectAgentMapping } from "../users/preferences.ts";
import { updateBillingInfo } from "./billing.ts";
import { getProjectSettings, projectSettingsFromStored, updateProjectSettings } from "./project-settings.ts";
import { appSettingsFromStored, DEFAULT_APP_SETTINGS, getUserSettings, updateUserSettings } from "./user-settings.ts";

const t = suiteTestRuntime();

async function projectWith(role?: "editor" | "viewer") {
  const owner = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: owner.id, name: "P" } });
  const other = await createTestUser(t.prisma);
  if (role) await t.prisma.projectShare.create({ data: { projectId: project.id, userId: other.id, role } });
  return { owner: callerOf(owner), other: callerOf(other), project };
}

describe("appSettingsFromStored (defaults filled on read)", () => {
  test("nothing stored → every default, updatedAt null", () => {
    const expected = { ...DEFAULT_APP_SETTINGS, updatedAt: null };
    assert.deepEqual(appSettingsFromStored(undefined), expected);
    assert.deepEqual(appSettingsFromStored({}), expected);
    assert.deepEqual(appSettingsFromStored([]), expected);
    assert.deepEqual(appSettingsFromStored("x"), expected);
    assert.deepEqual(expected, { theme: "system", timezone: "UTC", locale: "en", emailNotifications: true, defaultAgent: null, updatedAt: null });
  });

  test("stored values are kept; a missing one is defaulted", () => {
    assert.deepEqual(appSettingsFromStored({ theme: "dark", timezone: "Europe/Berlin", updatedAt: 5 }), {
      ...DEFAULT_APP_SETTINGS,
      theme: "dark",
      timezone: "Europe/Berlin",
      updatedAt: 5,
    });
  });

  test("invalid stored values fall back to their default instead of failing the response", () => {
    const got = appSettingsFromStored({ theme: "neon", timezone: "Mars/Olympus", locale: 7, emailNotifications: "yes", defaultAgent: { temperature: 99 }, updatedAt: "now", extra: 1 });
    assert.deepEqual(got, { ...DEFAULT_APP_SETTINGS, updatedAt: null });
  });

  test("time zones and locales come back canonical", () => {
    const got = appSettingsFromStored({ timezone: "america/new_york", locale: "de-ch" });
    assert.equal(got.timezone, "America/New_York");
    assert.equal(got.locale, "de-CH");
  });
});

describe("UserSettingsUpdateInput", () => {
  test("needs at least one field; validates timezone with Intl and canonicalises it", () => {
    assert.equal(ZUserSettingsUpdateInput.safeParse({}).success, false);
    const bad = ZUserSettingsUpdateInput.safeParse({ timezone: "Mars/Olympus" });
    assert.ok(!bad.success);
    assert.deepEqual(bad.error.issues.map((i) => i.path.join(".")), ["timezone"]);
    assert.equal(ZUserSettingsUpdateInput.parse({ timezone: " europe/paris " }).timezone, "Europe/Paris");
    assert.equal(ZUserSettingsUpdateInput.parse({ locale: "EN-gb" }).locale, "en-GB");
    for (const locale of ["english", "x", "en_US", ""]) assert.equal(ZUserSettingsUpdateInput.safeParse({ locale }).success, false, locale);
    assert.equal(ZUserSettingsUpdateInput.safeParse({ theme: "neon" }).success, false);
    assert.equal(ZUserSettingsUpdateInput.safeParse({ defaultAgent: null }).success, true);
  });
});

describe("user settings", () => {
  test("partial updates merge; the profile shows the same object", async () => {
    const user = await createTestUser(t.prisma);
    assert.deepEqual(await getUserSettings(callerOf(user)), { ...DEFAULT_APP_SETTINGS, updatedAt: null });
    const before = Date.now();
    await updateUserSettings(callerOf(user), { theme: "dark" });
    await updateUserSettings(callerOf(user), { timezone: "Asia/Tokyo", defaultAgent: { provider: "local", model: "gpt-4o-mini" } });
    const s = await getUserSettings(callerOf(user));
    assert.deepEqual({ ...s, updatedAt: 0 }, { theme: "dark", timezone: "Asia/Tokyo", locale: "en", emailNotifications: true, defaultAgent: { provider: "local", model: "gpt-4o-mini" }, updatedAt: 0 });
    assert.ok(s.updatedAt! >= before);
    assert.deepEqual((await getProfile(callerOf(user))).settings, s);
    await updateUserSettings(callerOf(user), { defaultAgent: null, emailNotifications: false });
    const cleared = await getUserSettings(callerOf(user));
    assert.equal(cleared.defaultAgent, null);
    assert.equal(cleared.emailNotifications, false);
    assert.equal(cleared.theme, "dark");
  });

  test("billing info does not touch the settings, and is replaced as a whole", async () => {
    const user = await createTestUser(t.prisma);
    await updateUserSettings(callerOf(user), { theme: "light" });
    const first = await updateBillingInfo(
      callerOf(user),
      ZBillingInfoInput.parse({ name: "ACME", email: "a@acme.example", address: { line1: "1 Road", line2: "", city: "London", postalCode: "SW1A 1AA", country: "GB" }, taxId: { type: "gb_vat", value: "gb 123 456 789" } }),
    );
    assert.equal(first.updated, true);
    assert.deepEqual({ ...first.billingInfo, updatedAt: 0 }, {
      name: "ACME",
      email: "a@acme.example",
      address: { line1: "1 Road", city: "London", postalCode: "SW1A 1AA", country: "GB" },
      taxId: { type: "gb_vat", value: "GB123456789" },
      updatedAt: 0,
    });
    const second = await updateBillingInfo(callerOf(user), ZBillingInfoInput.parse({ name: "ACME Ltd", address: { line1: "2 Road", city: "Leeds", postalCode: "LS1", country: "GB" } }));
    const row = await t.prisma.userSettings.findUniqueOrThrow({ where: { userId: user.id } });
    assert.deepEqual(row.billingInfo, second.billingInfo);
    assert.equal("taxId" in (row.billingInfo as object), false);
    assert.equal((await getUserSettings(callerOf(user))).theme, "light");
  });
});

describe("project settings", () => {
  test("defaults, then partial updates by an editor; brandMarkdown lives in the column; event published", async () => {
    const { owner, other: editor, project } = await projectWith("editor");
    const initial = await getProjectSettings(owner, project.id);
    assert.deepEqual({ ...initial, updatedAt: 0 }, { projectId: project.id, brandMarkdown: "", defaultGroupSlug: null, agentDefaults: null, agentSettings: null, updatedAt: 0 });
    await t.prisma.todoGroup.create({ data: { projectId: project.id, slug: "inbox", name: "Inbox" } });
    const seen: AppEvent[] = [];
    const stop = t.bus.subscribe((e) => seen.push(e));
    await updateProjectSettings(editor, project.id, { brandMarkdown: "# Brand", defaultGroupSlug: "inbox" });
    await updateProjectSettings(owner, project.id, { agentDefaults: { provider: "local", model: "gpt-4o-mini" } });
    stop();
    assert.deepEqual(seen.map((e) => [e.type, e.projectId, e.data]), [
      ["project.updated", project.id, { action: "settings" }],
      ["project.updated", project.id, { action: "settings" }],
    ]);
    const s = await getProjectSettings(editor, project.id);
    assert.deepEqual({ ...s, updatedAt: 0 }, { projectId: project.id, brandMarkdown: "# Brand", defaultGroupSlug: "inbox", agentDefaults: { provider: "local", model: "gpt-4o-mini" }, agentSettings: null, updatedAt: 0 });
    assert.ok(s.updatedAt >= initial.updatedAt);
    const row = await t.prisma.project.findUniqueOrThrow({ where: { id: project.id } });
    assert.equal(row.brandMarkdown, "# Brand");
    await updateProjectSettings(owner, project.id, { defaultGroupSlug: null, agentDefaults: null });
    const cleared = await getProjectSettings(owner, project.id);
    assert.deepEqual([cleared.defaultGroupSlug, cleared.agentDefaults, cleared.brandMarkdown], [null, null, "# Brand"]);
  });

  test("an unknown defaultGroupSlug is 404 and changes nothing", async () => {
    const { owner, project } = await projectWith();
    await assert.rejects(updateProjectSettings(owner, project.id, { brandMarkdown: "x", defaultGroupSlug: "nope" }), apiError("NOT_FOUND", /nope/));
    assert.equal((await getProjectSettings(owner, project.id)).brandMarkdown, "");
  });

  test("viewer reads but cannot write (403); stranger 404 for both", async () => {
    const { other: viewer, project } = await projectWith("viewer");
    const stranger = callerOf(await createTestUser(t.prisma));
    assert.equal((await getProjectSettings(viewer, project.id)).projectId, project.id);
    await assert.rejects(updateProjectSettings(viewer, project.id, { brandMarkdown: "x" }), apiError("FORBIDDEN"));
    await assert.rejects(getProjectSettings(stranger, project.id), apiError("NOT_FOUND"));
    await assert.rejects(updateProjectSettings(stranger, project.id, { brandMarkdown: "x" }), apiError("NOT_FOUND"));
  });

  test("stored values that no longer fit read as null", () => {
    assert.deepEqual(projectSettingsFromStored({ defaultGroupSlug: "Not A Slug", agentDefaults: { provider: "http://169.254.169.254/v1" } }), { defaultGroupSlug: null, agentDefaults: null });
    assert.deepEqual(projectSettingsFromStored(null), { defaultGroupSlug: null, agentDefaults: null });
  });
});

describe("user preferences", () => {
  test("agent mapping: per caller, read access is enough, null removes it", async () => {
    const { owner, other: viewer, project } = await projectWith("viewer");
    await updateProjectAgentMapping(viewer, { projectId: project.id, agentSettings: { provider: "local", temperature: 0.5 } });
    await updateProjectAgentMapping(viewer, { projectId: project.id, agentSettings: { provider: "local", temperature: 0.7 } });
    assert.deepEqual((await getProjectSettings(viewer, project.id)).agentSettings, { provider: "local", temperature: 0.7 });
    assert.equal((await getProjectSettings(owner, project.id)).agentSettings, null, "another user's mapping is not shown");
    await updateProjectAgentMapping(viewer, { projectId: project.id, agentSettings: null });
    assert.equal((await getProjectSettings(viewer, project.id)).agentSettings, null);
    const stranger = callerOf(await createTestUser(t.prisma));
    await assert.rejects(updateProjectAgentMapping(stranger, { projectId: project.id, agentSettings: {} }), apiError("NOT_FOUND"));
  });

  test("default project: own or shared; a stranger's is 404 and leaves the old one", async () => {
    const { owner, other: viewer, project } = await projectWith("viewer");
    await setDefaultProject(viewer, project.id);
    assert.equal((await getProfile(viewer)).defaultProjectId, project.id);
    const mine = await t.prisma.project.create({ data: { ownerId: owner.userId, name: "Mine" } });
    await assert.rejects(setDefaultProject(viewer, mine.id), apiError("NOT_FOUND"));
    await assert.rejects(setDefaultProject(viewer, "cmissing"), apiError("NOT_FOUND"));
    assert.equal((await getProfile(viewer)).defaultProjectId, project.id);
  });
});

describe("on a PostgreSQL server (overlapping updates)", () => {
  const pg = withPostgresRuntime(before, after);

  test("concurrent partial updates of user settings lose no field", async (ctx) => {
    const pgRt = pg.get();
    if (!pgRt) return ctx.skip(pg.reason());
    const user = await createTestUser(pgRt.prisma);
    await Promise.all([
      updateUserSettings(callerOf(user), { theme: "dark" }),
      updateUserSettings(callerOf(user), { timezone: "Europe/Berlin" }),
      updateUserSettings(callerOf(user), { locale: "fr" }),
      updateUserSettings(callerOf(user), { emailNotifications: false }),
      updateUserSettings(callerOf(user), { defaultAgent: { model: "gpt-4o-mini" } }),
    ]);
    const s = await getUserSettings(callerOf(user));
    assert.deepEqual({ ...s, updatedAt: 0 }, { theme: "dark", timezone: "Europe/Berlin", locale: "fr", emailNotifications: false, defaultAgent: { model: "gpt-4o-mini" }, updatedAt: 0 });
  });

  test("concurrent partial updates of project settings lose no field", async (ctx) => {
    const pgRt = pg.get();
    if (!pgRt) return ctx.skip(pg.reason());
    const owner = callerOf(await createTestUser(pgRt.prisma));
    const project = await pgRt.prisma.project.create({ data: { ownerId: owner.userId, name: "P" } });
    await pgRt.prisma.todoGroup.create({ data: { projectId: project.id, slug: "g", name: "G" } });
    await Promise.all([
      updateProjectSettings(owner, project.id, { defaultGroupSlug: "g" }),
      updateProjectSettings(owner, project.id, { agentDefaults: { model: "gpt-4o-mini" } }),
      updateProjectSettings(owner, project.id, { brandMarkdown: "b" }),
    ]);
    const s = await getProjectSettings(owner, project.id);
    assert.deepEqual([s.defaultGroupSlug, s.agentDefaults, s.brandMarkdown], ["g", { model: "gpt-4o-mini" }, "b"]);
  });
});
