import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { setLogLevel } from "../../log.ts";
import { startTestApp, type TestApp, type TestAppUser } from "../../testing/app.ts";
import type { Json } from "../../testing/http.ts";
import { unlessPostgresUnavailable } from "../../testing/runtime.ts";
import { embedNow } from "./embed-job.ts";
import { cosineDistance, lexicalEmbedding, openAiProvider } from "./embeddings.ts";

test("the lexical embedding: deterministic, unit length, near for shared words and word pieces", () => {
  const a = lexicalEmbedding("Deploy the service");
  assert.deepEqual(a, lexicalEmbedding("Deploy the service"));
  assert.ok(Math.abs(a.reduce((s, x) => s + x * x, 0) - 1) < 1e-9);
  const near = cosineDistance(lexicalEmbedding("deploy"), lexicalEmbedding("deployment plan"));
  const far = cosineDistance(lexicalEmbedding("deploy"), lexicalEmbedding("banana bread recipe"));
  assert.ok(near < far, `${near} < ${far}`);
  assert.deepEqual(lexicalEmbedding("!!!"), new Array(256).fill(0));
});

test("the OpenAI-compatible provider: sends model and input, orders by index, refuses malformed answers", async () => {
  let sent: Json;
  const ok = openAiProvider({ baseUrl: "http://emb.test/v1", apiKey: "sk-test", model: "m" }, async (url, init) => {
    sent = { url, auth: (init!.headers as Record<string, string>).authorization, body: JSON.parse(String(init!.body)) };
    return Response.json({ data: [{ index: 1, embedding: [0, 2] }, { index: 0, embedding: [3, 4] }] });
  });
  assert.deepEqual(await ok.embed(["a", "b"]), [[0.6, 0.8], [0, 1]]);
  assert.deepEqual(sent, { url: "http://emb.test/v1/embeddings", auth: "Bearer sk-test", body: { model: "m", input: ["a", "b"] } });
  assert.equal(ok.model, "openai:m");
  const bad = openAiProvider({ baseUrl: "http://emb.test/v1", model: "m" }, async () => Response.json({ data: [{ index: 0, embedding: ["x"] }] }));
  await assert.rejects(bad.embed(["a"]), /malformed/);
  const down = openAiProvider({ baseUrl: "http://emb.test/v1", apiKey: "sk-secret", model: "m" }, async () => new Response("no", { status: 401 }));
  await assert.rejects(down.embed(["a"]), (e: Error) => /401/.test(e.message) && !e.message.includes("sk-secret"));
});

