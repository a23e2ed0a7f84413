import { z } from "zod";
import { atLeastOne, ZId, ZName, ZSocketId, ZTimestamp } from "./common.ts";

export const ZProjectRole = z.enum(["owner", "editor", "viewer"]);

export const ZProject = z
  .object({
    id: ZId,
    name: z.string(),
    description: z.string(),
    isPublic: z.boolean(),
    ownerId: ZId,
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: "Project" });

export const ZProjectFull = ZProject.extend({
  role: ZProjectRole.describe("The caller's access: owner, editor (read and write) or viewer (read only)"),
  settings: z.record(z.string(), z.unknown()),
}).meta({ id: "ProjectFull" });

export const ZProjectMember = z
  .object({
    userId: ZId,
    name: z.string().nullable(),
    email: z.string(),
    role: ZProjectRole.describe("owner, a sharee's role, or editor for a member of the team whose shared project it is"),
  })
  .meta({ id: "ProjectMember" });

export const ZProjectMembers = z
  .object({ items: z.array(ZProjectMember).describe("The owner first, then the others by email") })
  .meta({ id: "ProjectMembers" });

export const ZProjectCreateInput = z
  .object({
    name: ZName,
    description: z.string().max(10_000).default(""),
    isPublic: z.boolean().default(false),
  })
  .meta({ id: "ProjectCreateInput" });

export const ZProjectUpdateInput = atLeastOne(
  z.object({
    name: ZName.optional(),
    description: z.string().max(10_000).optional(),
    isPublic: z.boolean().optional(),
  }),
  "give at least one of name, description, isPublic",
).meta({ id: "ProjectUpdateInput" });

export const ZProjectIdInput = z.object({ projectId: ZId, socketId: ZSocketId }).meta({ id: "ProjectIdInput" });

export const ZProjectParams = z.object({ projectId: ZId });

/** An email address as typed: trimmed, compared case-insensitively by the service. */
export const ZEmail = z.string().trim().max(320, "must be at most 320 characters").check(z.email("must be an email address"));

export const ZShareRole = z.enum(["editor", "viewer"]).describe("editor reads and writes the project's todos; viewer only reads");

export const ZShareProjectInput = z
  .object({
    email: ZEmail.describe("The account to share with (case-insensitive); 404 when no account has it"),
    role: ZShareRole.default("editor"),
  })
  .meta({ id: "ShareProjectInput" });

export const ZProjectBrandResponse = z
  .object({
    projectId: ZId,
    markdown: z.string().describe("The project's brand page markdown (empty when none is set)"),
  })
  .meta({ id: "ProjectBrandResponse" });

export type TProject = z.infer<typeof ZProject>;
export type TProjectFull = z.infer<typeof ZProjectFull>;
export type TProjectMember = z.infer<typeof ZProjectMember>;
export type TProjectCreateInput = z.input<typeof ZProjectCreateInput>;
export type TProjectUpdateInput = z.input<typeof ZProjectUpdateInput>;
export type TShareProjectInput = z.output<typeof ZShareProjectInput>;
export type TProjectBrandResponse = z.infer<typeof ZProjectBrandResponse>;
