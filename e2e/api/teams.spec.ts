import { randomUUID } from "node:crypto";
import { expect, request as playwrightRequest, test, type APIResponse } from "@playwright/test";
import { bearer, createUser, dataDirOf, firstLink, readOutbox, signIn, type TestUser } from "../support/users";
import { connect, nextEvent } from "../support/sockets";

// Issue 13: teams. Roles of SPEC.md §5 item 4 (owner, admin, member, outsider, anonymous),
// single-use invites, the shared project gained and lost (HTTP and live sockets), join by domain.

type Member = { id: string; userId: string; email: string; role: string; via: string };
type Team = {
  id: string;
  ownerId: string;
  role: string;
  members: Member[];
  invites: { id: string; email: string; status: string }[];
  project: { id: string; name: string } | null;
  joinDomain: { enabled: boolean; domain: string | null; eligible: boolean };
  activity: { kind: string; userId: string | null; data: Record<string, unknown> }[];
};
type ErrorBody = { code: string; message: string; data?: Record<string, unknown> };

function api(u: TestUser) {
  const h = bearer(u.apiKey);
  return {
    get: (path: string) => u.session.get(`/api/v1${path}`, { headers: h }),
    post: (path: string, data?: unknown) => u.session.post(`/api/v1${path}`, { headers: h, data }),
    patch: (path: string, data?: unknown) => u.session.patch(`/api/v1${path}`, { headers: h, data }),
    delete: (path: string, data?: unknown) => u.session.delete(`/api/v1${path}`, { headers: h, data }),
  };
}

