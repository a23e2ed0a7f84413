import { ZAgentSettings, type TAgentSettings } from "../../../lib/schemas/agent.ts";

// Settings live in JSON columns; what is read back is checked, so a stored value that no longer
// fits the schema falls back to its default instead of breaking a response.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Stored agent settings, or null when absent or no longer valid. */
export function agentSettingsFromStored(value: unknown): TAgentSettings | null {
  if (value === null || value === undefined) return null;
  const parsed = ZAgentSettings.safeParse(value);
  return parsed.success ? parsed.data : null;
}
