import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";

/** Cooperative choices out of 30 per framing of one player in the prisoner's dilemma. */
export interface CooperationCounts {
  business: number;
  friend: number;
}

/**
 * Imports hand-checkable counts through `import counts`: for each player, `cooperate` of 30 decisions
 * under business and under friend-sharing in the prisoner's dilemma (the rest defect).
 */
export async function importCounts(
  deps: { dir: string; dbPath: string },
  players: Record<string, CooperationCounts>,
): Promise<void> {
  const lines = ["player,game,framing,action,count"];
  for (const [player, { business, friend }] of Object.entries(players)) {
    for (const [framing, c] of [
      ["business", business],
      ["friend-sharing", friend],
    ] as const) {
      lines.push(`${player},prisoners-dilemma,${framing},cooperate,${c}`);
      lines.push(`${player},prisoners-dilemma,${framing},defect,${30 - c}`);
    }
  }
  const file = join(deps.dir, "counts.csv");
  writeFileSync(file, `${lines.join("\n")}\n`);
  await importCommand.run(parseCommandArgs(importCommand, ["counts", file, "--db", deps.dbPath]));
}
