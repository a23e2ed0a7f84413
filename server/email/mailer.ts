import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { Resend } from "resend";
import { log } from "../log.ts";

export type Mail = { to: string; subject: string; text: string; html?: string };
export type SentMail = Mail & { id: string; sentAt: number; via: "resend" | "outbox"; file?: string };

export type SendOptions = {
  /** The same key sends one message however often it is given (Resend's Idempotency-Key; the outbox's file name). */
  idempotencyKey?: string;
};

export interface Mailer {
  send(mail: Mail, opts?: SendOptions): Promise<SentMail>;
}

/** Sends through Resend's API (RESEND_BASE_URL may point the SDK at a compatible local server). */
export class ResendMailer implements Mailer {
  private readonly client: Resend;
  constructor(apiKey: string, private readonly from: string) {
    this.client = new Resend(apiKey);
  }

  async send(mail: Mail, opts: SendOptions = {}): Promise<SentMail> {
    const { data, error } = await this.client.emails.send(
      {
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? `<pre>${escapeHtml(mail.text)}</pre>`,
      },
      opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : undefined,
    );
    if (error || !data) throw new Error(`Resend refused the message: ${error?.message ?? "no id returned"}`);
    log.info("mail sent", { via: "resend", id: data.id, subject: mail.subject });
    return { ...mail, id: data.id, sentAt: Date.now(), via: "resend" };
  }
}

/** With no Resend key, every message is one JSON file in data/outbox/, so its links can be followed. */
export class OutboxMailer implements Mailer {
  constructor(private readonly dir: string) {}

  async send(mail: Mail, opts: SendOptions = {}): Promise<SentMail> {
    // Sign-in links: readable by this OS user only, whatever the process umask.
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // With an idempotency key the id comes from it, and a message already written is not written again.
    const id = opts.idempotencyKey ? createHash("sha256").update(opts.idempotencyKey).digest("hex").slice(0, 32) : randomUUID();
    if (opts.idempotencyKey) {
      const earlier = (await readdir(this.dir)).find((f) => f.endsWith(`-${id}.json`));
      if (earlier) {
        const file = path.join(this.dir, earlier);
        const stored = JSON.parse(await readFile(file, "utf8")) as { html: string; sentAt: number };
        return { ...mail, html: stored.html, id, sentAt: stored.sentAt, via: "outbox", file };
      }
    }
    const sentAt = Date.now();
    const file = path.join(this.dir, `${new Date(sentAt).toISOString().replace(/[:.]/g, "-")}-${id}.json`);
    const html = mail.html ?? `<pre>${escapeHtml(mail.text)}</pre>`;
    // Written aside, then renamed: a reader never sees half a message.
    await writeFile(`${file}.tmp`, JSON.stringify({ id, to: mail.to, subject: mail.subject, text: mail.text, html, sentAt }, null, 2), { mode: 0o600 });
    await rename(`${file}.tmp`, file);
    log.info("mail written to outbox", { to: mail.to, subject: mail.subject, file });
    return { ...mail, html, id, sentAt, via: "outbox", file };
  }
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function createMailer(opts: { resendApiKey?: string; from: string; dataDir: string }): Mailer {
  return opts.resendApiKey ? new ResendMailer(opts.resendApiKey, opts.from) : new OutboxMailer(path.join(opts.dataDir, "outbox"));
}
