import { z } from "zod";
import { ZId, ZTimestamp } from "./common.ts";
import { ZAppSettings } from "./settings.ts";

export const ZUserProfileFull = z
  .object({
    id: ZId,
    email: z.string(),
    name: z.string().nullable(),
    image: z.string().nullable(),
    isAdmin: z.boolean(),
    defaultProjectId: ZId.nullable(),
    settings: ZAppSettings.describe("The same settings as settings_getUserSettings"),
    createdAt: ZTimestamp,
  })
  .meta({ id: "UserProfileFull" });

export type TUserProfileFull = z.infer<typeof ZUserProfileFull>;
