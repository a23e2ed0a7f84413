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

export function teamInviteMail(to: string, opts: { url: string; teamName: string; inviter: string; expiresAt: Date }): Mail {
  const until = opts.expiresAt.toISOString().slice(0, 10);
  return {
    to,
    subject: `${opts.inviter} invited you to the team ${opts.teamName} on Todo Service`,
    text: `${opts.inviter} invited you (${to}) to join the team "${opts.teamName}" on Todo Service.\n\nOpen this link to accept:\n\n${opts.url}\n\nSign in with ${to} to accept. The link works once and expires on ${until}. If you did not expect it, ignore this message.`,
    html: `<p>${escapeHtml(opts.inviter)} invited you (${escapeHtml(to)}) to join the team <strong>${escapeHtml(opts.teamName)}</strong> on Todo Service.</p><p><a href="${escapeHtml(opts.url)}">Open the invite</a></p><p>Sign in with ${escapeHtml(to)} to accept. The link works once and expires on ${until}. If you did not expect it, ignore this message.</p>`,
  };
}
