import { test } from "node:test";
import assert from "node:assert/strict";
import { replyExcerpt } from "./reply-mail.ts";
import { replyMail } from "../email/templates.ts";

test("the excerpt is the reply; for an error, what it wrote and why it stopped", () => {
  assert.equal(replyExcerpt("READY", "  Done: the plan is ready.\n", undefined), "Done: the plan is ready.");
  assert.equal(replyExcerpt("READY", "", undefined), "(The reply has no text: open the todo for its steps.)");
  assert.equal(replyExcerpt("ERROR", "Half a plan", "The provider timed out"), "Half a plan\n\n(Then it stopped: The provider timed out)");
  assert.equal(replyExcerpt("ERROR", undefined, undefined), "It stopped: no reason was recorded");
});

test("the mail names the todo on one line, links the chat and the setting, and escapes what it quotes", () => {
  const mail = replyMail("ada@example.com", {
    todo: "Plan <the> launch\nwith  details",
    outcome: "replied",
    excerpt: `<script>alert(1)</script> ${"x".repeat(700)}`,
    url: "https://todo.example/projects/p1/todos/t1",
    settingsUrl: "https://todo.example/settings",
  });
  assert.equal(mail.to, "ada@example.com");
  assert.equal(mail.subject, "Replied: Plan <the> launch with details");
  assert.match(mail.text, /^The agent replied on “Plan <the> launch with details”\./);
  assert.ok(mail.text.includes("Open the todo: https://todo.example/projects/p1/todos/t1"));
  assert.ok(mail.text.includes("https://todo.example/settings"));
  // At most 600 characters of the reply.
  assert.ok(mail.text.includes(`${"x".repeat(570)}…`) && !mail.text.includes("x".repeat(601)));
  assert.ok(!mail.html!.includes("<script>") && mail.html!.includes("&lt;script&gt;") && mail.html!.includes("Plan &lt;the&gt; launch"));
  assert.equal(replyMail("a@b.c", { todo: "T", outcome: "failed", excerpt: "e", url: "u", settingsUrl: "s" }).subject, "Failed: T");
  const ask = replyMail("a@b.c", { todo: "T", outcome: "approval", excerpt: "echo hi", url: "u", settingsUrl: "s" });
  assert.equal(ask.subject, "Approve?: T");
  assert.match(ask.text, /^The agent waits for you to approve or deny a command on “T”\./);
});
