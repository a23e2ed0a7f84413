import type { Caller } from "../../auth/caller.ts";
import { joinRoom } from "../../realtime/sockets.ts";
import { runtime } from "../../runtime.ts";
import { requireProjectAccess } from "../access.ts";

export async function subscribeProject(caller: Caller, projectId: string, socketId: string | undefined): Promise<null> {
  // Refused exactly like the read would be (404 for a stranger), before the socket is looked at.
  await requireProjectAccess(caller, projectId, "read");
  await joinRoom(runtime().io, socketId, caller, `project:${projectId}`);
  return null;
}
