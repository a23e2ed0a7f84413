// The OpenAI-compatible stand-in as a process, for the end-to-end tests (playwright.config.ts):
// it echoes the last user message as a stream; a message containing "[fail]" gets a 500, one
// containing "[silent]" gets a first piece and then nothing, with the connection left open.
// Tools: "[checklist]" calls the checklist tool with two items, "[spawn]" calls spawn_subtodos
// with two sub-todos ("Sub-task one", "Sub-task two"), "[shell /some/dir]" proposes the shell
// command `echo hello` in that directory ("[shell-long /some/dir]": `sleep 60`, quiet until it ends),
// "[remember some text]" keeps "some text" as a personal memory note;
// after a tool's result it answers in text.
import { contentChunk, openAIError, startOpenAIStandin, toolCallChunks } from "../server/testing/openai-standin.ts";

const port = Number(process.env.PORT ?? 3120);
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
