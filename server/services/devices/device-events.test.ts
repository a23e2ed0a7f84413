import { test } from "node:test";
import assert from "node:assert/strict";
import type { AppEvent } from "../../realtime/bus.ts";
import { callerOf } from "../../testing/caller.ts";
import { createTestUser, suiteTestRuntime } from "../../testing/runtime.ts";
import { enrollSelf } from "./credentials.ts";
import { deleteDevice, setWorkspacePaths } from "./devices.ts";

// A devices list open elsewhere follows every change of the user's devices: each sends an event
// to the user's own connections (docs/api.md "Devices and the command line").

const rt = suiteTestRuntime();

test("enrolling a device, setting its workspace paths and deleting it each tell the user's own connections, with its id alone", async () => {
  const user = await createTestUser(rt.prisma);
  const caller = callerOf(user);
  const heard: AppEvent[] = [];
  const stop = rt.bus.subscribe((e) => void (e.type.startsWith("device.") && heard.push(e)));
  let deviceId = "";
  try {
    deviceId = (await enrollSelf(caller, { name: "box", workspacePaths: ["/srv/a"] })).device.id;
    await setWorkspacePaths(caller, deviceId, ["/srv/b"]);
    await deleteDevice(caller, deviceId);
  } finally {
    stop();
  }
  assert.deepEqual(
    heard.map((e) => [e.type, e.userId, e.data]),
    [
      ["device.created", user.id, { deviceId }],
      ["device.updated", user.id, { deviceId }],
      ["device.deleted", user.id, { deviceId }],
    ],
  );
});
