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

/**
 * An agent's turn ended while the todo's owner was away (server/agent/reply-mail.ts): what it
 * wrote, or why it stopped, with a link to the chat and to the setting that turns these mails off.
 */
export function replyMail(to: string, opts: { todo: string; outcome: "replied" | "failed" | "approval"; excerpt: string; url: string; settingsUrl: string }): Mail {
  const title = oneLine(opts.todo, 80);
  const what = { replied: "The agent replied", failed: "The agent stopped with an error", approval: "The agent waits for you to approve or deny a command" }[opts.outcome];
  const excerpt = opts.excerpt.length > 600 ? `${opts.excerpt.slice(0, 600).trimEnd()}…` : opts.excerpt;
  const off = "You get this mail because email notifications are on in your settings";
  return {
    to,
    subject: `${{ replied: "Replied", failed: "Failed", approval: "Approve?" }[opts.outcome]}: ${title}`,
    text: `${what} on “${title}”.\n\n${excerpt}\n\nOpen the todo: ${opts.url}\n\n${off}: ${opts.settingsUrl}`,
    html: `<p>${what} on <strong>${escapeHtml(title)}</strong>.</p><blockquote style="white-space:pre-wrap">${escapeHtml(excerpt)}</blockquote><p><a href="${escapeHtml(opts.url)}">Open the todo</a></p><p style="color:#666">${off}: <a href="${escapeHtml(opts.settingsUrl)}">turn them off</a>.</p>`,
  };
}

/** A text on one line, at most `max` characters. */
function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