async function ok<T>(res: APIResponse | Promise<APIResponse>): Promise<T> {
  const r = await res;
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

async function refused(res: APIResponse | Promise<APIResponse>, status: number, code: string): Promise<ErrorBody> {
  const r = await res;
  expect(r.status(), await r.text()).toBe(status);
  const body = (await r.json()) as ErrorBody;
  expect(body.code).toBe(code);
  return body;
}

/** The token of the invite mailed to `email` (the mail job writes it to the outbox; the address also got a sign-in mail). */
async function inviteToken(dataDir: string, email: string): Promise<string> {
  let link = "";
  await expect
    .poll(async () => {
      const mail = await readOutbox(dataDir, email).catch(() => null);
      link = mail?.subject.includes("invited you") ? firstLink(mail.text) : "";
      return link;
    })
    .toMatch(/\/invite\/tti_[A-Za-z0-9_-]{43}$/);
  return link.split("/invite/")[1]!;
}

async function withToken(dataDir: string, owner: TestUser, email: string): Promise<string> {
  await ok(api(owner).post("/billing/team/members", { email }));
  return inviteToken(dataDir, email);
}

async function join(dataDir: string, owner: TestUser, user: TestUser): Promise<Team> {
  const token = await withToken(dataDir, owner, user.email);
  return ok<Team>(api(user).post("/billing/team/invites/accept", { token }));
}

function memberOf(team: Team, user: TestUser): Member {
  const m = team.members.find((x) => x.userId === user.userId);
  if (!m) throw new Error(`${user.email} is not in the team`);
  return m;
}

test("invites: the first creates the team; preview needs no sign-in and consumes nothing; a token works once, for its own address only", async ({}, info) => {
  const dataDir = dataDirOf(info);
  const [owner, alice, mallory] = await Promise.all([createUser(info, "owner"), createUser(info, "alice"), createUser(info, "mallory")]);
  expect(await ok(api(owner).get("/billing/team"))).toBeNull();

  const created = await ok<Team>(api(owner).post("/billing/team/members", { email: alice.email.toUpperCase(), teamName: "Acme" }));
  expect(created).toMatchObject({ ownerId: owner.userId, role: "owner", name: "Acme" });
  expect(created.members.map((m) => [m.userId, m.role, m.via])).toEqual([[owner.userId, "owner", "owner"]]);
  expect(created.invites.map((i) => [i.email, i.status])).toEqual([[alice.email, "pending"]]);
  const token = await inviteToken(dataDir, alice.email);

  // Anonymous preview, twice: it reads and changes nothing.
  const anonymous = await playwrightRequest.newContext({ baseURL: info.project.use.baseURL! });
  for (let i = 0; i < 2; i++) {
    const preview = await ok<Record<string, unknown>>(anonymous.get(`/api/v1/billing/team/invites/${token}`));
    expect(preview).toMatchObject({ status: "pending", email: alice.email, teamName: "Acme", memberCount: 1, invitedBy: { email: owner.email } });
  }
  await refused(anonymous.get(`/api/v1/billing/team/invites/tti_${"x".repeat(43)}`), 404, "NOT_FOUND");
  await refused(anonymous.post("/api/v1/billing/team/invites/accept", { data: { token } }), 401, "UNAUTHORIZED");
  await refused(anonymous.get("/api/v1/billing/team"), 401, "UNAUTHORIZED");
  await anonymous.dispose();

  // Another address: 422, and the invite stays pending for Alice.
  const mismatch = await refused(api(mallory).post("/billing/team/invites/accept", { token }), 422, "UNPROCESSABLE_CONTENT");
  expect(mismatch.data).toMatchObject({ reason: "email_mismatch" });
  expect(await ok(api(mallory).get("/billing/team"))).toBeNull();
  await refused(api(mallory).post("/billing/team/invites/accept", { token: "tti_nope" }), 404, "NOT_FOUND");

  const joined = await ok<Team>(api(alice).post("/billing/team/invites/accept", { token }));
  expect(joined).toMatchObject({ id: created.id, role: "member", invites: [], activity: [] });
  expect(memberOf(joined, alice)).toMatchObject({ role: "member", via: "invite" });
  // Single use: the same token again, by anyone, is 409; the preview says why.
  expect((await refused(api(alice).post("/billing/team/invites/accept", { token }), 409, "CONFLICT")).data).toMatchObject({ status: "accepted" });
  await refused(api(mallory).post("/billing/team/invites/accept", { token }), 409, "CONFLICT");
  expect(await ok(alice.session.get(`/api/v1/billing/team/invites/${token}`))).toMatchObject({ status: "accepted" });

  // Inviting a member's address is 409; one's own is 400.
  await refused(api(owner).post("/billing/team/members", { email: alice.email }), 409, "CONFLICT");
  await refused(api(owner).post("/billing/team/members", { email: owner.email }), 400, "BAD_REQUEST");
  const seen = await ok<Team>(api(owner).get("/billing/team"));
  expect(seen.activity.map((a) => a.kind)).toEqual(expect.arrayContaining(["created", "invited", "joined"]));
});

test("roles: owner, admin, member and outsider each get exactly what SPEC.md §5 item 4 gives them", async ({}, info) => {
  const dataDir = dataDirOf(info);
  const [owner, admin, member, outsider] = await Promise.all([createUser(info, "owner"), createUser(info, "admin"), createUser(info, "member"), createUser(info, "outsider")]);
  await join(dataDir, owner, admin);
  const team = await join(dataDir, owner, member);
  const adminId = memberOf(team, admin).id;
  const memberId = memberOf(team, member).id;
  const ownerMemberId = team.members.find((m) => m.role === "owner")!.id;

  // Roles: owner only.
  await refused(api(member).patch(`/billing/team/members/${adminId}/role`, { role: "admin" }), 403, "FORBIDDEN");
  await refused(api(outsider).patch(`/billing/team/members/${adminId}/role`, { role: "admin" }), 404, "NOT_FOUND");
  expect(memberOf(await ok<Team>(api(owner).patch(`/billing/team/members/${adminId}/role`, { role: "admin" })), admin).role).toBe("admin");
  await refused(api(admin).patch(`/billing/team/members/${memberId}/role`, { role: "admin" }), 403, "FORBIDDEN");
  await refused(api(owner).patch(`/billing/team/members/${ownerMemberId}/role`, { role: "member" }), 409, "CONFLICT");
  await refused(api(owner).patch(`/billing/team/members/${adminId}/role`, { role: "boss" }), 400, "BAD_REQUEST");
  await refused(api(admin).patch(`/billing/team/members/${adminId}/role`, { role: "owner" }), 403, "FORBIDDEN");

  // Invites: owner or admin; members see no invites and no log.
  await refused(api(member).post("/billing/team/members", { email: `x-${randomUUID().slice(0, 8)}@e2e.example.com` }), 403, "FORBIDDEN");
  const invitee = `invitee-${randomUUID().slice(0, 8)}@e2e.example.com`;
  const byAdmin = await ok<Team>(api(admin).post("/billing/team/members", { email: invitee }));
  const invite = byAdmin.invites.find((i) => i.email === invitee)!;
  expect((await ok<Team>(api(member).get("/billing/team"))).invites).toEqual([]);
  const token = await inviteToken(dataDir, invitee);

  // Revoke: owner or admin, only their own team's invites; it kills the token.
  await refused(api(member).delete("/billing/team/invites", { inviteId: invite.id }), 403, "FORBIDDEN");
  await refused(api(outsider).delete("/billing/team/invites", { inviteId: invite.id }), 404, "NOT_FOUND");
  // The outsider's own team (made by their first invite) does not reach our ids either.
  await ok(api(outsider).post("/billing/team/members", { email: `o-${randomUUID().slice(0, 8)}@e2e.example.com` }));
  await refused(api(outsider).delete("/billing/team/invites", { inviteId: invite.id }), 404, "NOT_FOUND");
  await refused(api(outsider).patch(`/billing/team/members/${memberId}/role`, { role: "admin" }), 404, "NOT_FOUND");
  await refused(api(outsider).delete(`/billing/team/members/${memberId}`), 404, "NOT_FOUND");
  const afterRevoke = await ok<Team>(api(admin).delete("/billing/team/invites", { inviteId: invite.id }));
  expect(afterRevoke.invites.map((i) => i.id)).not.toContain(invite.id);
  expect(await ok(member.session.get(`/api/v1/billing/team/invites/${token}`))).toMatchObject({ status: "revoked" });
  await refused(api(owner).delete("/billing/team/invites", { inviteId: invite.id }), 409, "CONFLICT");

  // Join domain: owner only; a public mail domain never (e2e.example.com is under example.com, a listed one).
  await refused(api(admin).patch("/billing/team/join-domain", { enabled: true }), 403, "FORBIDDEN");
  await refused(api(member).patch("/billing/team/join-domain", { enabled: true }), 403, "FORBIDDEN");
  expect((await refused(api(owner).patch("/billing/team/join-domain", { enabled: true }), 422, "UNPROCESSABLE_CONTENT")).data).toMatchObject({ reason: "public_domain" });

  // Removing: the owner removes; an admin may not remove others; the owner cannot leave a team with members.
  await refused(api(admin).delete(`/billing/team/members/${memberId}`), 403, "FORBIDDEN");
  await refused(api(member).delete(`/billing/team/members/${adminId}`), 403, "FORBIDDEN");
  await refused(api(owner).delete(`/billing/team/members/${ownerMemberId}`), 409, "CONFLICT");
  await refused(api(owner).delete(`/billing/team/members/${memberId}`, { memberId: adminId }), 400, "BAD_REQUEST");
  // A member leaves; the owner removes the admin; alone, the owner leaving dissolves the team.
  expect(await ok(api(member).delete(`/billing/team/members/${memberId}`))).toBeNull();
  expect(await ok(api(member).get("/billing/team"))).toBeNull();
  expect(await ok(api(owner).delete(`/billing/team/members/${adminId}`, { memberId: adminId }))).toBeNull();
  expect(await ok(api(owner).delete(`/billing/team/members/${ownerMemberId}`))).toBeNull();
  expect(await ok(api(owner).get("/billing/team"))).toBeNull();
  expect(await ok(api(admin).get("/billing/team"))).toBeNull();
});

test("shared project: members write it; clearing it and removing a member take it away from HTTP and live sockets", async ({}, info) => {
  const dataDir = dataDirOf(info);
  const [owner, member, outsider] = await Promise.all([createUser(info, "owner"), createUser(info, "member"), createUser(info, "outsider")]);
  const team = await join(dataDir, owner, member);
  const memberId = memberOf(team, member).id;
  const P = await ok<{ id: string }>(api(owner).post("/projects", { name: "Team project" }));
  const own = await ok<{ id: string }>(api(member).post("/projects", { name: "Member's own" }));
  await refused(api(member).get(`/projects/${P.id}`), 404, "NOT_FOUND");

  // Who may set it: owner or admin, and only to a project they own.
  await refused(api(member).patch("/billing/team/project", { projectId: own.id }), 403, "FORBIDDEN");
  await refused(api(outsider).patch("/billing/team/project", { projectId: P.id }), 404, "NOT_FOUND");
  await refused(api(owner).patch("/billing/team/project", { projectId: own.id }), 404, "NOT_FOUND");

  const set = await ok<Team>(api(owner).patch("/billing/team/project", { projectId: P.id }));
  expect(set.project).toEqual({ id: P.id, name: "Team project" });
  const list = await ok<{ id: string; role: string }[]>(api(member).get("/projects"));
  expect(list.map((p) => [p.id, p.role]).sort()).toEqual([[P.id, "editor"], [own.id, "owner"]].sort());
  await ok(api(member).post(`/projects/${P.id}/todos`, { content: "written by a member" }));
  expect(await ok(api(member).post("/users/default-project", { projectId: P.id }))).toBeNull();
  await refused(api(outsider).get(`/projects/${P.id}`), 404, "NOT_FOUND");

  // Clearing takes it away; setting it again gives it back.
  expect((await ok<Team>(api(owner).patch("/billing/team/project", {}))).project).toBeNull();
  await refused(api(member).get(`/projects/${P.id}`), 404, "NOT_FOUND");
  expect((await ok<{ defaultProjectId: string | null }>(api(member).get("/users/profile"))).defaultProjectId).toBeNull();
  await ok(api(owner).patch("/billing/team/project", { projectId: P.id }));
  await ok(api(member).get(`/projects/${P.id}`));

  // A live socket in the project's room, and in the member's own project's room as a witness.
  const socket = await connect(owner.baseURL, { token: member.apiKey });
  try {
    for (const id of [P.id, own.id]) await ok(member.session.post(`/api/v1/projects/${id}/subscribe`, { headers: { ...bearer(member.apiKey), "x-socket-id": socket.id! } }));
    const before = nextEvent<{ projectId: string }>(socket, "todo.created", (e) => e.projectId === P.id);
    await ok(api(owner).post(`/projects/${P.id}/todos`, { content: "seen by the member" }));
    await before;

    const seen: string[] = [];
    socket.on("todo.created", (e: { projectId: string }) => seen.push(e.projectId));
    expect(await ok(api(owner).delete(`/billing/team/members/${memberId}`))).toBeNull();
    await refused(api(member).get(`/projects/${P.id}`), 404, "NOT_FOUND");
    expect((await ok<{ id: string }[]>(api(member).get("/projects"))).map((p) => p.id)).toEqual([own.id]);
    await ok(api(owner).post(`/projects/${P.id}/todos`, { content: "not for the removed member" }));
    // Events reach one connection in the order they were published: the witness comes after.
    const witness = nextEvent<{ projectId: string }>(socket, "todo.created", (e) => e.projectId === own.id);
    await ok(api(member).post(`/projects/${own.id}/todos`, { content: "witness" }));
    await witness;
    expect(seen).toEqual([own.id]);
  } finally {
    socket.disconnect();
  }
});

test("join domain: a verified address on the owner's company domain joins at sign-in; another domain never", async ({}, info) => {
  const baseURL = info.project.use.baseURL!;
  const dataDir = dataDirOf(info);
  const domain = `acme-${randomUUID().slice(0, 8)}.test`;
  const ownerSession = await signIn(baseURL, dataDir, `boss@${domain}`);
  const h = { origin: baseURL };
  // The owner makes their team with a first invite, then turns auto-join on (cookie base).
  expect((await ownerSession.post("/cookie/v1/billing/team/members", { headers: h, data: { email: `someone@other-${domain}` } })).status()).toBe(200);
  const on = (await (await ownerSession.patch("/cookie/v1/billing/team/join-domain", { headers: h, data: { enabled: true } })).json()) as Team;
  expect(on.joinDomain).toEqual({ enabled: true, domain, eligible: true });

  const colleague = await signIn(baseURL, dataDir, `colleague@${domain}`);
  const joined = (await (await colleague.get("/cookie/v1/billing/team")).json()) as Team;
  expect(joined).toMatchObject({ id: on.id, role: "member" });
  const stranger = await signIn(baseURL, dataDir, `colleague@not-${domain}`);
  expect(await (await stranger.get("/cookie/v1/billing/team")).json()).toBeNull();

  const log = (await (await ownerSession.get("/cookie/v1/billing/team")).json()) as Team;
  const me = log.members.find((m) => m.email === `colleague@${domain}`)!;
  expect(me.via).toBe("domain");
  expect(log.activity.find((a) => a.kind === "joined" && a.userId === me.userId)?.data).toMatchObject({ via: "domain", domain });

  // Turned off, the next colleague does not join.
  await ownerSession.patch("/cookie/v1/billing/team/join-domain", { headers: h, data: { enabled: false } });
  const late = await signIn(baseURL, dataDir, `late@${domain}`);
  expect(await (await late.get("/cookie/v1/billing/team")).json()).toBeNull();
  await Promise.all([ownerSession, colleague, stranger, late].map((s) => s.dispose()));
});

test("handing the team over needs the new owner's consent: the offer moves neither the team nor its spend pool; the member named accepts, then the pool is theirs and only they act as owner", async ({}, info) => {
  type Pool = { teamPool: { teamId: string; ownerId: string } | null };
  const dataDir = dataDirOf(info);
  const [owner, heir, other] = await Promise.all([createUser(info, "owner"), createUser(info, "heir"), createUser(info, "other")]);
  await join(dataDir, owner, heir);
  const team = await join(dataDir, owner, other);
  const heirId = memberOf(team, heir).id;
  const otherId = memberOf(team, other).id;
  const ownerMemberId = team.members.find((m) => m.role === "owner")!.id;

  // The offer: nothing moves; everyone sees it.
  const offered = await ok<Team & { handover: { memberId: string; userId: string } | null }>(api(owner).patch(`/billing/team/members/${heirId}/role`, { role: "owner" }));
  expect(offered).toMatchObject({ role: "owner", ownerId: owner.userId, handover: { memberId: heirId, userId: heir.userId } });
  expect(memberOf(offered, heir).role).toBe("member");
  expect(offered.activity.some((a) => a.kind === "owner_offered" && a.userId === heir.userId)).toBe(true);
  expect((await ok<Pool>(api(other).get("/billing/usage"))).teamPool).toEqual({ teamId: team.id, ownerId: owner.userId });
  expect((await ok<Team & { handover: unknown }>(api(heir).get("/billing/team"))).handover).toMatchObject({ memberId: heirId });

  // Only the member named accepts, and only for themselves.
  const noOffer = await refused(api(other).patch(`/billing/team/members/${otherId}/role`, { role: "owner" }), 403, "FORBIDDEN");
  expect(noOffer.data).toMatchObject({ reason: "no_handover_offer" });
  await refused(api(heir).patch(`/billing/team/members/${otherId}/role`, { role: "owner" }), 403, "FORBIDDEN");
  await refused(api(heir).patch(`/billing/team/members/${ownerMemberId}/role`, { role: "member" }), 403, "FORBIDDEN");

  const accepted = await ok<Team & { handover: unknown }>(api(heir).patch(`/billing/team/members/${heirId}/role`, { role: "owner" }));
  expect(accepted).toMatchObject({ role: "owner", ownerId: heir.userId, handover: null });
  expect(memberOf(accepted, owner).role).toBe("admin");
  expect(accepted.activity.some((a) => a.kind === "owner_changed" && a.userId === heir.userId)).toBe(true);
  expect((await ok<Pool>(api(other).get("/billing/usage"))).teamPool).toEqual({ teamId: team.id, ownerId: heir.userId });
  expect((await ok<Team>(api(owner).get("/billing/team"))).role).toBe("admin");

  // Owner-only now refuses the old owner and serves the new one.
  await refused(api(owner).patch(`/billing/team/members/${ownerMemberId}/role`, { role: "member" }), 403, "FORBIDDEN");
  expect(memberOf(await ok<Team>(api(heir).patch(`/billing/team/members/${ownerMemberId}/role`, { role: "member" })), owner).role).toBe("member");
});

test("the shared spend pool: a member's turn uses up the owner's window, so the owner's next turn is 402 too; team usage shows who spent; leaving makes the member's own account pay", async ({}, info) => {
  type UsageStatus = { canStartTurn: boolean; blockedBy: string | null; session: { usedCents: number }; teamPool: { teamId: string; ownerId: string } | null };
  const dataDir = dataDirOf(info);
  const owner = await createUser(info, "pool-owner");
  const member = await createUser(info, "pool-member");
  const team = await join(dataDir, owner, member);
  expect(await ok<UsageStatus>(api(member).get("/billing/usage"))).toMatchObject({ teamPool: { teamId: team.id, ownerId: owner.userId }, canStartTurn: true });

  // The member's turn in their own project: more than the free session window (a cent per 100 words).
  const project = await ok<{ id: string }>(api(member).post("/projects", { name: "Mine" }));
  const todo = await ok<{ id: string }>(api(member).post(`/projects/${project.id}/todos`, { content: `Read this. ${"word ".repeat(6000)}`, startProcessing: true }));
  await expect.poll(async () => (await ok<{ status: string }>(api(member).get(`/todos/${todo.id}`))).status, { timeout: 30_000 }).toBe("READY");

  const pool = await ok<UsageStatus>(api(owner).get("/billing/usage"));
  expect(pool).toMatchObject({ canStartTurn: false, blockedBy: "session", teamPool: { teamId: team.id, ownerId: owner.userId } });
  expect(pool.session.usedCents).toBeGreaterThan(50);
  // The owner's own next turn is judged on the same pool.
  const ownProject = await ok<{ id: string }>(api(owner).post("/projects", { name: "Owner's" }));
  const refusedTurn = await refused(api(owner).post(`/projects/${ownProject.id}/todos`, { content: "hello", startProcessing: true }), 402, "PAYMENT_REQUIRED");
  expect(refusedTurn.data).toMatchObject({ window: "session", teamId: team.id });

  const usage = await ok<{ totals: { turns: number; costCents: number }; members: { userId: string; turns: number; costCents: number }[] }>(api(owner).get("/usage/team"));
  expect(usage.totals).toMatchObject({ turns: 1, costCents: pool.session.usedCents });
  expect(usage.members.find((m) => m.userId === member.userId)).toMatchObject({ turns: 1, costCents: pool.session.usedCents });
  // Who ran it still sees it in their own usage.
  expect((await ok<{ totals: { turns: number } }>(api(member).get("/usage"))).totals.turns).toBe(1);

  // Leaving: the member's own (untouched) account pays again.
  await ok(api(member).delete(`/billing/team/members/${memberOf(team, member).id}`, { memberId: memberOf(team, member).id }));
  expect(await ok<UsageStatus>(api(member).get("/billing/usage"))).toMatchObject({ teamPool: null, canStartTurn: true, session: { usedCents: 0 } });
});
