import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Ajv as Ajv07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";

// The container deployment as its users meet it: `npm run deploy:up` has brought up PostgreSQL, three
// replicas and nginx (.ci/run does, and exports SAME_GAME_TEST_DEPLOYMENT=http://127.0.0.1:8080), and an SDK
// Client over Streamable HTTP, with a bearer token from deploy/tokens.txt, plays a registered study through
// nginx. Every result is checked against the schema its tool advertises (draft-07 and 2020-12).

const DEPLOYMENT = process.env.SAME_GAME_TEST_DEPLOYMENT;
if (DEPLOYMENT === undefined && process.env.SAME_GAME_REQUIRE_DEPLOYMENT === "1") {
  throw new Error(
    "SAME_GAME_REQUIRE_DEPLOYMENT=1 but SAME_GAME_TEST_DEPLOYMENT is not set: the container deployment test cannot run.",
  );
}
if (DEPLOYMENT === undefined) {
  process.stderr.write(
    "\n*** SKIPPED: the container deployment test (SAME_GAME_TEST_DEPLOYMENT is not set). Install Docker\n" +
      "*** (apt-get install -y docker.io docker-compose debootstrap), run npm run deploy:up, and export\n" +
      "*** SAME_GAME_TEST_DEPLOYMENT=http://127.0.0.1:8080 ***\n\n",
  );
}

type View = { match_id: string; round: number; labels: string[] };

describe.skipIf(DEPLOYMENT === undefined)("the container deployment behind nginx", () => {
  const base = DEPLOYMENT ?? "";
  const token = () =>
    (readFileSync(join(packageRoot(), "deploy", "tokens.txt"), "utf8").split("\n")[0] as string).trim();
  let client: Client;
  const validators = new Map<string, ((value: unknown) => boolean)[]>();

  beforeAll(async () => {
    client = new Client({ name: "deployment-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token()}` } },
      }),
    );
    const { tools } = await client.listTools();
    for (const tool of tools) {
      if (tool.outputSchema === undefined) continue;
      validators.set(tool.name, [
        new Ajv07({ strict: false }).compile(tool.outputSchema),
        new Ajv2020({ strict: false }).compile(tool.outputSchema),
      ]);
    }
  });
  afterAll(async () => {
    await client?.close();
  });

  async function call<T>(name: string, args: Record<string, unknown>): Promise<T> {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    for (const validate of validators.get(name) ?? []) expect(validate(result.structuredContent)).toBe(true);
    return result.structuredContent as T;
  }

  it("answers readiness through nginx, whose Server header it carries", async () => {
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("server")).toMatch(/^nginx/);
  });

  it("refuses a client without a bearer token with 401", async () => {
    const response = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
  });

  it("plays a registered study to the end, each decision recorded as it was sent", async () => {
    const study = await call<{ study_id: string }>("register_study", {
      name: `deployment test ${Date.now()}`,
      games: ["prisoners-dilemma"],
      framings: ["business", "friend-sharing"],
      trials_per_cell: 2,
      seed: 3,
    });
    const played: { match_id: string; choice: string }[] = [];
    for (let t = 0; t < 10; t++) {
      const next = await call<{ complete: boolean; trials_per_player: number; trial: View | null }>(
        "next_trial",
        { study_id: study.study_id, player: "deployment-test" },
      );
      expect(next.trials_per_player).toBe(4); // 1 game × 2 framings × 2 trials per cell
      if (next.complete || next.trial === null) break;
      const choice = next.trial.labels[t % 2] as string;
      await call("submit_move", { match_id: next.trial.match_id, round: 1, choice });
      played.push({ match_id: next.trial.match_id, choice });
    }
    expect(played).toHaveLength(4);
    // Read back through nginx (any replica, from PostgreSQL): each match is over with the label sent.
    for (const { match_id, choice } of played) {
      const match = await call<{ status: string; rounds: { your_choice: string }[] }>("get_match", {
        match_id,
      });
      expect(match.status).toBe("finished");
      expect(match.rounds.map((r) => r.your_choice)).toEqual([choice]);
    }
  });
});
