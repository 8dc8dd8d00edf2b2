import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CountCell } from "../../src/analysis/count-cells.js";

/** The published reference counts (SPEC §8), shipped in the package's data/ folder. */
export const LORE_HEYDARI_CSV = fileURLToPath(
  new URL("../../data/lore-heydari-2024-business-vs-friend.csv", import.meta.url),
);

/** The four one-shot dilemmas all have `cooperate` as their cooperative action (SPEC §2). */
export const DILEMMA_COOPERATIVE_ACTION = {
  "prisoners-dilemma": "cooperate",
  snowdrift: "cooperate",
  "stag-hunt": "cooperate",
  harmony: "cooperate",
} as const;

/** The reference file as count cells (`player,game,framing,action,count` rows), or null when absent. */
export function loadLoreHeydariCells(): CountCell[] | null {
  if (!existsSync(LORE_HEYDARI_CSV)) return null;
  const cells = new Map<
    string,
    { player: string; game: string; framing: string; counts: Record<string, number> }
  >();
  const [, ...rows] = readFileSync(LORE_HEYDARI_CSV, "utf8").trim().split(/\r?\n/);
  for (const row of rows) {
    const [player = "", game = "", framing = "", action = "", count = ""] = row.split(",");
    const key = `${player}|${game}|${framing}`;
    const cell = cells.get(key) ?? { player, game, framing, counts: {} };
    cell.counts[action] = Number(count);
    cells.set(key, cell);
  }
  return [...cells.values()];
}
