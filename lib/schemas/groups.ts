import { z } from "zod";
import { ZId, ZName, ZTimestamp } from "./common.ts";

/** Lower-case letters, digits and hyphens, starting with a letter or digit, at most 64 characters. */
export const GROUP_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Largest accepted group position (positions are ordinary integers, smallest first). */
export const MAX_GROUP_POSITION = 1_000_000;

export const ZGroupSlug = z
  .string()
  .regex(GROUP_SLUG_PATTERN, "must be 1–64 lower-case letters, digits or hyphens, starting with a letter or digit")
  .describe("The group's key within its project, e.g. `backlog`");

export const ZTodoGroup = z
  .object({
    id: ZId,
    projectId: ZId,
    slug: z.string(),
    name: z.string(),
    position: z.number().int().describe("Groups are listed by position, then by creation time"),
    todoCount: z.number().int().describe("Todos currently in the group (0 for an empty group)"),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: "TodoGroup" });

export const ZProjectGroupUpsertInput = z
  .object({
    name: ZName,
    position: z
      .number()
      .int()
      .min(0)
      .max(MAX_GROUP_POSITION)
      .optional()
      .describe("Left out: a new group goes after the last one, a renamed group keeps its place"),
  })
  .meta({ id: "ProjectGroupUpsertInput" });

export const ZProjectGroupParams = z.object({ projectId: ZId, slug: ZGroupSlug });

export type TTodoGroup = z.infer<typeof ZTodoGroup>;
export type TProjectGroupUpsertInput = z.output<typeof ZProjectGroupUpsertInput>;
