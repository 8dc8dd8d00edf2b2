import { loadCatalog } from "../domain/catalog.js";
import { repeatedMetricsInputSchema, repeatedMetricsText } from "../mcp/tools/repeated-metrics.js";
import { repeatedMetrics } from "../play/repeated-metrics-query.js";
import { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { type Command, listFlag, numberFlag, stringFlag } from "./command.js";
import { resolveDatabasePath } from "./database-path.js";

/** `same-game analyze repeated`: the `repeated_metrics` tool's object on stdout (`--json`) or as a table. */
export const analyzeRepeatedCommand: Command = {
  name: "analyze repeated",
  summary: "repeated-play metrics (SPEC §6) per match and per player × game × variant × framing × opponent",
  usage:
    "same-game analyze repeated [--db PATH] [--players a,b] [--games g] [--variants v] [--framings f] [--opponents o] [--study ID] [--rule match|beat] [--threshold 0.9] [--json]",
  options: {
    db: { type: "string" },
    players: { type: "string" },
    games: { type: "string" },
    variants: { type: "string" },
    framings: { type: "string" },
    opponents: { type: "string" },
    study: { type: "string" },
    rule: { type: "string" },
    threshold: { type: "string" },
    json: { type: "boolean" },
  },
  async run(args) {
    const rule = stringFlag(args, "rule");
    if (rule !== undefined && rule !== "match" && rule !== "beat") {
      throw new UsageError(`--rule must be match or beat, got "${rule}".`);
    }
    const parsed = repeatedMetricsInputSchema.safeParse({
      players: listFlag(args, "players"),
      games: listFlag(args, "games"),
      variants: listFlag(args, "variants"),
      framings: listFlag(args, "framings"),
      opponents: listFlag(args, "opponents"),
      study_id: stringFlag(args, "study"),
      rule,
      threshold: numberFlag(args, "threshold", { min: 0, max: 1 }),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`--${issue?.path.join(".")}: ${issue?.message}.`);
    }
    const store = new Store(resolveDatabasePath(stringFlag(args, "db")));
    try {
      const report = repeatedMetrics({ store, catalog: loadCatalog() }, parsed.data);
      process.stdout.write(
        args.values.json === true
          ? `${JSON.stringify(report, null, 2)}\n`
          : `${repeatedMetricsText(report)}\n`,
      );
    } finally {
      store.close();
    }
  },
};
