import type { SessionRecord } from "../../src/store/records.js";

/** An MCP session over the in-memory transport of player "p", as the store tests write it directly. */
export function memorySession(id: string, fields: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id,
    player: "p",
    client_name: null,
    client_version: null,
    transport: "memory",
    principal: "local",
    started_at: "2026-12-01T00:00:00.000Z",
    ...fields,
  };
}
