import { Ajv as Ajv07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { walCommits } from "../support/wal-commits.js";
import { connectHttp } from "./support/http-client.js";
import { startInProcess } from "./support/in-process-server.js";

describe("the cost of one decision over HTTP", () => {
  it("commits once per tool call: the session's row is not written on every request", async () => {
    // Last seen written at most once a minute: a slow run still writes the row only with its first requests.
    const server = await startInProcess({ rateLimitPerSecond: 1000, lastSeenEveryMs: 60_000 });
    // No checkpoint moves the log into the file while the commits are counted.
    server.deps.store.db.pragma("wal_autocheckpoint = 0");
    const { client } = await connectHttp(server.url, { name: "commits" });
    try {
      const { tools } = await client.listTools();
      const submit = tools.find((t) => t.name === "submit_move");
      expect(submit?.outputSchema).toBeDefined();
      const commitsOf = async (work: () => Promise<unknown>) => {
        const before = walCommits(server.deps.dbPath).commits;
        await work();
        return walCommits(server.deps.dbPath).commits - before;
      };
      // The session's first requests on this replica wrote its row (last seen, a lease of 100 tokens: a
      // tenth of a second's worth at 1000/s); the calls below spend that lease and write nothing else.
      for (let trial = 0; trial < 3; trial++) {
        let view = { match_id: "", labels: [] as string[] };
        const started = await commitsOf(async () => {
          const result = await client.callTool({
            name: "start_match",
            arguments: { game: "prisoners-dilemma", opponent: "random" },
          });
          expect(result.isError).toBeFalsy();
          view = result.structuredContent as typeof view;
        });
        // The connection's first play call also records its session (who the client is), once.
        expect(started, `start_match of trial ${trial}`).toBe(trial === 0 ? 2 : 1);
        const decided = await commitsOf(async () => {
          const result = await client.callTool({
            name: "submit_move",
            arguments: { match_id: view.match_id, round: 1, choice: view.labels[0] },
          });
          expect(result.isError).toBeFalsy();
          for (const ajv of [new Ajv07({ allErrors: true }), new Ajv2020({ allErrors: true })]) {
            const validate = ajv.compile(submit?.outputSchema as object);
            expect(validate(result.structuredContent), ajv.errorsText(validate.errors)).toBe(true);
          }
          expect(result.structuredContent).toMatchObject({ status: "decided", finished: true });
        });
        // One durable commit per decision, and it holds the decision: nothing acknowledged is left unwritten.
        expect(decided, `submit_move of trial ${trial}`).toBe(1);
        expect(server.deps.store.getDecision(view.match_id, 1)?.status).toBe("decided");
      }
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
