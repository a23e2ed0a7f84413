import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setLogLevel } from "../log.ts";
import { startResendStandin, type ResendStandin } from "../testing/resend-standin.ts";
import { createMailer, escapeHtml, OutboxMailer, ResendMailer } from "./mailer.ts";
import { signInMail } from "./templates.ts";

let tmp: string;
before(async () => {
  setLogLevel("silent");
  tmp = await mkdtemp(path.join(tmpdir(), "mailer-test-"));
});
after(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("escapeHtml", () => {
  test("escapes the five HTML-special characters and nothing else", () => {
    assert.equal(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`), "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
    assert.equal(escapeHtml("plain text, ünïcode"), "plain text, ünïcode");
    assert.equal(escapeHtml("&amp;"), "&amp;amp;");
  });
});

describe("OutboxMailer", () => {
  test("writes one JSON file with to, subject, text, html and sentAt (creating the directory)", async () => {
    const dir = path.join(tmp, "nested", "outbox");
    const mailer = new OutboxMailer(dir);
    const before = Date.now();
    const sent = await mailer.send({ to: "ada@example.com", subject: "Hello", text: "Body text", html: "<p>Body</p>" });
    const files = await readdir(dir);
    assert.equal(files.length, 1);
    assert.match(files[0]!, /\.json$/);
    assert.equal(sent.file, path.join(dir, files[0]!));
    const stored = JSON.parse(await readFile(sent.file!, "utf8"));
    assert.equal(stored.to, "ada@example.com");
    assert.equal(stored.subject, "Hello");
    assert.equal(stored.text, "Body text");
    assert.equal(stored.html, "<p>Body</p>");
    assert.equal(typeof stored.sentAt, "number");
    assert.ok(stored.sentAt >= before && stored.sentAt <= Date.now());
    assert.equal(stored.id, sent.id);
    assert.equal(sent.via, "outbox");
    assert.equal(sent.sentAt, stored.sentAt);
  });

  test("without html, the text is sent as escaped <pre>", async () => {
    const dir = path.join(tmp, "outbox-plain");
    const sent = await new OutboxMailer(dir).send({ to: "b@example.com", subject: "S", text: "1 < 2 & 'x'" });
    const stored = JSON.parse(await readFile(sent.file!, "utf8"));
    assert.equal(stored.html, "<pre>1 &lt; 2 &amp; &#39;x&#39;</pre>");
    assert.equal(sent.html, stored.html);
  });

  test("each message is its own file, named so that files sort by time", async () => {
    const dir = path.join(tmp, "outbox-many");
    const mailer = new OutboxMailer(dir);
    const sent = [];
    for (let i = 0; i < 3; i++) {
      sent.push(await mailer.send({ to: `u${i}@example.com`, subject: `n${i}`, text: "t" }));
      await new Promise((r) => setTimeout(r, 5));
    }
    const files = (await readdir(dir)).sort();
    assert.equal(files.length, 3);
    assert.equal(new Set(sent.map((s) => s.id)).size, 3);
    const subjects = await Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), "utf8")).subject));
    assert.deepEqual(subjects, ["n0", "n1", "n2"]);
  });

  test("with an idempotency key a message is written once: a second send returns the first", async () => {
    const dir = path.join(tmp, "outbox-idempotent");
    const mailer = new OutboxMailer(dir);
    const first = await mailer.send({ to: "a@example.com", subject: "Invite", text: "t" }, { idempotencyKey: "mail.send:job-1:send" });
    const again = await mailer.send({ to: "a@example.com", subject: "Invite", text: "t" }, { idempotencyKey: "mail.send:job-1:send" });
    const other = await mailer.send({ to: "a@example.com", subject: "Invite", text: "t" }, { idempotencyKey: "mail.send:job-2:send" });
    assert.deepEqual([again.id, again.file, again.sentAt], [first.id, first.file, first.sentAt]);
    assert.notEqual(other.id, first.id);
    assert.equal((await readdir(dir)).length, 2);
  });

  test("a sign-in mail stores a followable link", async () => {
    const dir = path.join(tmp, "outbox-signin");
    const url = "http://localhost:3000/api/auth/callback/resend?token=abc&email=a%40b.c";
    const sent = await new OutboxMailer(dir).send(signInMail("a@b.c", url));
    const stored = JSON.parse(await readFile(sent.file!, "utf8"));
    assert.ok(stored.text.includes(url));
    assert.ok(stored.html.includes(escapeHtml(url)));
    assert.match(stored.subject, /Sign in/);
  });
});

describe("ResendMailer through the real resend SDK and a local stand-in", () => {
  let standin: ResendStandin;
  let savedBaseUrl: string | undefined;
  before(async () => {
    standin = await startResendStandin();
    savedBaseUrl = process.env.RESEND_BASE_URL;
    // The SDK reads RESEND_BASE_URL in the Resend constructor, i.e. when the mailer is created.
    process.env.RESEND_BASE_URL = standin.url;
  });
  after(async () => {
    if (savedBaseUrl === undefined) delete process.env.RESEND_BASE_URL;
    else process.env.RESEND_BASE_URL = savedBaseUrl;
    await standin.close();
  });
  afterEach(() => standin.reset());

  test("POSTs /emails with the API key, from, to, subject, text and html, and returns Resend's id", async () => {
    const mailer = new ResendMailer("re_test_123", "Todo Service <no-reply@todo.example>");
    const sent = await mailer.send({ to: "ada@example.com", subject: "Hi", text: "Hello <Ada>", html: "<b>Hello</b>" });
    assert.equal(standin.requests.length, 1);
    const r = standin.requests[0]!;
    assert.equal(r.method, "POST");
    assert.equal(r.path, "/emails");
    assert.equal(r.headers.authorization, "Bearer re_test_123");
    assert.match(String(r.headers["content-type"]), /^application\/json/);
    const body = r.json as Record<string, unknown>;
    assert.equal(body.from, "Todo Service <no-reply@todo.example>");
    assert.deepEqual([body.to].flat(), ["ada@example.com"]);
    assert.equal(body.subject, "Hi");
    assert.equal(body.text, "Hello <Ada>");
    assert.equal(body.html, "<b>Hello</b>");
    assert.equal(standin.emails.length, 1);
    assert.equal(sent.id, standin.emails[0]!.id);
    assert.equal(sent.via, "resend");
    assert.equal(sent.to, "ada@example.com");
    assert.ok(Math.abs(sent.sentAt - Date.now()) < 10_000);
  });

  test("an idempotency key goes to Resend as the Idempotency-Key header; without one none is sent", async () => {
    const mailer = new ResendMailer("re_test_123", "x@todo.example");
    await mailer.send({ to: "b@example.com", subject: "S", text: "t" }, { idempotencyKey: "mail.send:job-1:send" });
    await mailer.send({ to: "b@example.com", subject: "S", text: "t" });
    assert.equal(standin.requests[0]!.headers["idempotency-key"], "mail.send:job-1:send");
    assert.equal(standin.requests[1]!.headers["idempotency-key"], undefined);
  });

  test("without html it sends the text as escaped <pre>", async () => {
    await new ResendMailer("re_test_123", "x@todo.example").send({ to: "b@example.com", subject: "S", text: "a & b" });
    assert.equal((standin.requests[0]!.json as { html: string }).html, "<pre>a &amp; b</pre>");
  });

  test("an error answer makes send() reject with Resend's message", async () => {
    standin.failNext(422, { statusCode: 422, name: "validation_error", message: "Invalid `to` field." });
    const mailer = new ResendMailer("re_test_123", "x@todo.example");
    await assert.rejects(mailer.send({ to: "not-an-address", subject: "S", text: "t" }), (err: Error) => {
      assert.match(err.message, /^Resend refused the message: Invalid `to` field\.$/);
      return true;
    });
    assert.equal(standin.requests.length, 1);
    assert.equal(standin.emails.length, 0);
  });

  test("a 5xx answer that is not JSON also rejects clearly", async () => {
    standin.failNext(503, "<html>upstream down</html>");
    await assert.rejects(new ResendMailer("re_test_123", "x@todo.example").send({ to: "a@example.com", subject: "S", text: "t" }), (err: Error) => {
      assert.match(err.message, /^Resend refused the message: \S/);
      assert.doesNotMatch(err.message, /no id returned/);
      return true;
    });
  });

  test("an unreachable server rejects instead of hanging", async () => {
    // A port that was free a moment ago: nothing listens on it.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    process.env.RESEND_BASE_URL = `http://127.0.0.1:${port}`;
    try {
      const mailer = new ResendMailer("re_test_123", "x@todo.example");
      await assert.rejects(mailer.send({ to: "a@example.com", subject: "S", text: "t" }), /Resend refused the message/);
    } finally {
      process.env.RESEND_BASE_URL = standin.url;
    }
  });

  test("the base URL is read when the mailer is created", async () => {
    const mailer = new ResendMailer("re_test_123", "x@todo.example");
    process.env.RESEND_BASE_URL = "http://127.0.0.1:1";
    try {
      await mailer.send({ to: "late@example.com", subject: "S", text: "t" });
    } finally {
      process.env.RESEND_BASE_URL = standin.url;
    }
    assert.equal(standin.emails.length, 1);
  });

  test("the stand-in can be awaited for a message (for e2e tests)", async () => {
    const wait = standin.waitForEmail((m) => m.to === "later@example.com" || (Array.isArray(m.to) && m.to.includes("later@example.com")), 5000);
    await new ResendMailer("re_k", "x@todo.example").send({ to: "later@example.com", subject: "Later", text: "t" });
    assert.equal((await wait).subject, "Later");
    await assert.rejects(standin.waitForEmail(() => false, 50), /no matching email/);
  });
});

describe("createMailer", () => {
  test("uses Resend with an API key, the outbox under dataDir without one", () => {
    assert.ok(createMailer({ resendApiKey: "re_x", from: "a@b.c", dataDir: tmp }) instanceof ResendMailer);
    assert.ok(createMailer({ from: "a@b.c", dataDir: tmp }) instanceof OutboxMailer);
  });

  test("the outbox mailer writes to <dataDir>/outbox", async () => {
    const dataDir = path.join(tmp, "data-root");
    const sent = await createMailer({ from: "a@b.c", dataDir }).send({ to: "z@example.com", subject: "S", text: "t" });
    assert.equal(path.dirname(sent.file!), path.join(dataDir, "outbox"));
  });
});
