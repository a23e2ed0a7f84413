// The OpenAI-compatible stand-in as a process, for the end-to-end tests (playwright.config.ts):
// it echoes the last user message as a stream; a message containing "[fail]" gets a 500, one
// containing "[silent]" gets a first piece and then nothing, with the connection left open.
import { contentChunk, openAIError, startOpenAIStandin } from "../server/testing/openai-standin.ts";

const port = Number(process.env.PORT ?? 3120);
const standin = await startOpenAIStandin({ port, host: "127.0.0.1", delayMs: 20 });
standin.setScript((request) => {
  const last = request.json?.messages?.at(-1)?.content ?? "";
  if (last.includes("[fail]")) return { status: 500, body: openAIError("The stand-in was asked to fail") };
  if (last.includes("[silent]")) return { events: [contentChunk("Thinking about it")], end: "hang" };
  return undefined;
});
// Playwright waits for this URL to answer before it starts the app servers.
console.log(`openai stand-in on ${standin.url}`);
const stop = () => void standin.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
