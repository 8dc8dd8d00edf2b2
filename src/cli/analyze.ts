import { VARIANT_IDS } from "../domain/types.js";
import { UsageError } from "../usage-error.js";
import type { Command, ParsedArgs } from "./command.js";

type Analysis = (args: ParsedArgs) => Promise<void>;

/**
 * The analyses `analyze` offers, each printing what its MCP tool returns (--json) or a table. Each is
 * loaded when it runs: `analyze robustness` loads neither the repeated-play code nor the tools' schemas.
 */
const ANALYSES: Record<string, () => Promise<Analysis>> = {
  robustness: async () => (await import("./analyze-robustness.js")).analyzeRobustness,
  compare: async () => (await import("./analyze-compare.js")).analyzeCompare,
  sensitivity: async () => (await import("./analyze-others.js")).analyzeSensitivity,
  equilibria: async () => (await import("./analyze-others.js")).analyzeEquilibria,
  power: async () => (await import("./analyze-others.js")).analyzePower,
  repeated: async () => (await import("./analyze-repeated.js")).analyzeRepeated,
  "story-labels": async () => (await import("./analyze-story-labels.js")).analyzeStoryLabels,
};

export const analyzeCommand: Command = {
  name: "analyze",
  usage: [
    "same-game analyze <analysis> [--db PATH] [filters] [--json]",
    "  robustness   [--players a,b] [--games g,h] [--framings b,s] [--variant base] [--study ID]",
    "               [--attenuation 1] [--bootstrap 10000] [--seed 1] [--confidence 0.95]",
    "  compare      [--by player|style|client|model] [--players a,b] [--games g,h] [--framings b,s] [--variant base]",
    "               [--study ID] [--bootstrap 10000] [--seed 1] [--confidence 0.95]   which group is more robust?",
    "  sensitivity  [--players a,b] [--games g,h] [--framings f,g] [--variant base] [--study ID]",
    "               [--bootstrap 10000] [--seed 1] [--confidence 0.95]",
    "  equilibria   --game ID [--variant base]",
    "  power        --baseline P (--delta D | --comparison Q) [--n N] [--bootstrap 1000] [--seed 1]",
    "               [--decisions-per-session 1 --rho 0] [--true-r R]",
    "  repeated     [--players] [--games] [--variants] [--framings] [--opponents] [--study ID] [--rule match|beat] [--threshold 0.9]",
    "               [--invalid-rounds loss|counterfactual-study]   score rounds without a valid move as a loss, or as that study does",
    "  story-labels [--players a,b] [--games g,h] [--stories s,t] [--labels story-true,familiar] [--variant base] [--study ID]",
    "               [--bootstrap 10000] [--seed 1] [--confidence 0.95]   did the story or the words move the agent?",
  ].join("\n"),
  options: {
    db: { type: "string" },
    json: { type: "boolean" },
    by: { type: "string" },
    players: { type: "string" },
    games: { type: "string" },
    framings: { type: "string" },
    stories: { type: "string" },
    labels: { type: "string" },
    variant: { type: "string" },
    variants: { type: "string" },
    opponents: { type: "string" },
    study: { type: "string" },
    attenuation: { type: "string" },
    bootstrap: { type: "string" },
    seed: { type: "string" },
    confidence: { type: "string" },
    rule: { type: "string" },
    threshold: { type: "string" },
    "invalid-rounds": { type: "string" },
    game: { type: "string" },
    baseline: { type: "string" },
    delta: { type: "string" },
    comparison: { type: "string" },
    n: { type: "string" },
    "decisions-per-session": { type: "string" },
    rho: { type: "string" },
    "true-r": { type: "string" },
  },
  async run(args) {
    const [name, ...extra] = args.positionals;
    const names = Object.keys(ANALYSES).join(", ");
    const load = name ? ANALYSES[name] : undefined;
    if (!load) throw new UsageError(`analyze needs one of ${names}, got "${name ?? ""}".`);
    if (extra.length > 0)
      throw new UsageError(`analyze ${name} takes no positional arguments, got "${extra.join(" ")}".`);
    const variant = args.values.variant;
    if (typeof variant === "string" && !(VARIANT_IDS as readonly string[]).includes(variant)) {
      throw new UsageError(`--variant must be one of ${VARIANT_IDS.join(", ")}, got "${variant}".`);
    }
    await (await load())(args);
  },
};
