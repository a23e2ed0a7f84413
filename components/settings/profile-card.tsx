import type { TUserProfileFull } from "@/lib/schemas/users";
import { Section } from "@/components/ui/form";
import styles from "./settings.module.css";

export function ProfileCard({ profile }: { profile: TUserProfileFull }) {
  return (
    <Section id="profile" title="Profile">
      <dl className={styles.facts}>
        <dt>Email</dt>
        <dd data-testid="profile-email">{profile.email}</dd>
        <dt>Name</dt>
        <dd>{profile.name ?? <span className="muted">Not set</span>}</dd>
        <dt>Member since</dt>
        <dd>{new Date(profile.createdAt).toLocaleDateString()}</dd>
        {profile.isAdmin ? (
          <>
            <dt>Role</dt>
            <dd>Administrator</dd>
          </>
        ) : null}
      </dl>
    </Section>
  );
}