for (const database of ["pglite", "postgres"] as const) {
  describe(`todo_searchUnified on ${database}`, () => {
    let app: TestApp | undefined;
    let skip = "";
    const u: Record<string, TestAppUser> = {};
    const ids: Record<string, string> = {};

    before(async () => {
      setLogLevel("silent");
      const start = await unlessPostgresUnavailable(() => startTestApp({ database }));
      if (start.skip !== undefined) {
        skip = start.skip;
        return;
      }
      app = start.started;
      const p = app.rt.prisma;
      for (const name of ["owner", "viewer", "stranger"]) u[name] = await app.newUser();
      const P = (await p.project.create({ data: { ownerId: u.owner!.userId, name: "Ops" } })).id;
      const Q = (await p.project.create({ data: { ownerId: u.stranger!.userId, name: "Theirs" } })).id;
      await p.projectShare.create({ data: { projectId: P, userId: u.viewer!.userId, role: "viewer" } });
      ids.P = P;
      const todo = async (key: string, projectId: string, userId: string, content: string, messages: string[]) => {
        ids[key] = (await p.todo.create({ data: { projectId, userId, content } })).id;
        for (const m of messages) await p.message.create({ data: { todoId: ids[key]!, role: "user", content: m } });
        await embedNow("todo", ids[key]!);
      };
      await todo("older", P, u.owner!.userId, "Database migration", ["Run the kubernetes migration", "kubernetes cluster upgrade went fine", "kubernetes again"]);
      await todo("newer", P, u.owner!.userId, "Cluster costs", ["The kubernetes bill is high"]);
      await todo("deployTodo", P, u.owner!.userId, "Deployment pipeline for the website", ["nothing to see"]);
      await todo("hidden", Q, u.stranger!.userId, "Deployment of secrets", ["kubernetes secret rotation"]);
      const note = async (key: string, userId: string, projectId: string | null, content: string) => {
        ids[key] = (await p.memoryNote.create({ data: { userId, projectId, content } })).id;
        await embedNow("note", ids[key]!);
      };
      await note("projectNote", u.owner!.userId, P, "Deployments go out on Tuesdays");
      await note("personal", u.owner!.userId, null, "My deployment checklist");
      await note("strangerNote", u.stranger!.userId, null, "Deployment passwords");
    });
    after(async () => {
      await app?.close();
    });

    const search = async (who: string, query: Record<string, string>) => {
      const res = await app!.call("GET", "/search", { key: u[who]!.apiKey, query });
      assert.equal(res.status, 200, res.text);
      return res.json as Json;
    };

    test("exact matches are grouped per todo, most recent match first, with the best snippet", async (t) => {
      if (skip) return t.skip(skip);
      const body = await search("owner", { q: "kubernetes" });
      assert.deepEqual(body.exact.map((g: Json) => g.todoId), [ids.newer, ids.older]);
      assert.deepEqual(body.exact.map((g: Json) => g.matchCount), [1, 3]);
      const best = body.exact[1].best;
      assert.equal(best.todoId, ids.older);
      assert.deepEqual(best.snippet.highlights.map((r: Json) => best.snippet.text.slice(r.start, r.end)), ["kubernetes"]);
      assert.equal(body.embeddingModel, "lexical-hash-v1");
      assert.ok(!JSON.stringify(body).includes(ids.hidden!), "the stranger's todo is never shown");
    });

    test("the related tail: todos and notes the caller may read, cosine distance ascending, exact todos left out", async (t) => {
      if (skip) return t.skip(skip);
      const body = await search("owner", { q: "deployment" });
      assert.deepEqual(body.exact, []);
      const got = body.related.map((r: Json) => r.id);
      for (const want of [ids.deployTodo, ids.projectNote, ids.personal]) assert.ok(got.includes(want), `${want} in ${JSON.stringify(body.related)}`);
      for (const never of [ids.hidden, ids.strangerNote]) assert.ok(!got.includes(never));
      const scores = body.related.map((r: Json) => r.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => a - b));
      assert.ok(scores.every((s: number) => s >= 0 && s <= 0.85), "the lexical tail lists real overlap only");
      assert.equal(body.related.find((r: Json) => r.id === ids.personal).projectId, null);
      assert.equal(body.related.find((r: Json) => r.id === ids.projectNote).kind, "note");

      const viewer = await search("viewer", { q: "deployment" });
      const seen = viewer.related.map((r: Json) => r.id);
      assert.ok(seen.includes(ids.projectNote) && seen.includes(ids.deployTodo));
      assert.ok(!seen.includes(ids.personal), "another user's personal note is never related");

      const exactTodos = (await search("owner", { q: "kubernetes migration" })).exact.map((g: Json) => g.todoId);
      const rel = (await search("owner", { q: "kubernetes migration" })).related.map((r: Json) => r.id);
      assert.ok(exactTodos.every((id: string) => !rel.includes(id)));

      const scoped = await search("owner", { q: "deployment", projectId: ids.P! });
      assert.ok(!scoped.related.some((r: Json) => r.id === ids.personal), "a project scope leaves personal notes out");
      assert.deepEqual((await search("owner", { q: "deployment", relatedLimit: "0" })).related, []);
    });

    test("removing access removes the results at once; bad input is a 400", async (t) => {
      if (skip) return t.skip(skip);
      await app!.rt.prisma.projectShare.deleteMany({ where: { userId: u.viewer!.userId } });
      const body = await search("viewer", { q: "deployment kubernetes" });
      assert.deepEqual(body.exact, []);
      assert.deepEqual((await search("viewer", { q: "deployment" })).related, []);
      for (const query of [{}, { q: "" }, { q: "..." }, { q: "a", limit: "0" }, { q: "a", relatedLimit: "-1" }]) {
        const res = await app!.call("GET", "/search", { key: u.owner!.apiKey, query: query as Record<string, string> });
        assert.equal(res.status, 400, JSON.stringify(query));
      }
    });
  });
}

test("recallNotes: the caller's readable notes nearest to a text, never another user's", async () => {
  setLogLevel("silent");
  const app = await startTestApp();
  try {
    const [me, them] = [await app.newUser(), await app.newUser()];
    const p = app.rt.prisma;
    const mine = await p.memoryNote.create({ data: { userId: me.userId, content: "Invoices go to accounting@example.com" } });
    const theirs = await p.memoryNote.create({ data: { userId: them.userId, content: "Invoices are secret" } });
    await p.memoryNote.create({ data: { userId: me.userId, content: "Cats like boxes" } });
    for (const n of [mine, theirs]) await embedNow("note", n.id);
    const { recallNotes } = await import("../notes/notes.ts");
    const { resolveApiKey } = await import("../../auth/resolve.ts");
    const got = await recallNotes((await resolveApiKey(me.apiKey))!, "where do invoices go", { limit: 5 });
    assert.deepEqual(got.map((g) => g.note.id), [mine.id], "the unembedded note is not found yet; the other user's never");
    assert.ok(got[0]!.score < 1);
  } finally {
    await app.close();
  }
});
