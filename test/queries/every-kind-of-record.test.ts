import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import { roundPayoffs } from "../../src/play/match-engine.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { storyLabelReport } from "../../src/queries/story-label-query.js";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// Every analysis that reads the record, on one record holding all three kinds of play the analyses are
// defined over (DESIGN: "the same for live data, imported published counts and imported transcripts"):
//   live        — "live-agent" plays one-shot prisoner's dilemmas over MCP: business C C D D (2 of 4
//                 cooperate), friend-sharing C C C D (3 of 4), and one 16-round repeated-pd match;
//   counts      — "paper-model" from a CSV (`import counts`): business 3 C / 7 D, friend-sharing 6 C / 4 D;
//   transcripts — "transcript-model" from a JSONL (`import matches`): one-shot dilemmas, business 1 C / 3 D,
//                 friend-sharing 2 C / 2 D, and one repeated-pd match.
// Each analysis must list all three players (the repeated metrics: the two with repeated play).

let deps: ReturnType<typeof tempDeps>;
let client: Client;
const PLAYERS = ["live-agent", "paper-model", "transcript-model"];

/** Rows in (player, framing) order: the analyses list live cells before imported ones. */
const sorted = <T extends unknown[]>(rows: T[]): T[] =>
  [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

async function playOneShot(framing: string, action: string, seed: number): Promise<void> {
  const view = await call<{ match_id: string; labels: string[] }>(client, "start_match", {
    game: "prisoners-dilemma",
    framing,
    seed,
  });
  // The labels are listed in the match's action order, which is drawn per match.
  const order = deps.store.getMatch(view.match_id)?.action_order ?? [];
  const choice = view.labels[order.indexOf(action)] as string;
  await call(client, "submit_move", { match_id: view.match_id, round: 1, choice });
}

async function playRepeated(): Promise<void> {
  let view: { match_id: string; round: number; labels: string[] } | null = await call(client, "start_match", {
    game: "repeated-pd",
    opponent: "tit-for-tat",
    seed: 7,
  });
  while (view) {
    const next: { next: typeof view } = await call(client, "submit_move", {
      match_id: view.match_id,
      round: view.round,
      choice: view.labels[0] as string,
    });
    view = next.next;
  }
}

const transcript = (framing: string, move: string) =>
  JSON.stringify({
    player: "transcript-model",
    game: "prisoners-dilemma",
    variant: "base",
    framing,
    opponent: "elsewhere",
    rounds: [
      {
        move,
        opponent_move: "defect",
        ...roundPayoffs(deps.catalog.stageGame("prisoners-dilemma", "base"), move, "defect"),
      },
    ],
  });

interface DeviationCell {
  player: string;
  framing: string;
  decisions: number;
  counts: Record<string, number>;
}

describeEachEngine(
  "every analysis on a record of live play, imported counts and imported transcripts",
  (engine) => {
    beforeAll(async () => {
      deps = tempDeps(engine);
      client = await connectClient(deps, { player: "live-agent" });
      await client.listTools();
      let seed = 1;
      for (const action of ["cooperate", "cooperate", "defect", "defect"])
        await playOneShot("business", action, seed++);
      for (const action of ["cooperate", "cooperate", "cooperate", "defect"])
        await playOneShot("friend-sharing", action, seed++);
      await playRepeated();

      const csv = join(deps.dir, "counts.csv");
      writeFileSync(
        csv,
        [
          "player,game,framing,action,count",
          "paper-model,prisoners-dilemma,business,cooperate,3",
          "paper-model,prisoners-dilemma,business,defect,7",
          "paper-model,prisoners-dilemma,friend-sharing,cooperate,6",
          "paper-model,prisoners-dilemma,friend-sharing,defect,4",
        ].join("\n"),
      );
      await importCommand.run(parseCommandArgs(importCommand, ["counts", csv, "--db", deps.dbPath]));

      const repeated = {
        player: "transcript-model",
        game: "repeated-pd",
        variant: "base",
        opponent: "elsewhere",
        rounds: Array.from({ length: 16 }, () => ({
          move: "cooperate",
          opponent_move: "cooperate",
          ...roundPayoffs(deps.catalog.stageGame("repeated-pd", "base"), "cooperate", "cooperate"),
        })),
      };
      const jsonl = join(deps.dir, "matches.jsonl");
      writeFileSync(
        jsonl,
        [
          ...["cooperate", "defect", "defect", "defect"].map((m) => transcript("business", m)),
          ...["cooperate", "cooperate", "defect", "defect"].map((m) => transcript("friend-sharing", m)),
          JSON.stringify(repeated),
        ].join("\n"),
      );
      await importCommand.run(parseCommandArgs(importCommand, ["matches", jsonl, "--db", deps.dbPath]));
    }, 60_000);

    afterAll(async () => {
      await client?.close();
      deps?.dispose();
    });

    it("equilibrium_deviation counts the cells of all three kinds", async () => {
      const { cells } = await call<{ cells: DeviationCell[] }>(client, "equilibrium_deviation", {
        game: "prisoners-dilemma",
      });
      expect(cells.map((c) => [c.player, c.framing, c.counts.cooperate, c.counts.defect])).toEqual([
        ["live-agent", "business", 2, 2],
        ["live-agent", "friend-sharing", 3, 1],
        ["paper-model", "business", 3, 7],
        ["paper-model", "friend-sharing", 6, 4],
        ["transcript-model", "business", 1, 3],
        ["transcript-model", "friend-sharing", 2, 2],
      ]);
    });

    it("robustness analyses all three players, each from its own decisions", async () => {
      const result = await call<{ players: { player: string; R: { estimate: number } }[] }>(
        client,
        "robustness",
        { framings: ["business", "friend-sharing"], bootstrap: 200 },
      );
      expect(result.players.map((p) => p.player).sort()).toEqual(PLAYERS);
    });

    it("payoff_sensitivity fits λ for all three players", async () => {
      const result = await call<{ players: { player: string }[] }>(client, "payoff_sensitivity", {
        bootstrap: 200,
      });
      expect(result.players.map((p) => p.player).sort()).toEqual(PLAYERS);
    });

    it("story-labels analyses all three players", () => {
      const result = storyLabelReport(deps, { games: ["prisoners-dilemma"], bootstrap: 200 });
      expect(sorted(result.units.map((u) => [u.player, u.cells.map((c) => [c.story, c.n])]))).toEqual(
        PLAYERS.map((player) => [
          player,
          [
            ["business", player === "paper-model" ? 10 : 4],
            ["friend-sharing", player === "paper-model" ? 10 : 4],
          ],
        ]),
      );
    });

    it("repeated_metrics measures the live and the imported repeated matches (published counts have no rounds)", async () => {
      const result = await call<{ cells: { player: string; matches: number }[] }>(client, "repeated_metrics");
      expect(result.cells.map((c) => [c.player, c.matches])).toEqual([
        ["live-agent", 1],
        ["transcript-model", 1],
      ]);
    });

    it("the report's cooperation rates and equilibrium comparison list all three players", () => {
      const data = reportData(deps, { bootstrap: 200 });
      expect(sorted((data.cooperation ?? []).map((c) => [c.player, c.framing, c.n]))).toEqual([
        ["live-agent", "business", 4],
        ["live-agent", "friend-sharing", 4],
        ["paper-model", "business", 10],
        ["paper-model", "friend-sharing", 10],
        ["transcript-model", "business", 4],
        ["transcript-model", "friend-sharing", 4],
      ]);
      expect(sorted((data.equilibrium ?? []).map((c) => [c.player, c.framing, c.n]))).toEqual([
        ["live-agent", "business", 4],
        ["live-agent", "friend-sharing", 4],
        ["paper-model", "business", 10],
        ["paper-model", "friend-sharing", 10],
        ["transcript-model", "business", 4],
        ["transcript-model", "friend-sharing", 4],
      ]);
      expect(data.header.players).toEqual(PLAYERS);
    });
  },
);
