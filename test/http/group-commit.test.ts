import { expect, it } from "vitest";
import { walCommits } from "../support/wal-commits.js";
import { connectHttp } from "./support/http-client.js";
import { startInProcess } from "./support/in-process-server.js";

it("records the moves of concurrent clients in fewer commits than moves, each acknowledged one in the record", async () => {
  // Last seen written at most once a minute: the session rows add no commits while the moves are counted.
  const server = await startInProcess({ rateLimitPerSecond: 1000, lastSeenEveryMs: 60_000 });
  const clients = await Promise.all(
    Array.from({ length: 16 }, async (_, i) => (await connectHttp(server.url, { name: `g${i}` })).client),
  );
  try {
    const views = await Promise.all(
      clients.map(async (client) => {
        const started = await client.callTool({
          name: "start_match",
          arguments: { game: "prisoners-dilemma", opponent: "random" },
        });
        return started.structuredContent as { match_id: string; labels: string[] };
      }),
    );
    const store = server.deps.store;
    store.db.pragma("wal_autocheckpoint = 0");
    store.db.pragma("wal_checkpoint(TRUNCATE)");
    const versionBefore = store.recordVersion();
    // Every client sends its move at once; the server answers each only after the commit that holds it.
    const moves = await Promise.all(
      clients.map(async (client, i) => {
        const view = views[i] as { match_id: string; labels: string[] };
        const moved = await client.callTool({
          name: "submit_move",
          arguments: { match_id: view.match_id, round: 1, choice: view.labels[0] },
        });
        // Acknowledged: the decision is in the record by now.
        return {
          status: (moved.structuredContent as { status: string }).status,
          stored: store.getDecision(view.match_id, 1)?.status,
        };
      }),
    );
    expect(moves).toEqual(Array(16).fill({ status: "decided", stored: "decided" }));
    // Sixteen writing transactions in the record's count, as sixteen separate calls always counted...
    expect(store.recordVersion() - versionBefore).toBe(16);
    // ...in fewer commits: the moves that arrived together shared one.
    const commits = walCommits(server.deps.dbPath).commits;
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(commits).toBeLessThan(16);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server.stop();
  }
});
