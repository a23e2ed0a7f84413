// A device row as the API shows it (shared by devices.ts and cloud.ts).
import type { TDevice } from "../../../lib/schemas/devices.ts";

export type DeviceRow = { id: string; name: string; kind: "bridge" | "cloud"; workspacePaths: string[]; metadata: unknown; lastSeenAt: Date | null; createdAt: Date };

export function toDevice(row: DeviceRow, online: boolean): TDevice {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    online,
    workspacePaths: row.workspacePaths,
    lastSeenAt: row.lastSeenAt ? row.lastSeenAt.getTime() : null,
    createdAt: row.createdAt.getTime(),
  };
}

