// The OpenAI-compatible stand-in as a process, for the end-to-end tests (playwright.config.ts):
// it echoes the last user message as a stream; a message containing "[fail]" gets a 500.
import { openAIError, startOpenAIStandin } from "../server/testing/openai-standin.ts";

const port = Number(process.env.PORT ?? 3120);
const standin = await startOpenAIStandin({ port, host: "127.0.0.1", delayMs: 20 });
standin.setScript((request) => {
  const last = request.json?.messages?.at(-1)?.content ?? "";
  return last.includes("[fail]") ? { status: 500, body: openAIError("The stand-in was asked to fail") } : undefined;
});
// Playwright waits for this URL to answer before it starts the app servers.
console.log(`openai stand-in on ${standin.url}`);
const stop = () => void standin.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
