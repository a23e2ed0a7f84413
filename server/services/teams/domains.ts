import publicMailDomains from "email-providers/all.json" with { type: "json" };

// Public mail domains (gmail.com, outlook.com, …) can never be a team's join domain: anyone can
// have an address there. The list is the maintained `email-providers` package (its `all` list,
// several thousand domains), plus the few big ones named here so they hold whatever it drops.
const PUBLIC = new Set<string>([...publicMailDomains, "gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "yahoo.com", "icloud.com", "proton.me", "protonmail.com", "gmx.de", "web.de", "aol.com", "mail.com"]);

/** The domain part of an address, lower-cased; null for something that is no address. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return null;
  return email.slice(at + 1).trim().toLowerCase().replace(/\.$/, "");
}

/** True for a public mail domain or any subdomain of one (mail.gmail.com). */
export function isPublicMailDomain(domain: string): boolean {
  const parts = domain.toLowerCase().split(".");
  for (let i = 0; i < parts.length - 1; i++) if (PUBLIC.has(parts.slice(i).join("."))) return true;
  return false;
}
