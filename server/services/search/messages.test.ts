import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { setLogLevel } from "../../log.ts";
import { startTestApp, type TestApp, type TestAppUser } from "../../testing/app.ts";
import type { Json } from "../../testing/http.ts";
import { unlessPostgresUnavailable } from "../../testing/runtime.ts";
import { queryWords, splitSnippet } from "./query.ts";
import { rareGateSql, runMessageSearch, type MessageSearchRow } from "./messages.ts";
import type { Prisma } from "../../db/generated/client.ts";

// todo_searchMessages through the real pipeline, on the embedded database and (when a server
// answers, always in CI) on PostgreSQL: the generated tsvector column must behave the same.

test("splitSnippet: markers become plain text and offsets", () => {
  assert.deepEqual(splitSnippet("a \u0002run\u0003 and \u0002runs\u0003"), { text: "a run and runs", highlights: [{ start: 2, end: 5 }, { start: 10, end: 14 }] });
  assert.deepEqual(splitSnippet("<b>x</b>"), { text: "<b>x</b>", highlights: [] });
  assert.deepEqual(splitSnippet("\u0002\u0003x"), { text: "x", highlights: [] });
});

/** Which of runMessageSearch's statements `sql` is. */
const statementOf = (sql: Prisma.Sql) =>
  sql.sql.trimStart().startsWith("SELECT message_search_rare") ? "gate" : sql.sql.includes("WITH matched") ? "indexed" : sql.sql.includes('max("seq")') ? "window" : "recent";

