import { tool } from "ai";
import { z } from "zod";
import { isInside, SHELL_DEFAULT_TIMEOUT_MS, SHELL_MAX_TIMEOUT_MS, type ShellBlockContent } from "../../../lib/shell-protocol.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { ApiError } from "../../http/errors.ts";
import { onlineDeviceIds } from "../../realtime/presence.ts";
import { db, runtime } from "../../runtime.ts";
import { getTodoOrThrow } from "../../services/access.ts";
import { normaliseWorkspacePaths } from "../../services/devices/workspace-paths.ts";
import { changeTodo, waitSettled } from "../../services/todos/lifecycle.ts";
import { asObject } from "../../services/todos/serialize.ts";
import { linksOf, SHELL_WAIT_PREFIX } from "../../services/todos/sub-todos.ts";
import type { AgentToolDef, ToolContext } from "./types.ts";

export const SHELL_TOOL = "shell";

type ShellDevice = { id: string; name: string; workspacePaths: string[] };

/** The owner's bridge devices that are online and have workspace paths: where a command may run. */
export async function shellDevices(userId: string): Promise<ShellDevice[]> {
  const io = runtime().io;
  if (!io) return [];
  const [online, rows] = await Promise.all([
    onlineDeviceIds(io, userId),
    db().device.findMany({ where: { userId, kind: "bridge" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, name: true, workspacePaths: true } }),
  ]);
  return rows.filter((d) => online.has(d.id) && d.workspacePaths.length > 0);
}

/** Where the proposal runs: the named device (or the first whose workspace holds the path), and the normalised path; a clear error otherwise. */
export function shellTarget(devices: ShellDevice[], input: { path: string; deviceId?: string }): { device: ShellDevice; path: string } {
  let path: string;
  try {
    [path] = normaliseWorkspacePaths([input.path]) as [string];
  } catch (err) {
    throw new Error(`path "${input.path}": ${err instanceof ApiError ? err.message.replace(/^Invalid workspace paths: body\.0: /, "") : "invalid"}`);
  }
  const list = devices.map((d) => `"${d.name}" (${d.id}): ${d.workspacePaths.join(", ")}`).join("; ");
  if (input.deviceId !== undefined) {
    const device = devices.find((d) => d.id === input.deviceId);
    if (!device) throw new Error(`no online device ${input.deviceId} with workspace paths; the devices are ${list || "none"}`);
    if (!device.workspacePaths.some((root) => isInside(root, path))) throw new Error(`${path} is outside the workspace paths of device "${device.name}" (${device.workspacePaths.join(", ")}); a command may only run inside one of them`);
    return { device, path };
  }
  const device = devices.find((d) => d.workspacePaths.some((root) => isInside(root, path)));
  if (!device) throw new Error(`${path} is not inside a workspace path of an online device (${list || "none"}); a command may only run inside one of them`);
  return { device, path };
}

const found = new WeakMap<ToolContext, ShellDevice[]>();

/**
 * `shell`: proposes a command to run in a workspace path of one of the owner's online devices.
 * Offered only when there is one. The call adds an approval block (type `shell`, actionable) to
 * the reply and ends the turn: the todo waits for it as for sub-todos (`workflow.waitingFor`,
 * `shell:<blockId>`), the user approves or denies it (todo_decideShell), the device runs it and
 * streams the output back (server/services/todos/shell.ts), and the result starts the next turn.
 */
export const shellTool: AgentToolDef = {
  name: SHELL_TOOL,
  available: async (ctx) => {
    const devices = await shellDevices(ctx.todo.userId);
    found.set(ctx, devices);
    return devices.length > 0;
  },
  endsTurn: (output) => asObject(output).waiting === true,
  create: (ctx) => {
    const devices = found.get(ctx) ?? [];
    const list = devices.map((d) => `- "${d.name}" (deviceId ${d.id}): ${d.workspacePaths.join(", ")}`).join("\n");
    return tool({
      description: `Propose a shell command to run on one of the user's machines, in a directory inside one of its workspace paths. It runs only once the user approves it in the chat. Your turn ends with this call; the command's output (or the user's refusal) comes to you when it has run. The machines online now:\n${list}`,
      inputSchema: z.object({
        command: z.string().trim().min(1).max(4000).describe("The command line, run by the machine's shell"),
        path: z.string().min(1).max(4096).describe("The directory to run it in: absolute, inside one of the machine's workspace paths"),
        deviceId: z.string().min(1).max(128).optional().describe("The machine (default: the first whose workspace paths hold `path`)"),
        timeoutSeconds: z.number().int().min(1).max(SHELL_MAX_TIMEOUT_MS / 1000).optional().describe(`How long it may run (default ${SHELL_DEFAULT_TIMEOUT_MS / 1000})`),
      }),
      execute: async ({ command, path: wanted, deviceId, timeoutSeconds }, { toolCallId }) => {
        // As the owner, through the access module (who may write this todo may propose on it).
        await getTodoOrThrow(ctx.caller, ctx.todo.id, "write");
        const { device, path } = shellTarget(await shellDevices(ctx.todo.userId), { path: wanted, ...(deviceId !== undefined ? { deviceId } : {}) });
        const stepBlockId = await ctx.steps.blockOf(toolCallId);
        const content: ShellBlockContent = {
          command,
          path,
          deviceId: device.id,
          deviceName: device.name,
          state: "pending",
          toolCallId,
          ...(stepBlockId ? { stepBlockId } : {}),
          timeoutMs: (timeoutSeconds ?? SHELL_DEFAULT_TIMEOUT_MS / 1000) * 1000,
        };
        const block = await ctx.steps.add({ type: "shell", actionable: true, content });
        await changeTodo(ctx.todo.id, async (tx, current) => {
          const w = asObject(current.workflow);
          const waiting = linksOf(w).waitingFor ?? [];
          await tx.todo.update({ where: { id: current.id }, data: { workflow: { ...w, waitingFor: [...waiting, `${SHELL_WAIT_PREFIX}${block.id}`] } as Prisma.InputJsonValue } });
        });
        // Decided (or the todo closed) before it was recorded as waited for: hand the result now.
        await waitSettled(ctx.todo.id);
        return {
          waiting: true,
          approvalBlockId: block.id,
          device: device.name,
          path,
          note: "Proposed. Your turn ends here; the output comes to you once the user approved it and it ran (or you are told it was denied).",
        };
      },
    });
  },
};
