import type { Client } from "@modelcontextprotocol/client";
import { loadCatalog } from "../../src/domain/catalog.js";
import { call } from "../support/harness.js";

/** Decisions per (player, framing) cell of the one-shot record. */
export const TRIALS = 6;

/**
 * A small record a reader can check by hand, played through the real tools. In the prisoner's dilemma
 * under business and team: steady-agent always cooperates (same distribution in both framings, R = 1,
 * shift 0); story-agent defects under business and cooperates under team (disjoint distributions,
 * JSD = ln 2, R = 0, shift team − business = +1); mixed-agent cooperates in 4 of 6 under business and 2
 * of 6 under team (JSD of (2/3, 1/3) and (1/3, 2/3) = 2/3·ln(4/3) + 1/3·ln(2/3) = 0.056633, R = 0.918296,
 * shift −1/3). steady-agent also plays one 16-round repeated-pd match against tit-for-tat, cooperating
 * throughout.
 */
export async function playDashboardRecord(connect: () => Promise<Client>): Promise<void> {
  // Every one-shot decision in its own MCP session, so the bootstrap resamples decisions and the charts
  // show real intervals (decisions sharing a session would be resampled as one cluster).
  // Choices are canonical actions, answered in each framing's own words (its story-true labels).
  const catalog = loadCatalog();
  const say = (framing: string, action: string, game = "prisoners-dilemma") =>
    catalog.framing(framing, game).labels[action] as string;
  const oneShot = async (player: string, framing: string, choice: string | ((trial: number) => string)) => {
    for (let i = 0; i < TRIALS; i++) {
      const client = await connect();
      const view = await call<{ match_id: string }>(client, "start_match", {
        game: "prisoners-dilemma",
        framing,
        player,
        seed: i,
      });
      await call(client, "submit_move", {
        match_id: view.match_id,
        round: 1,
        choice: say(framing, typeof choice === "string" ? choice : choice(i)),
      });
      await client.close();
    }
  };
  await oneShot("steady-agent", "business", "cooperate");
  await oneShot("steady-agent", "team", "cooperate");
  await oneShot("story-agent", "business", "defect");
  await oneShot("story-agent", "team", "cooperate");
  await oneShot("mixed-agent", "business", (i) => (i < 4 ? "cooperate" : "defect"));
  await oneShot("mixed-agent", "team", (i) => (i < 2 ? "cooperate" : "defect"));
  const client = await connect();
  const repeated = await call<{ match_id: string }>(client, "start_match", {
    game: "repeated-pd",
    framing: "repeated-plain",
    opponent: "tit-for-tat",
    player: "steady-agent",
    seed: 3,
  });
  for (let round = 1; round <= 16; round++) {
    const choice = say("repeated-plain", "cooperate", "repeated-pd");
    await call(client, "submit_move", { match_id: repeated.match_id, round, choice });
  }
  await client.close();
}
