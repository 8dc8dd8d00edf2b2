import type { SpendCellRow, Store } from "../store/store.js";

/** The runner's spend per cell and in all, for `study show` and the report. */
export interface SpendSummary {
  readonly cells: readonly SpendCellRow[];
  readonly total: Omit<SpendCellRow, "player" | "game" | "framing" | "second_seat">;
}

/** The spend of one study (or of the whole record); null when the record has no runner calls there. */
export function spendSummary(store: Store, studyId: string | null): SpendSummary | null {
  const cells = store.spendPerCell(studyId);
  if (cells.length === 0) return null;
  const sum = (
    field: "calls" | "batched" | "cached" | "prompt_tokens" | "completion_tokens" | "priced" | "unreported",
  ) => cells.reduce((total, c) => total + c[field], 0);
  const priced = cells.filter((c) => c.cost_usd !== null);
  return {
    cells,
    total: {
      calls: sum("calls"),
      batched: sum("batched"),
      cached: sum("cached"),
      prompt_tokens: sum("prompt_tokens"),
      completion_tokens: sum("completion_tokens"),
      cost_usd: priced.length === 0 ? null : priced.reduce((total, c) => total + (c.cost_usd as number), 0),
      priced: sum("priced"),
      unreported: sum("unreported"),
    },
  };
}

/**
 * Whose calls a spend row counts: the player's, or the second seat's in the player's trials (the model
 * of `--opponent-model`), which the study's spend counts with its trials. `name` writes a label.
 */
export function spendCellName(row: SpendCellRow, name: (label: string) => string = (label) => label): string {
  return row.second_seat === null
    ? name(row.player)
    : `${name(row.second_seat)} (second seat of ${name(row.player)}'s trials)`;
}

/** "$0.0123" to four decimals, "—" without a price: the cost of a few calls is a fraction of a cent. */
export function spendUsd(cost: number | null): string {
  return cost === null ? "—" : `$${cost.toFixed(4)}`;
}

/** One cell's (or the total's) spend as a line of text. */
export function spendLine(row: SpendSummary["total"]): string {
  const origins = [
    row.batched > 0 ? `${row.batched} by batch` : "",
    row.cached > 0 ? `${row.cached} from the cache` : "",
  ].filter((part) => part !== "");
  // A cost summed over part of the calls would read as the whole: say how many it covers.
  const recorded = row.calls + row.cached;
  const part =
    row.priced > 0 && row.priced < recorded
      ? ` (${row.priced} of the ${recorded} recorded calls priced)`
      : "";
  const calls = `${row.calls} calls${origins.length > 0 ? ` (${origins.join(", ")})` : ""}`;
  // A call without usage is no call of 0 tokens: the counts cover the others, and say so.
  if (row.unreported > 0 && row.unreported === row.calls) {
    return `${calls}, tokens not reported by the endpoint for ${row.unreported} calls, ${spendUsd(row.cost_usd)}${part}`;
  }
  const unreported =
    row.unreported > 0 ? ` (tokens not reported by the endpoint for ${row.unreported} calls)` : "";
  return `${calls}, ${row.prompt_tokens} tokens in, ${row.completion_tokens} out${unreported}, ${spendUsd(row.cost_usd)}${part}`;
}
