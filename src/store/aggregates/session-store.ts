import type { SessionRecord } from "../records.js";
import { StoreCore } from "../store-core.js";
import { requireWellFormedText } from "../well-formed-text.js";

/** The MCP sessions decisions came from: who the client said it was, over which transport. */
export class SessionStore extends StoreCore {
  /** Records a session the first time it acts; later calls fill in client details learned since. */
  saveSession(session: SessionRecord): void {
    requireWellFormedText(session, {
      player: "player label",
      client_name: "client name",
      client_version: "client version",
    });
    this.stmt(
      `INSERT INTO sessions (id, player, client_name, client_version, transport, principal, started_at)
       VALUES (@id, @player, @client_name, @client_version, @transport, @principal, @started_at)
       ON CONFLICT(id) DO UPDATE SET
         client_name = coalesce(excluded.client_name, sessions.client_name),
         client_version = coalesce(excluded.client_version, sessions.client_version)`,
    ).run(session);
  }

  getSession(id: string): SessionRecord | undefined {
    return this.stmt("SELECT * FROM sessions WHERE id = ?").get(id) as SessionRecord | undefined;
  }
}
