import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { Resend } from "resend";
import { log } from "../log.ts";

export type Mail = { to: string; subject: string; text: string; html?: string };
export type SentMail = Mail & { id: string; sentAt: number; via: "resend" | "outbox"; file?: string };

export interface Mailer {
  send(mail: Mail): Promise<SentMail>;
}

/** Sends through Resend's API (RESEND_BASE_URL may point the SDK at a compatible local server). */
export class ResendMailer implements Mailer {
  private readonly client: Resend;
  constructor(apiKey: string, private readonly from: string) {
    this.client = new Resend(apiKey);
  }

  async send(mail: Mail): Promise<SentMail> {
    const { data, error } = await this.client.emails.send({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? `<pre>${escapeHtml(mail.text)}</pre>`,
    });
    if (error || !data) throw new Error(`Resend refused the message: ${error?.message ?? "no id returned"}`);
    log.info("mail sent", { via: "resend", id: data.id, subject: mail.subject });
    return { ...mail, id: data.id, sentAt: Date.now(), via: "resend" };
  }
}

/** With no Resend key, every message is one JSON file in data/outbox/, so its links can be followed. */
export class OutboxMailer implements Mailer {
  constructor(private readonly dir: string) {}

  async send(mail: Mail): Promise<SentMail> {
    // Sign-in links: readable by this OS user only, whatever the process umask.
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = randomUUID();
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
