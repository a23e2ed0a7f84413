// The OpenAI-compatible stand-in as a process, for the end-to-end tests (playwright.config.ts):
// it echoes the last user message as a stream; a message containing "[fail]" gets a 500, one
// containing "[silent]" gets a first piece and then nothing, with the connection left open.
// Tools: "[checklist]" calls the checklist tool with two items, "[spawn]" calls spawn_subtodos
// with two sub-todos ("Sub-task one", "Sub-task two"), "[shell /some/dir]" proposes the shell
// command `echo hello` in that directory ("[shell-long /some/dir]": `sleep 60`, quiet until it ends),
// "[remember some text]" keeps "some text" as a personal memory note, "[show]" shows three months
// of sales as a bar chart (defining the project's card "Bar chart"), "[show-again]" shows other data
// with that card by name;
// after a tool's result it answers in text.
import { contentChunk, openAIError, startOpenAIStandin, toolCallChunks } from "../server/testing/openai-standin.ts";

const port = Number(process.env.PORT ?? 3120);

// The "[show]" card: a heading from the data ({{title}}), then one bar per row drawn by its script.
const BAR_CHART = `<style>.row{display:flex;align-items:center;gap:.5rem;margin:.25rem 0}.bar{height:1rem;border-radius:3px;background:#4c6ef5}.label{width:3rem}</style>
<h3 style="margin:0 0 .4rem">{{title}}</h3><div id="bars"></div>
<script>
const max = Math.max(1, ...cardData.rows.map((r) => r.value));
for (const r of cardData.rows) {
  const row = document.createElement("div");
  row.className = "row";
  row.dataset.label = r.label;
  const label = Object.assign(document.createElement("span"), { className: "label", textContent: r.label });
  const bar = Object.assign(document.createElement("span"), { className: "bar" });
  bar.style.width = (r.value / max) * 12 + "rem";
  row.append(label, bar, Object.assign(document.createElement("span"), { textContent: String(r.value) }));
  document.getElementById("bars").append(row);
}
</script>`;
const SALES = { title: "Sales by month", rows: [{ label: "Jan", value: 30 }, { label: "Feb", value: 45 }, { label: "Mar", value: 20 }] };
const standin = await startOpenAIStandin({ port, host: "127.0.0.1", delayMs: 20 });
standin.setScript((request) => {
  const lastMessage = request.json?.messages?.at(-1);
  if (lastMessage?.role === "tool") return { events: [contentChunk("The checklist is ready.", { role: true, finishReason: "stop" })] };
  const last = lastMessage?.content ?? "";
  if (last.includes("[checklist]")) return { events: toolCallChunks("call_checklist", "checklist", { add: ["Pack the tent", "Buy snacks"] }) };
  if (last.includes("[spawn]")) return { events: toolCallChunks("call_spawn", "spawn_subtodos", { todos: [{ content: "Sub-task one" }, { content: "Sub-task two" }] }) };
  const shell = /\[shell (\/[^\]]*)\]/.exec(last);
  if (shell) return { events: toolCallChunks("call_shell", "shell", { command: "echo hello", path: shell[1] }) };
  const remember = /\[remember ([^\]]+)\]/.exec(last);
  if (remember) return { events: toolCallChunks("call_remember", "remember", { content: remember[1], scope: "personal" }) };
  if (last.includes("[show]")) return { events: toolCallChunks("call_show", "show", { card: "Bar chart", html: BAR_CHART, description: "One bar per row", title: "Sales", data: SALES }) };
  if (last.includes("[show-again]")) return { events: toolCallChunks("call_show", "show", { card: "Bar chart", title: "Visits", data: { title: "Visits by day", rows: [{ label: "Mon", value: 12 }, { label: "Tue", value: 7 }] } }) };
  const long = /\[shell-long (\/[^\]]*)\]/.exec(last);
  if (long) return { events: toolCallChunks("call_shell", "shell", { command: "sleep 60", path: long[1] }) };
  if (last.includes("[fail]")) return { status: 500, body: openAIError("The stand-in was asked to fail") };
  if (last.includes("[silent]")) return { events: [contentChunk("Thinking about it")], end: "hang" };
  return undefined;
});
// Playwright waits for this URL to answer before it starts the app servers.
console.log(`openai stand-in on ${standin.url}`);
const stop = () => void standin.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
