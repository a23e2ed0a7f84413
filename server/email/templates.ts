import { escapeHtml, type Mail } from "./mailer.ts";

export function signInMail(to: string, url: string): Mail {
  const host = new URL(url).host;
  return {
    to,
    subject: `Sign in to Todo Service`,
    text: `Sign in to Todo Service (${host}) with this link:\n\n${url}\n\nIt works once and expires in 24 hours. If you did not ask for it, ignore this message.`,
    html: `<p>Sign in to Todo Service (${escapeHtml(host)}):</p><p><a href="${escapeHtml(url)}">Sign in</a></p><p>The link works once and expires in 24 hours. If you did not ask for it, ignore this message.</p>`,
  };
}
