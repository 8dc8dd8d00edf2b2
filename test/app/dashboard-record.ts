import type { Client } from "@modelcontextprotocol/client";
import { call } from "../support/harness.js";

/** Decisions per (player, framing) cell of the one-shot record. */
export const TRIALS = 6;

/**
 * A small record a reader can check by hand, played through the real tools. In the prisoner's dilemma
 * under business and team: steady-agent always cooperates (same distribution in both framings, R = 1,
 * shift 0); story-agent defects under business and cooperates under team (disjoint distributions,
 * JSD = ln 2, R = 0, shift team − business = +1). steady-agent also plays one 16-round repeated-pd match
 * against tit-for-tat, cooperating throughout.
 */
export async function playDashboardRecord(client: Client): Promise<void> {
  const oneShot = async (player: string, framing: string, choice: string) => {
    for (let i = 0; i < TRIALS; i++) {
      const view = await call<{ match_id: string }>(client, "start_match", {
        game: "prisoners-dilemma",
        framing,
        player,
        seed: i,
      });
      await call(client, "submit_move", { match_id: view.match_id, round: 1, choice });
    }
  };
  await oneShot("steady-agent", "business", "Cooperate");
  await oneShot("steady-agent", "team", "Cooperate");
  await oneShot("story-agent", "business", "Defect");
  await oneShot("story-agent", "team", "Cooperate");
  const repeated = await call<{ match_id: string }>(client, "start_match", {
    game: "repeated-pd",
    framing: "repeated-plain",
    opponent: "tit-for-tat",
    player: "steady-agent",
    seed: 3,
  });
  for (let round = 1; round <= 16; round++) {
    await call(client, "submit_move", { match_id: repeated.match_id, round, choice: "Cooperate" });
  }
}
