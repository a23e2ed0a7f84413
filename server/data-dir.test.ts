import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { secureDataDir } from "./data-dir.ts";
import { openDatabase } from "./db/open.ts";
import { OutboxMailer } from "./email/mailer.ts";
import { setLogLevel } from "./log.ts";

const mode = async (p: string) => (await lstat(p)).mode & 0o777;

/** Every entry under dir (not following symlinks) whose group or other bits are set. */
async function readableByOthers(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const p = path.join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) continue;
    if ((await mode(p)) & 0o077) out.push(`${path.relative(dir, p)} ${(await mode(p)).toString(8)}`);
  }
  return out;
}

const roots: string[] = [];
async function tempRoot(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "todo-datadir-"));
  roots.push(root);
  return root;
}
after(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

describe("secureDataDir", () => {
  test("brings an existing data dir to 0700 directories and 0600 files, without following symlinks", async () => {
    const root = await tempRoot();
    const data = path.join(root, "data");
    await mkdir(path.join(data, "outbox"), { recursive: true });
    await chmod(data, 0o755);
    await chmod(path.join(data, "outbox"), 0o777);
    await writeFile(path.join(data, "outbox", "mail.json"), "{}");
    await chmod(path.join(data, "outbox", "mail.json"), 0o644);
    await writeFile(path.join(data, "auth-secret"), "s");
    await chmod(path.join(data, "auth-secret"), 0o666);
    const outside = path.join(root, "outside.txt");
    await writeFile(outside, "not ours");
    await chmod(outside, 0o644);
    await symlink(outside, path.join(data, "link"));

    secureDataDir(data);

    assert.equal(await mode(data), 0o700);
    assert.equal(await mode(path.join(data, "outbox")), 0o700);
    assert.equal(await mode(path.join(data, "outbox", "mail.json")), 0o600);
    assert.equal(await mode(path.join(data, "auth-secret")), 0o600);
    assert.equal(await mode(outside), 0o644, "a symlink's target is left alone");
  });

  test("creates a missing data dir 0700, and what is created later is private too (umask)", async () => {
    const data = path.join(await tempRoot(), "fresh", "data");
    secureDataDir(data);
    assert.equal(await mode(data), 0o700);
    await writeFile(path.join(data, "later.json"), "{}");
    await mkdir(path.join(data, "later-dir"));
    assert.equal(await mode(path.join(data, "later.json")), 0o600);
    assert.equal(await mode(path.join(data, "later-dir")), 0o700);
  });

  test("the outbox's mail (sign-in links) and the embedded database are readable by this OS user only", async () => {
    setLogLevel("silent");
    const data = path.join(await tempRoot(), "data");
    secureDataDir(data);
    const sent = await new OutboxMailer(path.join(data, "outbox")).send({ to: "ada@example.com", subject: "Sign in", text: "https://app.test/link" });
    assert.equal((await stat(sent.file!)).mode & 0o777, 0o600);
    const database = await openDatabase({ dataDir: path.join(data, "pglite") });
    try {
      await database.prisma.user.create({ data: { email: "ada@example.com" } });
    } finally {
      await database.close();
    }
    assert.deepEqual(await readableByOthers(data), []);
  });

  test("the outbox writes 0600 even in a process whose umask was not set", async () => {
    const data = path.join(await tempRoot(), "data");
    const previous = process.umask(0o022);
    try {
      const sent = await new OutboxMailer(path.join(data, "outbox")).send({ to: "ada@example.com", subject: "Sign in", text: "x" });
      assert.equal((await stat(sent.file!)).mode & 0o777, 0o600);
      assert.equal(await mode(path.join(data, "outbox")), 0o700);
    } finally {
      process.umask(previous);
    }
  });
});
