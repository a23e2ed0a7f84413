import Link from "next/link";
import styles from "./settings.module.css";

/** The settings pages' tabs; the sidebar lists them too, then Billing. */
export const SETTINGS_LINKS = [
  { href: "/settings", label: "Settings" },
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/settings/memory", label: "Memory" },
  { href: "/team", label: "Team" },
  { href: "/settings/devices", label: "Devices" },
] as const;

/** The account area's own tabs (the app shell links here). */
export function SettingsNav({ current }: { current: (typeof SETTINGS_LINKS)[number]["href"] }) {
  return (
    <nav aria-label="Account settings" className={styles.nav}>
      {SETTINGS_LINKS.map((l) => (
        <Link key={l.href} href={l.href} aria-current={l.href === current ? "page" : undefined}>
          {l.label}
        </Link>
      ))}
    </nav>
  );
}

export function SettingsHeader({ title, current }: { title: string; current: (typeof SETTINGS_LINKS)[number]["href"] }) {
  return (
    <header className={styles.header}>
      <h1>{title}</h1>
      <SettingsNav current={current} />
    </header>
  );
}
