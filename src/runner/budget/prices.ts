import { readFileSync } from "node:fs";
import { UsageError } from "../../usage-error.js";

/** USD per million tokens of one model, as the user's price table gives them. */
export interface ModelPrice {
  readonly input_per_mtok: number;
  readonly output_per_mtok: number;
}

export type PriceTable = ReadonlyMap<string, ModelPrice>;

/**
 * `--prices FILE`: a JSON object from model name (as --model gives it) to
 * `{ "input_per_mtok": USD, "output_per_mtok": USD }`. Prices change and differ by contract, so the
 * table is the user's: same-game ships none. A bad file is one line naming the file, the entry and the
 * rule.
 */
export function readPriceTable(path: string): PriceTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(`--prices ${path}: ${(error as Error).message}.`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError(
      `--prices ${path} must be a JSON object like {"MODEL": {"input_per_mtok": 0.15, "output_per_mtok": 0.6}}.`,
    );
  }
  const table = new Map<string, ModelPrice>();
  for (const [model, entry] of Object.entries(parsed as Record<string, unknown>)) {
    const price = entry as Record<string, unknown> | null;
    const usd = (field: string) => {
      const value = price?.[field];
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw new UsageError(
          `--prices ${path}: "${model}".${field} must be a price in USD per million tokens (a number ≥ 0), got ${JSON.stringify(value)}.`,
        );
      }
      return value;
    };
    table.set(model, { input_per_mtok: usd("input_per_mtok"), output_per_mtok: usd("output_per_mtok") });
  }
  return table;
}

/** The price of a model from the table; a model it lacks is a usage error naming the models it has. */
export function priceOf(table: PriceTable, model: string, path: string): ModelPrice {
  const price = table.get(model);
  if (price) return price;
  const known = [...table.keys()].map((m) => `"${m}"`).join(", ") || "none";
  throw new UsageError(`--prices ${path} has no price for --model "${model}"; it prices: ${known}.`);
}

/** The cost in USD of one call's tokens. */
export function callCost(price: ModelPrice, promptTokens: number, completionTokens: number): number {
  return (promptTokens * price.input_per_mtok + completionTokens * price.output_per_mtok) / 1e6;
}
