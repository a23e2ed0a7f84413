// What account export and account deletion do with every table (docs/api.md "Account export and
// deletion"). Keyed by Prisma's model names, so a model added to prisma/schema.prisma does not
// compile until it is placed here, and account-data.test.ts checks the list against the generated
// client's models at run time too: a new table cannot be forgotten by either operation.
import type { ModelName } from "../../db/generated/internal/prismaNamespace.ts";

export type TableDisposition = {
  /** The export's top-level keys holding its rows, or why it is not exported. */
  export: { sections: string[] } | { omitted: string };
  /** What deleting the account does to the table's rows of that account. */
  deletion: string;
};

export const ACCOUNT_TABLES: Record<ModelName, TableDisposition> = {
  User: { export: { sections: ["user"] }, deletion: "deleted (the last statement of the transaction)" },
  Account: { export: { sections: ["signInMethods"] }, deletion: "deleted (cascade); the provider's tokens are never exported" },
  Session: { export: { omitted: "a credential (the session token is the cookie)" }, deletion: "deleted (cascade): the cookie is refused at once" },
  VerificationToken: { export: { omitted: "a pending sign-in link's secret" }, deletion: "deleted for the account's email" },
  ApiKey: { export: { sections: ["apiKeys"] }, deletion: "deleted (cascade): every key is 401 at once" },
  Project: { export: { sections: ["projects"] }, deletion: "the account's projects are deleted with everything in them, for the people they were shared with too" },
  ProjectShare: { export: { sections: ["projects", "sharedWithMe"] }, deletion: "deleted (shares of the account's projects and shares with the account)" },
  TodoGroup: { export: { sections: ["projects"] }, deletion: "deleted with the account's projects" },
  RendererCard: { export: { sections: ["projects"] }, deletion: "deleted with the account's projects" },
  Todo: { export: { sections: ["todos"] }, deletion: "deleted with the account's projects; todos the account wrote in projects of others are deleted too" },
  Message: {
    export: { sections: ["messages"] },
    deletion: "deleted with their todos; a message the account wrote in a todo of someone else's stays there, without its author (authorId set null)",
  },
  Block: { export: { sections: ["blocks"] }, deletion: "deleted with their todos" },
  UserSettings: { export: { sections: ["settings"] }, deletion: "deleted (cascade)" },
  ProjectAgentMapping: { export: { sections: ["projectAgentMappings"] }, deletion: "deleted (cascade)" },
  AiReport: { export: { sections: ["aiReports"] }, deletion: "deleted (cascade)" },
  MemoryNote: { export: { sections: ["memoryNotes"] }, deletion: "deleted (cascade), and every note on the account's projects" },
  SearchEmbedding: { export: { omitted: "derived from the todos and notes exported (search vectors, made again from the text)" }, deletion: "deleted with their todos and notes (cascade)" },
  PendingTask: { export: { sections: ["pendingTasks"] }, deletion: "deleted (cascade)" },
  Edge: { export: { sections: ["edges"] }, deletion: "deleted (cascade)" },
  Device: { export: { sections: ["devices"] }, deletion: "deleted (cascade); open bridge connections are closed" },
  DeviceToken: { export: { omitted: "a credential (dst_ and mayfly tokens)" }, deletion: "deleted (cascade): every token is 401 at once" },
  CliLogin: { export: { sections: ["cliLogins"] }, deletion: "deleted (cascade)" },
  BillingAccount: { export: { sections: ["billing"] }, deletion: "deleted (cascade); the Stripe customer is deleted through the SDK by the account.stripe-cleanup job after the commit" },
  PaymentMethod: { export: { sections: ["billing"] }, deletion: "deleted (cascade); Stripe detaches the cards with the customer" },
  UsageRecord: { export: { sections: ["billing"] }, deletion: "deleted (cascade)" },
  LedgerTransaction: { export: { sections: ["billing"] }, deletion: "copied to AccountingArchive without the user (amount, currency, kind, reference, time), then deleted" },
  Invoice: { export: { sections: ["billing"] }, deletion: "copied to AccountingArchive without the user, then deleted" },
  AccountingArchive: { export: { omitted: "holds no account's rows: what accounting keeps of deleted accounts, naming no one" }, deletion: "written: the anonymised ledger and invoice rows" },
  Subscription: { export: { sections: ["billing"] }, deletion: "deleted (cascade); Stripe cancels it with the customer" },
  StripeEvent: { export: { omitted: "Stripe event ids the webhook applied; no personal data" }, deletion: "kept (ids only)" },
  Team: { export: { sections: ["team"] }, deletion: "a team the account owns must have no other member (else the deletion is 409 owns_team: hand it over or remove them first); it is deleted" },
  TeamMember: { export: { sections: ["team"] }, deletion: "deleted" },
  TeamInvite: { export: { sections: ["team"] }, deletion: "invites the account sent, and invites to its email, are deleted" },
  TeamActivity: { export: { omitted: "the team's log, which belongs to the team" }, deletion: "entries naming the account are kept with the account's id and email removed" },
  Course: { export: { omitted: "a course, run by administrators" }, deletion: "kept" },
  CourseSignup: { export: { sections: ["courseSignups"] }, deletion: "signups with the account's email are deleted, with their coupons" },
  CourseEligible: { export: { omitted: "an administrator's note that a mailbox may have a coupon" }, deletion: "rows for the account's email are deleted; rows an administrator added keep the row with the administrator's id removed" },
  CourseCoupon: { export: { sections: ["courseSignups"] }, deletion: "deleted with the account's signups; a coupon of another signup the account redeemed keeps its redemption time without who, device or IP" },
  CoursePerkGrant: { export: { sections: ["coursePerks"] }, deletion: "deleted (the credit it granted is archived with the ledger)" },
  CourseMailRun: { export: { omitted: "an administrator's bulk mailing" }, deletion: "runs an administrator started are kept with the administrator's id removed" },
  CourseMailRecipient: { export: { omitted: "the course's mail log (status and time per address)" }, deletion: "rows for the account's email are deleted" },
  AdminAuditLog: { export: { omitted: "the administrators' log, which belongs to the service" }, deletion: "entries an administrator made are kept with the administrator's id removed" },
  CourseFollower: { export: { omitted: "public social handles a course follows, not linked to an account" }, deletion: "kept" },
  CourseIdea: { export: { sections: ["courseIdeas"] }, deletion: "ideas the account wrote are deleted" },
  IdempotencyKey: { export: { omitted: "stored replies of the last 24 h, a cache" }, deletion: "rows of the account's credentials are deleted" },
  Job: { export: { omitted: "the work queue" }, deletion: "jobs for deleted rows find nothing and end" },
  JobEffect: { export: { omitted: "once-only records of the work queue (ids)" }, deletion: "kept" },
};
