import { readFileSync } from "node:fs";
import { closestName, unknownKeysMessage } from "../../domain/known-keys.js";
import { UsageError } from "../../usage-error.js";

/** USD per million tokens of one model, as the user's price table gives them. */
export interface ModelPrice {
  readonly input_per_mtok: number;
  readonly output_per_mtok: number;
  /**
   * The share of the price taken off a reply obtained through the provider's batch API (`run --batch`):
   * 0.5 unless the table says otherwise (OpenAI and Anthropic both charge half for batches).
   */
  readonly batch_discount: number;
}

/** What OpenAI and Anthropic take off for a batch: half the price. */
export const DEFAULT_BATCH_DISCOUNT = 0.5;

export type PriceTable = ReadonlyMap<string, ModelPrice>;

/** The keys of a model's entry in the table. */
const PRICE_KEYS: readonly string[] = ["input_per_mtok", "output_per_mtok", "batch_discount"];

/**
 * `--prices FILE`: a JSON object from model name (as --model gives it) to
 * `{ "input_per_mtok": USD, "output_per_mtok": USD, "batch_discount": 0.5 }` (batch_discount optional: the
 * share taken off a batch reply, 0.5 when absent). Prices change and differ by contract, so the
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
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      throw new UsageError(
        `--prices ${path}: "${model}" must be an object like {"input_per_mtok": 0.15, "output_per_mtok": 0.6}, got ${JSON.stringify(entry)}.`,
      );
    }
    const price = entry as Record<string, unknown>;
    // A misspelt key ignored would leave its default in force: "batch_discont": 0 would still take half off.
    const unknown = Object.keys(price).filter((key) => !PRICE_KEYS.includes(key));
    if (unknown.length > 0) {
      throw new UsageError(`--prices ${path}: "${model}": ${unknownKeysMessage(unknown, PRICE_KEYS)}.`);
    }
    const usd = (field: string, fallback?: number, max = Number.POSITIVE_INFINITY) => {
      const value = price[field] ?? fallback;
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > max) {
        const rule =
          max === 1
            ? "a share of the price between 0 and 1"
            : "a price in USD per million tokens (a number ≥ 0)";
        throw new UsageError(
          `--prices ${path}: "${model}".${field} must be ${rule}, got ${JSON.stringify(value)}.`,
        );
      }
      return value;
    };
    table.set(model, {
      input_per_mtok: usd("input_per_mtok"),
      output_per_mtok: usd("output_per_mtok"),
      batch_discount: usd("batch_discount", DEFAULT_BATCH_DISCOUNT, 1),
    });
  }
  return table;
}

/** The price of a model from the table; a model it lacks is a usage error naming the models it has. */
export function priceOf(table: PriceTable, model: string, path: string): ModelPrice {
  const price = table.get(model);
  if (price) return price;
  const known = [...table.keys()].map((m) => `"${m}"`).join(", ") || "none";
  const near = closestName(model, [...table.keys()]);
  throw new UsageError(
    `--prices ${path} has no price for --model "${model}"${near === undefined ? "" : ` (did you mean "${near}"?)`}; it prices: ${known}.`,
  );
}

/** The cost in USD of one call's tokens; a reply from a provider batch at the batch price. */
export function callCost(
  price: ModelPrice,
  promptTokens: number,
  completionTokens: number,
  batch = false,
): number {
  const list = (promptTokens * price.input_per_mtok + completionTokens * price.output_per_mtok) / 1e6;
  return batch ? list * (1 - price.batch_discount) : list;
}
