import { z } from "zod";
import { ZId, ZTimestamp } from "./common.ts";

export const ZRendererCardInfo = z
  .object({
    id: ZId,
    projectId: ZId,
    name: z.string(),
    description: z.string(),
    html: z.string().describe("The HTML renderer that show blocks use"),
    createdAt: ZTimestamp,
  })
  .meta({ id: "RendererCardInfo" });

export type TRendererCardInfo = z.infer<typeof ZRendererCardInfo>;
