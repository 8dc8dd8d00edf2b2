import type { VariantId } from "../domain/types.js";
import type { CompareQuery } from "../queries/compare-query.js";
import { COMPARISON_FACTORS, type ComparisonFactor } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { listFlag, numberFlag, type ParsedArgs, stringFlag } from "./command.js";

// The flags of `analyze compare` and of `export leaderboard` (which ranks the same comparison), apart from
// either verb so `export` parses them without loading the analysis before it runs one.

export const COMPARE_FLAGS = {
  by: { type: "string" },
  players: { type: "string" },
  games: { type: "string" },
  framings: { type: "string" },
  variant: { type: "string" },
  study: { type: "string" },
  bootstrap: { type: "string" },
  seed: { type: "string" },
  confidence: { type: "string" },
} as const;

/** The comparison the flags ask for; a bad value is a UsageError naming it and the valid ones. */
export function compareQueryOf(args: ParsedArgs): CompareQuery {
  const by = stringFlag(args, "by") ?? "player";
  if (!(COMPARISON_FACTORS as readonly string[]).includes(by)) {
    throw new UsageError(`--by must be one of ${COMPARISON_FACTORS.join(", ")}, got "${by}".`);
  }
  return {
    by: by as ComparisonFactor,
    players: listFlag(args, "players"),
    games: listFlag(args, "games"),
    framings: listFlag(args, "framings"),
    variant: stringFlag(args, "variant") as VariantId | undefined,
    study_id: stringFlag(args, "study"),
    bootstrap: numberFlag(args, "bootstrap", { min: 1, max: 1_000_000, integer: true }),
    seed: numberFlag(args, "seed", { min: 0, max: 2 ** 31 - 1, integer: true }),
    confidence: numberFlag(args, "confidence", { min: 0.5, max: 0.999 }),
  };
}
