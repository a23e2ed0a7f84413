import { z } from "zod";
import { ZId, ZTimestamp } from "./common.ts";

export const ZRendererCardInfo = z
  .object({
    id: ZId,
    projectId: ZId,
    name: z.string().describe("Unique within the project: the agent's show tool defines or reuses a card by name"),
    description: z.string(),
    html: z.string().describe("The HTML renderer that show blocks use: it runs sandboxed, reads the data as window.cardData, and {{field}} placeholders are filled with the data's values"),
    createdAt: ZTimestamp,
  })
  .meta({ id: "RendererCardInfo" });

export type TRendererCardInfo = z.infer<typeof ZRendererCardInfo>;
