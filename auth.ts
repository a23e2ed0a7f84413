import NextAuth from "next-auth";
import Resend from "next-auth/providers/resend";
import { PrismaAdapter } from "@auth/prisma-adapter";
import { getBridge } from "@/server/http/bridge";
import { signInMail } from "@/server/email/templates";
import { joinTeamByDomain } from "@/server/services/teams/members";
import { grantOpenPerksTo } from "@/server/services/courses/perks";
import { log } from "@/server/log";

// next-auth (Auth.js v5): email-link sign-in, database sessions in our own Session table.
// The config is built per request from the custom server's runtime (server/http/bridge.ts).
export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const bridge = getBridge();
  if (!bridge) throw new Error("Start the app through the custom server (npm start / npm run dev)");
  const { prisma, mailer, config } = bridge.runtime;
  return {
    adapter: PrismaAdapter(prisma as never),
    session: { strategy: "database", maxAge: 30 * 24 * 60 * 60 },
    trustHost: true,
    secret: config.authSecret,
    pages: { signIn: "/signin", verifyRequest: "/signin/check-email", error: "/signin" },
    events: {
      // Auto-join by a team's company domain (docs/api.md "Teams"): the address is verified now.
      async signIn({ user }) {
        if (user.id) await joinTeamByDomain(user.id, bridge.runtime);
        // Course perks that opened before this account existed (docs/api.md "Course administration").
        if (user.id)
          await grantOpenPerksTo(user.id, bridge.runtime.prisma).catch((e: unknown) =>
            log.error("course perks at sign-in failed", { userId: user.id, error: e instanceof Error ? e.message : String(e) }),
          );
      },
      // Signing out deletes the session row (the adapter returns it): its open connections close too.
      async signOut(message) {
        const id = "session" in message ? (message.session as { id?: unknown } | null | undefined)?.id : undefined;
        if (typeof id === "string") await bridge.runtime.bus.affect({ kind: "credential.revoked", credential: `session:${id}` });
      },
    },
    providers: [
      Resend({
        apiKey: config.resendApiKey ?? "outbox",
        from: config.emailFrom,
        maxAge: 24 * 60 * 60,
        async sendVerificationRequest({ identifier, url }) {
          await mailer.send(signInMail(identifier, url));
        },
      }),
    ],
  };
});
