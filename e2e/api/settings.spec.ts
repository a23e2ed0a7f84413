import { expect, test } from "@playwright/test";
import { bearer, createUser, type TestUser } from "../support/users";
import { connect, nextEvent } from "../support/sockets";

type AppSettings = { theme: string; timezone: string; locale: string; emailNotifications: boolean; defaultAgent: object | null; updatedAt: number | null };
type ProjectSettings = { projectId: string; brandMarkdown: string; defaultGroupSlug: string | null; agentDefaults: object | null; agentSettings: object | null; updatedAt: number };
type ErrorBody = { message: string; code: string; data?: { issues?: { path: string }[] } };

const DEFAULTS = { theme: "system", timezone: "UTC", locale: "en", emailNotifications: true, defaultAgent: null, updatedAt: null };

function paths(body: ErrorBody): string[] {
  return (body.data?.issues ?? []).map((i) => i.path);
}

async function newProject(u: TestUser): Promise<string> {
  const res = await u.session.post("/api/v1/projects", { headers: bearer(u.apiKey), data: { name: "Configured" } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function shareWith(owner: TestUser, projectId: string, who: TestUser, role: "editor" | "viewer") {
  const res = await owner.session.post(`/api/v1/projects/${projectId}/share`, { headers: bearer(owner.apiKey), data: { email: who.email, role } });
  expect(res.status(), await res.text()).toBe(200);
}

function getProjectSettings(u: TestUser, projectId: string) {
  return u.session.get(`/api/v1/settings/projects/${projectId}`, { headers: bearer(u.apiKey) });
}

function putProjectSettings(u: TestUser, projectId: string, data: unknown) {
  return u.session.put(`/api/v1/settings/projects/${projectId}`, { headers: bearer(u.apiKey), data });
}

test("user settings: defaults, partial updates, canonical time zone, the profile shows the same", async ({}, info) => {
  const u = await createUser(info);
  const h = bearer(u.apiKey);
  const initial = await u.session.get("/api/v1/settings/user", { headers: h });
  expect(initial.status()).toBe(200);
  expect(await initial.json()).toEqual(DEFAULTS);

  const put = await u.session.put("/api/v1/settings/user", { headers: h, data: { theme: "dark", timezone: "europe/berlin" } });
  expect(put.status(), await put.text()).toBe(200);
  expect(await put.text()).toBe("null");
  expect((await u.session.put("/cookie/v1/settings/user", { data: { locale: "de-ch", defaultAgent: { provider: "local", model: "gpt-4.1-nano" } } })).status()).toBe(200);

  const s = (await (await u.session.get("/api/v1/settings/user", { headers: h })).json()) as AppSettings;
  expect(s).toMatchObject({ theme: "dark", timezone: "Europe/Berlin", locale: "de-CH", emailNotifications: true, defaultAgent: { provider: "local", model: "gpt-4.1-nano" } });
  expect(Number.isInteger(s.updatedAt)).toBe(true);
  const profile = (await (await u.session.get("/api/v1/users/profile", { headers: h })).json()) as { settings: AppSettings };
  expect(profile.settings).toEqual(s);

  expect((await u.session.put("/api/v1/settings/user", { headers: h, data: { defaultAgent: null, emailNotifications: false } })).status()).toBe(200);
  const cleared = (await (await u.session.get("/api/v1/settings/user", { headers: h })).json()) as AppSettings;
  expect(cleared).toMatchObject({ theme: "dark", defaultAgent: null, emailNotifications: false });
});

test("user settings validation → 400 with the field's path; nothing changes", async ({ request }, info) => {
  const u = await createUser(info);
  const h = bearer(u.apiKey);
  for (const [data, expected] of [
    [{}, ["body"]],
    [{ timezone: "Mars/Olympus_Mons" }, ["body.timezone"]],
    [{ theme: "neon" }, ["body.theme"]],
    [{ locale: "not a locale" }, ["body.locale"]],
    [{ emailNotifications: "yes" }, ["body.emailNotifications"]],
    [{ defaultAgent: { temperature: 9 } }, ["body.defaultAgent.temperature"]],
  ] as const) {
    const res = await u.session.put("/api/v1/settings/user", { headers: h, data });
    expect(res.status(), JSON.stringify(data)).toBe(400);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe("BAD_REQUEST");
    expect(paths(body)).toEqual(expected);
  }
  expect(await (await u.session.get("/api/v1/settings/user", { headers: h })).json()).toEqual(DEFAULTS);
  expect((await request.get("/api/v1/settings/user")).status()).toBe(401);
  expect((await request.put("/api/v1/settings/user", { data: { theme: "dark" } })).status()).toBe(401);
});

test("billing info: stored canonical and replaced as a whole; shape errors at their path; not served to device tokens", async ({ request }, info) => {
  const u = await createUser(info);
  const h = bearer(u.apiKey);
  const body = {
    name: "ACME GmbH",
    email: "invoices@acme.example",
    address: { line1: "Hauptstraße 1", line2: "", city: "Berlin", postalCode: "10115", country: "DE" },
    taxId: { type: "eu_vat", value: "de 123 456 789" },
  };
  const res = await u.session.put("/api/v1/settings/user/billing", { headers: h, data: body });
  expect(res.status(), await res.text()).toBe(200);
  const out = (await res.json()) as { updated: boolean; billingInfo: Record<string, unknown> & { updatedAt: number } };
  expect(out).toEqual({
    updated: true,
    billingInfo: {
      name: "ACME GmbH",
      email: "invoices@acme.example",
      address: { line1: "Hauptstraße 1", city: "Berlin", postalCode: "10115", country: "DE" },
      taxId: { type: "eu_vat", value: "DE123456789" },
      updatedAt: out.billingInfo.updatedAt,
    },
  });

  const replaced = await u.session.put("/cookie/v1/settings/user/billing", {
    data: { name: "ACME Inc", address: { line1: "1 Main St", city: "Austin", postalCode: "78701", state: "TX", country: "US" }, taxId: { type: "us_ein", value: "12-3456789" } },
  });
  expect(replaced.status(), await replaced.text()).toBe(200);
  expect(((await replaced.json()) as { billingInfo: object }).billingInfo).toMatchObject({ name: "ACME Inc", taxId: { type: "us_ein", value: "12-3456789" } });

  for (const [taxId, path] of [
    [{ type: "eu_vat", value: "US123456789" }, "body.taxId.value"],
    [{ type: "gb_vat", value: "GB1234" }, "body.taxId.value"],
    [{ type: "us_ein", value: "123456789" }, "body.taxId.value"],
    [{ type: "au_abn", value: "1234" }, "body.taxId.value"],
    [{ type: "in_gst", value: "22AAAAA0000A1X5" }, "body.taxId.value"],
    [{ type: "xx_vat", value: "1" }, "body.taxId.type"],
  ] as const) {
    const bad = await u.session.put("/api/v1/settings/user/billing", { headers: h, data: { ...body, taxId } });
    expect(bad.status(), JSON.stringify(taxId)).toBe(400);
    const err = (await bad.json()) as ErrorBody & { data: { issues: { path: string; message: string }[] } };
    expect(paths(err)).toEqual([path]);
    if (path === "body.taxId.value") expect(err.data.issues[0]!.message).toMatch(/^must be /);
  }
  for (const [address, path] of [
    [{ ...body.address, country: "de" }, "body.address.country"],
    [{ ...body.address, country: "XX" }, "body.address.country"],
    [{ ...body.address, line1: "" }, "body.address.line1"],
    [{ line1: "x", city: "y", country: "DE" }, "body.address.postalCode"],
  ] as const) {
    const bad = await u.session.put("/api/v1/settings/user/billing", { headers: h, data: { ...body, address } });
    expect(bad.status(), JSON.stringify(address)).toBe(400);
    expect(paths((await bad.json()) as ErrorBody)).toEqual([path]);
  }

  // Device tokens are not served this operation (404 naming the bases, before any credential check).
  const dst = await request.put("/dst/v1/settings/user/billing", { headers: bearer("dst_whatever"), data: body });
  expect(dst.status()).toBe(404);
  expect(((await dst.json()) as ErrorBody).message).toMatch(/\/api\/v1 or \/cookie\/v1/);
  expect((await request.put("/api/v1/settings/user/billing", { data: body })).status()).toBe(401);
});

test("project settings: defaults, partial updates by owner and editor, brand served by project_getBrand, event published", async ({}, info) => {
  const [owner, editor] = await Promise.all([createUser(info, "owner"), createUser(info, "editor")]);
  const pid = await newProject(owner);
  await shareWith(owner, pid, editor, "editor");

  const initial = await getProjectSettings(owner, pid);
  expect(initial.status()).toBe(200);
  const init = (await initial.json()) as ProjectSettings;
  expect(init).toEqual({ projectId: pid, brandMarkdown: "", defaultGroupSlug: null, agentDefaults: null, agentSettings: null, updatedAt: init.updatedAt });

  expect((await owner.session.put(`/api/v1/projects/${pid}/groups/inbox`, { headers: bearer(owner.apiKey), data: { name: "Inbox" } })).status()).toBe(200);

  const socket = await connect(owner.baseURL, { token: owner.apiKey });
  try {
    await owner.session.post(`/api/v1/projects/${pid}/subscribe`, { headers: { ...bearer(owner.apiKey), "x-socket-id": socket.id! } });
    const event = nextEvent<{ projectId: string; data: { action: string } }>(socket, "project.updated", (e) => e.projectId === pid);
    const put = await putProjectSettings(editor, pid, { brandMarkdown: "# Hi", defaultGroupSlug: "inbox" });
    expect(put.status(), await put.text()).toBe(200);
    expect(await put.text()).toBe("null");
    expect((await event).data).toEqual({ action: "settings" });
  } finally {
    socket.disconnect();
  }
  expect((await owner.session.put(`/cookie/v1/settings/projects/${pid}`, { data: { agentDefaults: { provider: "openai", model: "gpt-4.1-mini" } } })).status()).toBe(200);

  const s = (await (await getProjectSettings(editor, pid)).json()) as ProjectSettings;
  expect(s).toMatchObject({ projectId: pid, brandMarkdown: "# Hi", defaultGroupSlug: "inbox", agentDefaults: { provider: "openai", model: "gpt-4.1-mini" }, agentSettings: null });
  expect(s.updatedAt).toBeGreaterThanOrEqual(init.updatedAt);
  expect(await (await owner.session.get(`/api/v1/projects/${pid}/brand`, { headers: bearer(owner.apiKey) })).json()).toEqual({ projectId: pid, markdown: "# Hi" });

  expect((await putProjectSettings(owner, pid, { defaultGroupSlug: null, agentDefaults: null })).status()).toBe(200);
  const cleared = (await (await getProjectSettings(owner, pid)).json()) as ProjectSettings;
  expect(cleared).toMatchObject({ brandMarkdown: "# Hi", defaultGroupSlug: null, agentDefaults: null });
});

test("project settings errors: unknown group 404, too large or empty body 400, viewer 403, stranger 404, anonymous 401", async ({ request }, info) => {
  const [owner, viewer, stranger] = await Promise.all([createUser(info, "owner"), createUser(info, "viewer"), createUser(info, "stranger")]);
  const pid = await newProject(owner);
  await shareWith(owner, pid, viewer, "viewer");

  const unknown = await putProjectSettings(owner, pid, { brandMarkdown: "changed?", defaultGroupSlug: "nope" });
  expect(unknown.status()).toBe(404);
  expect(((await unknown.json()) as ErrorBody).code).toBe("NOT_FOUND");

  for (const [data, expected] of [
    [{}, ["body"]],
    [{ brandMarkdown: "x".repeat(100 * 1024 + 1) }, ["body.brandMarkdown"]],
    [{ brandMarkdown: "é".repeat(51_201) }, ["body.brandMarkdown"]], // 102,402 bytes of UTF-8
    [{ defaultGroupSlug: "Not A Slug" }, ["body.defaultGroupSlug"]],
    [{ agentDefaults: { provider: "mystery" } }, ["body.agentDefaults.provider"]],
  ] as const) {
    const res = await putProjectSettings(owner, pid, data);
    expect(res.status(), JSON.stringify(data).slice(0, 60)).toBe(400);
    expect(paths((await res.json()) as ErrorBody)).toEqual(expected);
  }
  expect((await putProjectSettings(owner, pid, { brandMarkdown: "x".repeat(100 * 1024) })).status()).toBe(200);

  expect((await getProjectSettings(viewer, pid)).status()).toBe(200);
  const denied = await putProjectSettings(viewer, pid, { brandMarkdown: "viewer was here" });
  expect(denied.status()).toBe(403);
  expect(((await denied.json()) as ErrorBody).code).toBe("FORBIDDEN");

  const missing = await getProjectSettings(stranger, "cmissingproject0000000000");
  const foreign = await getProjectSettings(stranger, pid);
  expect(foreign.status()).toBe(404);
  expect(await foreign.json()).toEqual(await missing.json());
  expect((await putProjectSettings(stranger, pid, { brandMarkdown: "x" })).status()).toBe(404);
  expect((await request.get(`/api/v1/settings/projects/${pid}`)).status()).toBe(401);
  expect((await request.put(`/api/v1/settings/projects/${pid}`, { data: { brandMarkdown: "x" } })).status()).toBe(401);

  const s = (await (await getProjectSettings(owner, pid)).json()) as ProjectSettings;
  expect(s.brandMarkdown).toBe("x".repeat(100 * 1024));
});

test("project agent mapping: the caller's own, read access enough, shown in project settings", async ({ request }, info) => {
  const [owner, viewer, stranger] = await Promise.all([createUser(info, "owner"), createUser(info, "viewer"), createUser(info, "stranger")]);
  const pid = await newProject(owner);
  await shareWith(owner, pid, viewer, "viewer");
  const map = (u: TestUser, data: unknown) => u.session.post("/api/v1/users/project-agent-mapping", { headers: bearer(u.apiKey), data });

  const res = await map(viewer, { projectId: pid, agentSettings: { provider: "local", temperature: 0.2 } });
  expect(res.status(), await res.text()).toBe(200);
  expect(await res.text()).toBe("null");
  expect((await map(viewer, { projectId: pid, agentSettings: { provider: "openai", model: "gpt-4.1-nano" } })).status()).toBe(200);
  expect(((await (await getProjectSettings(viewer, pid)).json()) as ProjectSettings).agentSettings).toEqual({ provider: "openai", model: "gpt-4.1-nano" });
  expect(((await (await getProjectSettings(owner, pid)).json()) as ProjectSettings).agentSettings).toBeNull();

  expect((await map(owner, { projectId: pid, agentSettings: { model: "o4-mini" } })).status()).toBe(200);
  expect(((await (await getProjectSettings(owner, pid)).json()) as ProjectSettings).agentSettings).toEqual({ model: "o4-mini" });
  expect(((await (await getProjectSettings(viewer, pid)).json()) as ProjectSettings).agentSettings).toEqual({ provider: "openai", model: "gpt-4.1-nano" });

  expect((await map(viewer, { projectId: pid, agentSettings: null })).status()).toBe(200);
  expect(((await (await getProjectSettings(viewer, pid)).json()) as ProjectSettings).agentSettings).toBeNull();

  const bad = await map(viewer, { projectId: pid, agentSettings: { temperature: 5 } });
  expect(bad.status()).toBe(400);
  expect(paths((await bad.json()) as ErrorBody)).toEqual(["body.agentSettings.temperature"]);
  const noSettings = await map(viewer, { projectId: pid });
  expect(noSettings.status()).toBe(400);
  expect(paths((await noSettings.json()) as ErrorBody)).toEqual(["body.agentSettings"]);
  expect((await map(stranger, { projectId: pid, agentSettings: {} })).status()).toBe(404);
  expect((await request.post("/api/v1/users/project-agent-mapping", { data: { projectId: pid, agentSettings: {} } })).status()).toBe(401);
});

test("default project: own or shared is accepted, anything else is 404 and keeps the old one", async ({ request }, info) => {
  const [owner, viewer] = await Promise.all([createUser(info, "owner"), createUser(info, "viewer")]);
  const shared = await newProject(owner);
  const privateOne = await newProject(owner);
  const own = await newProject(viewer);
  await shareWith(owner, shared, viewer, "viewer");
  const set = (projectId: unknown) => viewer.session.post("/api/v1/users/default-project", { headers: bearer(viewer.apiKey), data: { projectId } });
  const profile = async () => ((await (await viewer.session.get("/api/v1/users/profile", { headers: bearer(viewer.apiKey) })).json()) as { defaultProjectId: string | null }).defaultProjectId;

  expect(await profile()).toBeNull();
  const res = await set(own);
  expect(res.status(), await res.text()).toBe(200);
  expect(await res.text()).toBe("null");
  expect(await profile()).toBe(own);
  expect((await set(shared)).status()).toBe(200);
  expect(await profile()).toBe(shared);

  expect((await set(privateOne)).status()).toBe(404);
  expect((await set("cmissingproject0000000000")).status()).toBe(404);
  const noId = await viewer.session.post("/api/v1/users/default-project", { headers: bearer(viewer.apiKey), data: {} });
  expect(noId.status()).toBe(400);
  expect(paths((await noId.json()) as ErrorBody)).toEqual(["body.projectId"]);
  expect(await profile()).toBe(shared);
  expect((await viewer.session.post("/cookie/v1/users/default-project", { data: { projectId: own } })).status()).toBe(200);
  expect(await profile()).toBe(own);
  expect((await request.post("/api/v1/users/default-project", { data: { projectId: own } })).status()).toBe(401);
});

test("the user's name: set through settings, read back by user_profile, cleared with null; bad names are 400 and change nothing", async ({}, info) => {
  const u = await createUser(info);
  const put = (data: unknown) => u.session.put("/api/v1/settings/user", { headers: bearer(u.apiKey), data });
  const profile = async () => ((await (await u.session.get("/api/v1/users/profile", { headers: bearer(u.apiKey) })).json()) as { name: string | null }).name;
  expect((await put({ name: "  Ada Lovelace " })).status()).toBe(200);
  expect(await profile()).toBe("Ada Lovelace");
  for (const bad of ["", "   ", "x".repeat(101), 42]) {
    const res = await put({ name: bad });
    expect(res.status(), JSON.stringify(bad)).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("BAD_REQUEST");
  }
  expect(await profile()).toBe("Ada Lovelace");
  expect((await put({ name: null })).status()).toBe(200);
  expect(await profile()).toBeNull();
});
