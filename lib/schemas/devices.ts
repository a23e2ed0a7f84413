import { z } from "zod";
import { ZId, ZName, ZTimestamp } from "./common.ts";

// Edges, devices and command-line login (SPEC.md §4.6, §4.7; CONVENTIONS.md "Base paths and credentials").

export const ZEdge = z
  .object({
    id: ZId,
    name: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    lastSeenAt: ZTimestamp.nullable(),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: "EdgeData" });

export const ZEdgeParams = z.object({ edgeId: ZId });
export const ZEdgeIdInput = z.object({ edgeId: ZId, socketId: z.string().min(1).max(64).optional() }).meta({ id: "EdgeIdInput" });

export const ZEdgeUpdateInput = z
  .object({
    edgeId: ZId.optional().describe("Repeats the path's edgeId if given"),
    name: ZName.optional(),
    metadata: z
      .record(z.string().max(64), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]))
      .refine((m) => Object.keys(m).length <= 50, "at most 50 entries")
      .optional()
      .describe("Replaces the edge's metadata: flat string, number, boolean or null values"),
  })
  .refine((v) => v.name !== undefined || v.metadata !== undefined, { message: "give name or metadata" })
  .meta({ id: "EdgeUpdateInput", anyOf: [{ required: ["name"] }, { required: ["metadata"] }] });

/** A hosted cloud device's size, as a plan includes it (server/services/billing/plans.ts). */
export const ZCloudDeviceSize = z
  .object({ size: z.enum(["small", "large"]), vcpus: z.number().int(), memoryMb: z.number().int(), diskGb: z.number().int() })
  .meta({ id: "CloudDeviceSize" });

export const ZDevice = z
  .object({
    id: ZId,
    name: z.string(),
    kind: z.enum(["bridge", "cloud"]),
    online: z.boolean().describe("True exactly while a Socket.IO connection authenticated with one of its dst_ tokens is open (cloud: once booted)"),
    workspacePaths: z.array(z.string()),
    lastSeenAt: ZTimestamp.nullable(),
    createdAt: ZTimestamp,
    cloud: ZCloudDeviceSize.extend({ tier: z.enum(["pro", "max"]).describe("The plan it was booted for") })
      .optional()
      .describe("Cloud devices only: the size the user's plan gives it (device_resyncCloud)"),
  })
  .meta({ id: "DeviceData" });

export const ZDeviceParams = z.object({ id: ZId });
export const ZIdInput = z.object({ id: ZId }).meta({ id: "IdInput" });

/** An absolute POSIX or Windows path; normalised by the service, `/` and `..` refused. */
export const ZWorkspacePath = z.string().min(1).max(1024);
export const ZWorkspacePathsInput = z
  .array(ZWorkspacePath)
  .max(50, "at most 50 paths")
  .meta({ id: "WorkspacePathsInput", description: "The device's new workspace roots (replaces the old list): absolute, not `/`, no `..`" });

// ── Command-line login ──

export const CLI_CLIENTS = ["cli", "edge", "bridge"] as const;
export const ZClientName = z.enum(CLI_CLIENTS);

/** What a client calls itself (host name): shown on the approval page. */
export const ZDeviceName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _.@-]*$/, "letters, digits, space, _ . @ - only");

export const ZLoginInitInput = z.object({ clientName: ZClientName, name: ZDeviceName.optional() }).meta({ id: "CliLoginInitInput" });
export const ZLoginInit = z
  .object({
    code: z.string().describe("The device code: secret, polled with, never shown to the user"),
    userCode: z.string().describe("XXXX-XXXX, shown to the user to compare on the approval page"),
    url: z.string().describe("Absolute URL of the approval page with the user code"),
    expiresIn: z.number().int().describe("Seconds until the codes expire"),
    interval: z.number().int().describe("Seconds to wait between polls; faster is 429"),
  })
  .meta({ id: "CliLoginInit" });

export const ZLoginPollQuery = z.object({ code: z.string().min(1).max(128) });
export const ZLoginPoll = z
  .object({
    status: z.enum(["pending", "complete", "expired", "denied"]),
    apiKey: z.string().optional().describe("On complete, for cli and edge clients: a new tsk_ key, shown once"),
    edgeId: ZId.optional().describe("On complete, for edge clients: the Edge created at approval"),
    device: z.object({ id: ZId, secret: z.string() }).optional().describe("On complete, for bridge clients: durable device credentials"),
    apiToken: z.string().optional().describe("On complete, for bridge clients: a dst_ token"),
    expiresAt: ZTimestamp.optional().describe("When apiToken expires"),
  })
  .meta({ id: "CliLoginPoll" });

export const ZUserCode = z
  .string()
  .trim()
  .toUpperCase()
  .transform((s) => s.replace(/[^A-Z]/g, ""))
  .pipe(z.string().length(8, "8 letters, as XXXX-XXXX"));
export const ZUserCodeInput = z.object({ userCode: ZUserCode }).meta({ id: "CliUserCodeInput" });
export const ZLoginRequest = z
  .object({
    userCode: z.string(),
    clientName: ZClientName,
    name: z.string().nullable(),
    status: z.enum(["pending", "approved", "complete", "expired", "denied"]),
    expiresAt: ZTimestamp,
  })
  .meta({ id: "CliLoginRequest" });

export const ZDeviceCredentials = z
  .object({
    device: z.object({ id: ZId, secret: z.string() }),
    apiToken: z.string().describe("dst_ token for /dst/v1 and Socket.IO"),
    expiresAt: ZTimestamp,
  })
  .meta({ id: "DeviceCredentials" });
export const ZEnrollSelfInput = z
  .object({ name: ZDeviceName.optional(), workspacePaths: ZWorkspacePathsInput.optional() })
  .meta({ id: "EnrollSelfInput" });
export const ZDeviceTokenInput = z.object({ deviceId: ZId, deviceSecret: z.string().min(1).max(256) }).meta({ id: "DeviceTokenInput" });
export const ZDeviceToken = z.object({ apiToken: z.string(), expiresAt: ZTimestamp }).meta({ id: "DeviceToken" });
export const ZMayflyInput = z.object({ todoId: ZId }).meta({ id: "MayflyTokenInput" });
export const ZMayflyToken = z.object({ apiToken: z.string(), todoId: ZId, expiresAt: ZTimestamp }).meta({ id: "MayflyToken" });

export type TEdge = z.infer<typeof ZEdge>;
export type TDevice = z.infer<typeof ZDevice>;
export type TCloudDeviceSize = z.infer<typeof ZCloudDeviceSize>;
export type TLoginPoll = z.infer<typeof ZLoginPoll>;
