import { labelList } from "./label-list.js";

type Unit = "decision" | "session";

/**
 * What the bootstrap resampled, as a caption says it: "session" when every player's unit is the same,
 * else the players of each unit, "session (mixed|agent) and decision (det-bot, gamma)". A player is
 * resampled by session only where its sessions made several decisions, so one record can hold both.
 */
export function resamplingUnits(result: {
  unit: Unit;
  players: readonly { player: string; unit?: Unit }[];
}): string {
  const byUnit = new Map<Unit, string[]>();
  for (const p of result.players) {
    if (p.unit === undefined) continue;
    byUnit.set(p.unit, [...(byUnit.get(p.unit) ?? []), p.player]);
  }
  if (byUnit.size < 2) return result.unit;
  return (["session", "decision"] as const)
    .map((unit) => `${unit} (${labelList(byUnit.get(unit) ?? [])})`)
    .join(" and ");
}
