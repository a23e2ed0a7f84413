import type { z } from "zod";
import type { TTeamRole } from "../../../lib/schemas/teams.ts";
import { USER_CREDENTIAL, defineOperation, type OperationContext, type OperationDef, type TypedOperation } from "../../http/define.ts";
import { ensureTeam, requireTeamRole, type TeamActor } from "../../services/teams/teams.ts";

type AnyObject = z.ZodObject<z.ZodRawShape>;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type Auth = typeof USER_CREDENTIAL;

export type TeamOperationDef<P, Q, B, R extends z.ZodType> = Omit<OperationDef<P & (AnyObject | undefined), Q & (AnyObject | undefined), B & (z.ZodType | undefined), R, Auth>, "auth" | "handler"> & {
  /** The team roles that may call it (SPEC.md §5 item 4): in no team 404, another role 403. */
  teamRoles: readonly TTeamRole[];
  /** A caller in no team first gets one, as its owner, named by this (billing_addTeamMember). */
  createsTeam?: (body: Parsed<B>) => string | undefined;
  /**
   * Refusals that need no team, checked before `createsTeam` makes one: a first call that is
   * refused changes nothing (CONVENTIONS.md "Errors"), so it must not leave a team behind.
   */
  check?: (ctx: { caller: OperationContext<P, Q, B, Auth>["caller"]; body: Parsed<B> }) => void;
  handler: (ctx: OperationContext<P, Q, B, Auth> & { team: TeamActor }) => Promise<z.input<R>>;
};

/**
 * A team operation: `defineOperation` plus its team roles, declared on the operation and checked
 * before the handler runs, in the manner of dub's `withWorkspace(handler, { requiredPermissions })`.
 * The roles are kept on the operation (`teamRoles`, read by the tests) and named in its description.
 */
export function defineTeamOperation<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
  const Id extends string = string,
>(def: TeamOperationDef<P, Q, B, R> & { id: Id }): TypedOperation<Id, P, Q, B, R, Auth> & { teamRoles: readonly TTeamRole[] } {
  const { teamRoles, createsTeam, check, handler, ...rest } = def;
  const op = defineOperation<P, Q, B, R, Auth, Id>({
    ...(rest as Omit<OperationDef<P, Q, B, R, Auth>, "auth" | "handler"> & { id: Id }),
    description: `${rest.description ?? ""} Team roles: ${teamRoles.join(", ")}${createsTeam ? " (a caller in no team becomes the owner of a new one)" : ""}.`.trim(),
    auth: USER_CREDENTIAL,
    errors: [...new Set([...(rest.errors ?? []), "FORBIDDEN" as const, "NOT_FOUND" as const])],
    handler: async (ctx) => {
      check?.({ caller: ctx.caller, body: ctx.body });
      if (createsTeam) await ensureTeam(ctx.caller, createsTeam(ctx.body));
      return handler({ ...ctx, team: await requireTeamRole(ctx.caller, teamRoles) });
    },
  });
  return Object.assign(op, { teamRoles });
}

export const OWNER = ["owner"] as const;
export const OWNER_OR_ADMIN = ["owner", "admin"] as const;
export const ANY_MEMBER = ["owner", "admin", "member"] as const;
