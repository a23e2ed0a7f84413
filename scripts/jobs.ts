// npm run jobs -- failed          one JSON line per failed job {id, name, attempts, error, failedAt}
// npm run jobs -- retry <id>      puts a failed job back in the queue with fresh attempts
// Works on the backend the server uses: BullMQ with REDIS_URL, else the Job table (docs/jobs.md).
import { createApp } from "../server/app.ts";
import { loadConfig } from "../server/config.ts";
import { readControlFile } from "../server/control.ts";
import { secureDataDir } from "../server/data-dir.ts";
import { setLogLevel } from "../server/log.ts";

const USAGE = "Usage: npm run jobs -- failed | npm run jobs -- retry <job id>";

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  const [command, id, ...rest] = process.argv.slice(2);
  if (!(command === "failed" && id === undefined) && !(command === "retry" && id && rest.length === 0)) fail(USAGE);
  setLogLevel("warn");
  const config = loadConfig();
  secureDataDir(config.dataDir);
  if (!config.databaseUrl && readControlFile(config.dataDir)) {
    fail("The server is running on the embedded database, which only it may open: stop it first (its failed jobs wait).");
  }
  const app = await createApp(config);
  try {
    const jobs = app.runtime.jobs!;
    if (command === "failed") {
      for (const job of await jobs.failed()) console.log(JSON.stringify({ ...job, failedAt: job.failedAt.toISOString() }));
    } else if (!(await jobs.retry(id!))) {
      process.exitCode = 1;
      console.error(`No failed job ${id}`);
    } else {
      console.log(`Job ${id} is queued again`);
    }
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