for (const database of ["pglite", "postgres"] as const) {
  // As the service chooses (runMessageSearch): the rare-word gate as its own statement on PostgreSQL only.
  const gateFirst = database === "postgres";
  describe(`todo_searchMessages on ${database}`, () => {
    let app: TestApp | undefined;
    let skip = "";
    const u: Record<string, TestAppUser> = {};
    let P = "";
    let Q = "";
    let T1 = "";
    let T2 = "";
    let TQ = "";

    before(async () => {
      setLogLevel("silent");
      const start = await unlessPostgresUnavailable(() => startTestApp({ database }));
      if (start.skip !== undefined) {
        skip = start.skip;
        return;
      }
      app = start.started;
      const p = app.rt.prisma;
      for (const name of ["owner", "viewer", "teammate", "stranger"]) u[name] = await app.newUser();
      P = (await p.project.create({ data: { ownerId: u.owner!.userId, name: "Garden" } })).id;
      Q = (await p.project.create({ data: { ownerId: u.stranger!.userId, name: "Secret" } })).id;
      await p.projectShare.create({ data: { projectId: P, userId: u.viewer!.userId, role: "viewer" } });
      const team = await p.team.create({ data: { ownerId: u.owner!.userId, name: "Team", projectId: P } });
      await p.teamMember.create({ data: { teamId: team.id, userId: u.teammate!.userId, role: "member" } });
      T1 = (await p.todo.create({ data: { projectId: P, userId: u.owner!.userId, content: "Plant tomatoes" } })).id;
      T2 = (await p.todo.create({ data: { projectId: P, userId: u.viewer!.userId, content: "Water roses" } })).id;
      TQ = (await p.todo.create({ data: { projectId: Q, userId: u.stranger!.userId, content: "Hidden" } })).id;
      await p.message.create({ data: { todoId: T1, role: "user", content: "We are running the irrigation tonight" } });
      await p.message.create({ data: { todoId: T1, role: "assistant", content: "The irrigation schedule runs at 9 pm <script>alert(1)</script>" } });
      await p.message.create({ data: { todoId: T2, role: "user", content: "Deployment of the irrigation pump" } });
      await p.message.create({ data: { todoId: TQ, role: "user", content: "secret irrigation plans" } });
    });
    after(async () => {
      await app?.close();
    });

    const search = async (who: string, query: Record<string, string>) => {
      const res = await app!.call("GET", "/messages/search", { key: u[who]!.apiKey, query });
      assert.equal(res.status, 200, res.text);
      return res.json as Json;
    };

    test("a stranger never sees another's messages; owner, viewer and team member see the project's", async (t) => {
      if (skip) return t.skip(skip);
      for (const who of ["owner", "viewer", "teammate"]) {
        const body = await search(who, { q: "irrigation" });
        assert.equal(body.items.length, 3, who);
        assert.ok(body.items.every((h: Json) => h.projectId === P), who);
      }
      const stranger = await search("stranger", { q: "irrigation" });
      assert.deepEqual(stranger.items.map((h: Json) => h.todoId), [TQ]);
    });

    test("newest first, English stems, the last word as a prefix, snippets highlight the words as plain text", async (t) => {
      if (skip) return t.skip(skip);
      const body = await search("owner", { q: "run" });
      assert.deepEqual(body.items.map((h: Json) => h.role), ["assistant", "user"]);
      const first = body.items[0];
      assert.equal(first.todoTitle, "Plant tomatoes");
      assert.equal(first.projectName, "Garden");
      assert.equal(first.messageId, first.id);
      const marked = first.snippet.highlights.map((r: Json) => first.snippet.text.slice(r.start, r.end));
      assert.deepEqual(marked, ["runs"]);
      assert.match(first.snippet.text, /<script>/, "the content stays text: no markup is added and none is interpreted");
      const prefix = await search("owner", { q: "the deplo" });
      assert.deepEqual(prefix.items.map((h: Json) => h.todoId), [T2]);
      assert.deepEqual(
        prefix.items[0].snippet.highlights.map((r: Json) => prefix.items[0].snippet.text.slice(r.start, r.end)),
        ["Deployment"],
      );
      const typed = await search("owner", { q: "irrigat", todoId: T1, role: "user" });
      assert.deepEqual(
        typed.items[0].snippet.highlights.map((r: Json) => typed.items[0].snippet.text.slice(r.start, r.end)),
        ["irrigation"],
        "a prefix of the word as typed is marked although its English stem is shorter",
      );
      assert.equal((await search("owner", { q: "irrigation tomatoes" })).items.length, 0, "every word must occur in the message");
      assert.equal((await search("owner", { q: "'); DROP TABLE \"Message\"; -- irrigation:* & !" })).items.length, 0);
    });

    test("scoping by project, todo and role", async (t) => {
      if (skip) return t.skip(skip);
      assert.equal((await search("owner", { q: "irrigation", todoId: T1 })).items.length, 2);
      assert.equal((await search("owner", { q: "irrigation", todoId: T1, role: "assistant" })).items.length, 1);
      assert.equal((await search("owner", { q: "irrigation", projectId: P, role: "user" })).items.length, 2);
      assert.equal((await search("owner", { q: "irrigation", projectId: Q })).items.length, 0, "a hidden project matches nothing");
      assert.equal((await search("owner", { q: "irrigation", todoId: TQ })).items.length, 0, "a hidden todo matches nothing");
    });

    test("bad input is a 400 in the error shape", async (t) => {
      if (skip) return t.skip(skip);
      for (const query of [{}, { q: "" }, { q: "   " }, { q: "!!! ..." }, { q: "x".repeat(501) }, { q: "a", cursor: "abc" }, { q: "a", role: "robot" }, { q: "a", limit: "0" }]) {
        const res = await app!.call("GET", "/messages/search", { key: u.owner!.apiKey, query: query as Record<string, string> });
        assert.equal(res.status, 400, JSON.stringify(query));
        assert.equal((res.json as Json).code, "BAD_REQUEST");
      }
      assert.equal((await app!.call("GET", "/messages/search", { query: { q: "a" } })).status, 401);
    });

    test("removing access removes the results at once", async (t) => {
      if (skip) return t.skip(skip);
      const p = app!.rt.prisma;
      await p.projectShare.deleteMany({ where: { projectId: P, userId: u.viewer!.userId } });
      await p.teamMember.deleteMany({ where: { userId: u.teammate!.userId } });
      assert.equal((await search("viewer", { q: "irrigation" })).items.length, 0);
      assert.equal((await search("teammate", { q: "irrigation" })).items.length, 0);
      await p.projectShare.create({ data: { projectId: P, userId: u.viewer!.userId, role: "viewer" } });
      assert.equal((await search("viewer", { q: "irrigation" })).items.length, 3);
    });

    test("the three plans (recent window, newest sequence numbers, every match) page alike (property)", async (t) => {
      if (skip) return t.skip(skip);
      const p = app!.rt.prisma;
      const mine = (await p.todo.create({ data: { projectId: P, userId: u.owner!.userId, content: "Plans" } })).id;
      const hidden = (await p.todo.create({ data: { projectId: Q, userId: u.stranger!.userId, content: "Plans hidden" } })).id;
      // The owner's messages interleaved with a stranger's, which share every word.
      const words = (i: number) => [i % 2 === 0 ? "alphaword" : "filler", i % 7 === 0 ? "betaword" : "", i % 5 === 0 ? "gammaword" : ""].join(" ");
      for (let i = 0; i < 70; i++) {
        await p.message.create({ data: { todoId: i % 3 === 2 ? hidden : mine, role: i % 4 === 0 ? "assistant" : "user", content: `plan ${i} ${words(i)}` } });
      }
      const all = await p.message.findMany({ where: { todoId: mine }, orderBy: { seq: "desc" }, select: { id: true, content: true, role: true } });
      const caller = { userId: u.owner!.userId, todoScope: null };
      const ended = new Set<number>();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("alphaword", "betaword", "gammaword bet", "alphaword gam", "plan alp"),
          fc.integer({ min: 1, max: 12 }),
          // Up to 80: more than the todo's messages, so plan 1 also ends a search on a window that is not full.
          fc.record({ recent: fc.integer({ min: 1, max: 80 }), seqs: fc.integer({ min: 1, max: 60 }) }),
          fc.constantFrom(undefined, "user" as const),
          async (q, limit, windows, role) => {
            const seen: string[] = [];
            let cursor: string | undefined;
            for (let pages = 0; pages < 100; pages++) {
              let statements = 0;
              const rows = await runMessageSearch<MessageSearchRow>(
                (sql) => {
                  statements++;
                  return p.$queryRaw<MessageSearchRow[]>(sql);
                },
                caller,
                { words: queryWords(q), limit, todoId: mine, role, cursor },
                { windows, gateFirst },
              );
              ended.add(statements);
              seen.push(...rows.slice(0, limit).map((r) => r.id));
              if (rows.length <= limit) break;
              cursor = String(rows[limit - 1]!.seq);
            }
            const [a, b] = q.split(" ");
            const want = all.filter((m) => {
              const w = m.content.split(" ");
              return (role === undefined || m.role === role) && (b === undefined ? w.includes(a!) : w.includes(a!) && w.some((x) => x.startsWith(b)));
            });
            assert.deepEqual(seen, want.map((m) => m.id));
          },
        ),
        {
          numRuns: 40,
          // Besides the random runs, one that each plan ends (so the check below never rests on chance):
          // a word in the recent window; a common word past a one-message window; a rare one past both.
          examples: [
            ["alphaword", 1, { recent: 40, seqs: 60 }, undefined],
            ["alphaword", 2, { recent: 1, seqs: 60 }, undefined],
            ["betaword", 12, { recent: 1, seqs: 1 }, undefined],
          ],
        },
      );
      // Never analysed, the gate lets every plan run: one, two or three plans (and, on PostgreSQL, the gate before them).
      assert.deepEqual([...ended].sort(), gateFirst ? [2, 3, 4] : [1, 2, 3], "some page was ended by each plan");
    });

    test("once analysed, a word the statistics call rare skips the recent window; the results stay the same", async (t) => {
      if (skip) return t.skip(skip);
      const p = app!.rt.prisma;
      const todo = (await p.todo.create({ data: { projectId: P, userId: u.owner!.userId, content: "Gate" } })).id;
      for (let i = 0; i < 40; i++) await p.message.create({ data: { todoId: todo, role: "user", content: `gatefiller ${i}` } });
      const rare = await p.message.create({ data: { todoId: todo, role: "user", content: "gatefiller gaterareword" } });
      await p.$executeRawUnsafe(`ANALYZE "Message"`);
      const caller = { userId: u.owner!.userId, todoScope: null };
      const gate = async (q: string) => (await p.$queryRaw<{ rare: boolean }[]>(rareGateSql(caller, { words: queryWords(q), limit: 5 })))[0]!.rare;
      // One message in the whole table: too rare to be found 6 times in the newest 300.
      assert.equal(await gate("gaterareword"), true, "a rare word skips the first plan");
      assert.equal(await gate("gatefiller"), false, "a common word still takes the first plan");
      const plans = async (q: string) => {
        const run: string[] = [];
        const rows = await runMessageSearch<MessageSearchRow>(
          async (sql) => {
            const out = await p.$queryRaw<unknown[]>(sql);
            run.push(`${statementOf(sql)}:${out.length}`);
            return out;
          },
          caller,
          { words: queryWords(q), limit: 5, todoId: todo },
          { gateFirst },
        );
        return { run, ids: rows.map((r) => r.id) };
      };
      // One match cannot fill the window's page either, so the last plan runs too. On PostgreSQL
      // plan 1 is not sent; on the embedded database it is, and its one-time filter reads nothing.
      assert.deepEqual(await plans("gaterareword"), { run: [...(gateFirst ? ["gate:1"] : ["recent:0"]), "window:1", "indexed:1"], ids: [rare.id] });
      // 41 matches: plan 1 returns its first limit + 2 (it asks one more than the page, and one more for the window's end).
      assert.deepEqual((await plans("gatefiller")).run, [...(gateFirst ? ["gate:1"] : []), "recent:7"]);
      assert.deepEqual((await search("owner", { q: "gaterareword" })).items.map((h: Json) => h.id), [rare.id]);
    });

    test("a light user's search ends in plan 1 when their messages do not fill its window, a word common elsewhere included", async (t) => {
      if (skip) return t.skip(skip);
      const p = app!.rt.prisma;
      const light = await app!.newUser();
      const lp = (await p.project.create({ data: { ownerId: light.userId, name: "Light" } })).id;
      const lt = (await p.todo.create({ data: { projectId: lp, userId: light.userId, content: "Few" } })).id;
      const mine = [];
      for (let i = 0; i < 3; i++) mine.push(await p.message.create({ data: { todoId: lt, role: "user", content: `lightword note ${i}` } }));
      await p.message.create({ data: { todoId: lt, role: "user", content: "nothing to see" } });
      // The word is everywhere else: a stranger's 30 messages.
      for (let i = 0; i < 30; i++) await p.message.create({ data: { todoId: TQ, role: "user", content: `lightword elsewhere ${i}` } });
      // The statistics know the word is common (else the gate would send a rare word past plan 1, as it should).
      await p.$executeRawUnsafe(`ANALYZE "Message"`);
      const caller = { userId: light.userId, todoScope: null };
      const run: string[] = [];
      const rows = await runMessageSearch<MessageSearchRow>(
        (sql) => {
          run.push(statementOf(sql));
          return p.$queryRaw<unknown[]>(sql);
        },
        caller,
        { words: queryWords("lightword"), limit: 20 },
        { gateFirst },
      );
      assert.deepEqual(rows.map((r) => r.id), mine.map((m) => m.id).reverse());
      assert.deepEqual(run, [...(gateFirst ? ["gate"] : []), "recent"], "the 4 messages did not fill the window of 300: no other plan");
      // A word they never wrote: still one plan, and nothing found.
      assert.deepEqual((await search("owner", { q: "lightword" })).items, []);
      const res = await app!.call("GET", "/messages/search", { key: light.apiKey, query: { q: "elsewhere" } });
      assert.deepEqual((res.json as Json).items, []);
    });

    test("paging never repeats or skips a message (property)", async (t) => {
      if (skip) return t.skip(skip);
      const p = app!.rt.prisma;
      const todo = (await p.todo.create({ data: { projectId: P, userId: u.owner!.userId, content: "Paging" } })).id;
      // Same createdAt for many: only `seq` orders them.
      const at = new Date();
      const contents = Array.from({ length: 37 }, (_, i) => `pagingword number ${i} ${i % 3 === 0 ? "tulip" : "daisy"}`);
      for (const content of contents) await p.message.create({ data: { todoId: todo, role: "user", content, createdAt: at } });
      const all = await p.message.findMany({ where: { todoId: todo }, orderBy: { seq: "desc" }, select: { id: true, content: true } });
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.constantFrom("pagingword", "tulip", "daisy", "pagingw"), async (limit, q) => {
          const seen: string[] = [];
          let cursor: string | null = null;
          let pages = 0;
          do {
            const body: Json = await search("owner", { q, todoId: todo, limit: String(limit), ...(cursor ? { cursor } : {}) });
            assert.ok(body.items.length <= limit);
            seen.push(...body.items.map((h: Json) => h.id));
            cursor = body.nextCursor;
            pages++;
            assert.ok(pages < 100);
          } while (cursor);
          const want = all.filter((m) => m.content.includes(q === "pagingw" ? "pagingword" : q)).map((m) => m.id);
          assert.deepEqual(seen, want);
        }),
        { numRuns: 15 },
      );
    });
  });
}
