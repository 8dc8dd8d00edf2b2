import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { type InProcessServer, startInProcess } from "../http/support/in-process-server.js";
import { finishedPerCell, query, registerStudy, runCliAsync, useRunSandbox } from "./runner-harness.js";

// Model against model through join_match, and a runner that is a remote client of `serve --http`.

const box = useRunSandbox("same-game-seats-");
let http: InProcessServer | undefined;
afterEach(async () => {
  await http?.stop();
  http = undefined;
});

describe("same-game run with two models and over HTTP", () => {
  it("refuses --opponent-model on a study whose opponent is not agent: one line, exit 2, nothing recorded", async () => {
    const db = box.db;
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(db, {
      name: "against a random opponent",
      games: ["prisoners-dilemma"],
      framings: ["business", "friend-sharing"],
      trials_per_cell: 2,
      seed: 4,
    });
    const run = await runCliAsync([
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--opponent-model",
      "scripted/story-swayed",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--db",
      db,
    ]);
    expect(run.stderr).toMatch(
      /same-game: --opponent-model needs a study whose opponent is "agent": Match "[0-9a-f]+" was not started for another player to join; only a match started with opponent "agent" can be joined\.\n/,
    );
    expect(run.stderr).not.toContain("run the same command again");
    expect(run.status).toBe(2);
    expect(query<{ n: number }>(db, "SELECT COUNT(*) AS n FROM decisions")).toEqual([{ n: 0 }]);
    expect(box.endpoint.requests).toHaveLength(0);
  });

  it("seats --opponent-model in the agent seat; each seat sees only its own match", async () => {
    const db = box.db;
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(db, {
      name: "model vs model",
      games: ["prisoners-dilemma"],
      framings: ["business", "friend-sharing"],
      opponents: [{ id: "agent" }],
      trials_per_cell: 2,
      seed: 4,
    });
    const run = await runCliAsync([
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--opponent-model",
      "scripted/story-swayed",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--mode",
      "text",
      "--concurrency",
      "2",
      "--db",
      db,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(finishedPerCell(db, study)).toEqual({
      "scripted/payoff-reader/business": 2,
      "scripted/payoff-reader/friend-sharing": 2,
    });
    // Four second seats, each linked to a first seat, every round decided with both moves.
    const pairs = query<{ first: string; second: string; a: string; b: string; oa: string; ob: string }>(
      db,
      `SELECT f.player AS first, s.player AS second, df.action AS a, ds.action AS b,
              df.opponent_action AS oa, ds.opponent_action AS ob
       FROM matches f JOIN matches s ON s.partner_match_id = f.id
       JOIN decisions df ON df.match_id = f.id JOIN decisions ds ON ds.match_id = s.id
       WHERE f.study_id = ?`,
      study,
    );
    expect(pairs).toHaveLength(4);
    for (const p of pairs) {
      expect([p.first, p.second]).toEqual(["scripted/payoff-reader", "scripted/story-swayed"]);
      expect(p.a).toBe("defect");
      expect([p.oa, p.ob]).toEqual([p.b, p.a]);
    }
    // Every request is one seat's one conversation: one user turn, never two prompts.
    for (const r of box.endpoint.requests) expect((r.body.messages as unknown[]).length).toBe(2);

    // The study's spend counts both seats: one call per one-shot text trial and seat, 4 trials, 8 calls,
    // the second seat's in its partner trial's cell on a row naming it.
    const shown = await runCliAsync(["study", "show", study, "--db", db, "--json"]);
    expect(shown.status, shown.stderr).toBe(0);
    const spend = JSON.parse(shown.stdout).spend as {
      cells: { player: string; framing: string; second_seat: string | null; calls: number }[];
      total: { calls: number };
    };
    expect(spend.cells.map((c) => [c.player, c.framing, c.second_seat, c.calls])).toEqual([
      ["scripted/payoff-reader", "business", null, 2],
      ["scripted/payoff-reader", "business", "scripted/story-swayed", 2],
      ["scripted/payoff-reader", "friend-sharing", null, 2],
      ["scripted/payoff-reader", "friend-sharing", "scripted/story-swayed", 2],
    ]);
    expect(spend.total.calls).toBe(8);
    const text = await runCliAsync(["study", "show", study, "--db", db]);
    expect(text.stdout).toContain(
      "  scripted/story-swayed (second seat of scripted/payoff-reader's trials) prisoners-dilemma business: 2 calls,",
    );
    expect(text.stdout).toContain("  total: 8 calls,");
    const out = join(box.dir, "report.html");
    const report = await runCliAsync(["report", "--study", study, "--db", db, "--out", out]);
    expect(report.status, report.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toContain('<td colspan="3">Total</td><td class="num">8</td>');
  });

  it("plays as a remote client of serve --http (Streamable HTTP), recording the model calls there", async () => {
    http = await startInProcess();
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(http.deps.dbPath, {
      name: "remote",
      games: ["prisoners-dilemma"],
      framings: ["business", "friend-sharing"],
      trials_per_cell: 2,
      seed: 8,
    });
    const run = await runCliAsync([
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--server",
      http.url,
      "--concurrency",
      "2",
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(finishedPerCell(http.deps.dbPath, study)).toEqual({
      "scripted/payoff-reader/business": 2,
      "scripted/payoff-reader/friend-sharing": 2,
    });
    const calls = query<{ n: number; tokens: number }>(
      http.deps.dbPath,
      "SELECT count(*) AS n, sum(prompt_tokens + completion_tokens) AS tokens FROM model_calls",
    )[0];
    const charged = query<{ tokens: number }>(
      http.deps.dbPath,
      "SELECT sum(tokens) AS tokens FROM decisions",
    )[0];
    expect(calls?.n).toBe(4);
    expect(charged?.tokens).toBe(calls?.tokens);
  });
});
