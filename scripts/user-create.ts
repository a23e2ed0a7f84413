// npm run user:create -- --email <email> [--name <name>] [--admin]
// Prints one JSON line {"userId", "email", "apiKey"}. Works whether or not the server runs.
import { parseArgs } from "node:util";
import { z } from "zod";
import { createApp } from "../server/app.ts";
import { loadConfig } from "../server/config.ts";
import { secureDataDir } from "../server/data-dir.ts";
import { readControlFile } from "../server/control.ts";
import { setLogLevel } from "../server/log.ts";
import { createUserWithKey } from "../server/services/users/users.ts";

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  const { values } = parseArgs({
    options: { email: { type: "string" }, name: { type: "string" }, admin: { type: "boolean", default: false } },
    strict: true,
  });
  const email = z.string().trim().toLowerCase().email().safeParse(values.email);
  if (!email.success) fail("Usage: npm run user:create -- --email <email> [--name <name>] [--admin]\n--email must be an email address");
  const input = { email: email.data, name: values.name, admin: values.admin };

  setLogLevel("warn");
  const config = loadConfig();
  secureDataDir(config.dataDir);
  const running = config.databaseUrl ? null : readControlFile(config.dataDir);
  let out: { userId: string; email: string; apiKey: string };
  if (running) {
    // The embedded database belongs to the running server: ask it.
    const res = await fetch(`http://127.0.0.1:${running.port}/_control/user-create`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-control-token": running.token },
      body: JSON.stringify(input),
    });
    const body = (await res.json()) as typeof out & { message?: string };
    if (!res.ok) fail(`The running server refused: ${body.message ?? res.status}`);
    out = body;
  } else {
    const app = await createApp(config);
    try {
      out = await createUserWithKey(input);
    } finally {
      await app.close();
    }
  }
  console.log(JSON.stringify({ userId: out.userId, email: out.email, apiKey: out.apiKey }));
}

main().catch((err: unknown) => fail(`user:create failed: ${err instanceof Error ? err.message : String(err)}`));
