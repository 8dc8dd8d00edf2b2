import { toCsv, toJsonl } from "../exports/csv-writer.js";
import {
  EXPORT_KINDS,
  type ExportFormat,
  type ExportKind,
  type ExportTable,
  exportTable,
} from "../exports/export-tables.js";
import { formulaCells, formulaCellsNote } from "../exports/formula-cells.js";
import { withoutFreeText } from "../exports/free-text-columns.js";
import { toParquet } from "../exports/parquet-writer.js";
import { logInfo } from "../log.js";
import { UsageError } from "../usage-error.js";
import { type Command, listFlag, type ParsedArgs, stringFlag } from "./command.js";
import { COMPARE_FLAGS, compareQueryOf } from "./compare-flags.js";
import { resolveDatabasePath } from "./database-path.js";
import { withDeps } from "./open-deps.js";
import { outputPath, refuseRecordAsOutput, writeOutput } from "./output-file.js";

const FORMATS: readonly ExportFormat[] = ["csv", "jsonl", "parquet"];
/** The leaderboard is computed (the ranks of `analyze compare`), not read: it takes compare's flags. */
const KINDS = [...EXPORT_KINDS, "leaderboard"] as const;
const RECORD_FLAGS = ["variants"];
const LEADERBOARD_FLAGS = ["by", "variant", "bootstrap", "seed", "confidence"];

export const exportCommand: Command = {
  name: "export",
  usage:
    "same-game export decisions|matches|attempts|model-calls|studies|counts [--format csv|jsonl|parquet] [--out FILE] [--db PATH] [--players a,b] [--games g,h] [--variants v] [--framings f,g] [--study ID] [--no-free-text]\n" +
    "       same-game export leaderboard [--format csv|jsonl|parquet] [--out FILE] [--db PATH] [--by player|style|client|model] [--players a,b] [--games g,h] [--framings b,s] [--variant base] [--study ID] [--bootstrap N] [--seed N] [--confidence 0.95]",
  options: {
    db: { type: "string" },
    format: { type: "string" },
    out: { type: "string" },
    variants: { type: "string" },
    "no-free-text": { type: "boolean" },
    ...COMPARE_FLAGS,
  },
  async run(args) {
    const [kind, ...extra] = args.positionals;
    if (!kind || !(KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`export needs one of ${KINDS.join(", ")}, got "${kind ?? ""}".`);
    }
    if (extra.length > 0)
      throw new UsageError(`export ${kind} takes no other argument, got "${extra.join(" ")}".`);
    const format = (stringFlag(args, "format") ?? "csv") as ExportFormat;
    if (!FORMATS.includes(format)) {
      throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got "${format}".`);
    }
    refuseFlags(args, kind, kind === "leaderboard" ? RECORD_FLAGS : LEADERBOARD_FLAGS);
    const outFlag = stringFlag(args, "out");
    const out = outFlag === undefined ? undefined : outputPath(outFlag);
    if (out !== undefined) {
      refuseRecordAsOutput(out, resolveDatabasePath(stringFlag(args, "db"), process.env, { create: false }));
    }
    if (format === "parquet" && out === undefined) {
      throw new UsageError("--format parquet writes a binary file: give its path with --out FILE.parquet.");
    }
    const exported = kind === "leaderboard" ? await leaderboardExport(args) : await recordExport(args, kind);
    const table = args.values["no-free-text"] === true ? withoutFreeText(exported) : exported;
    const text =
      format === "parquet"
        ? toParquet(table.schema, table.rows)
        : format === "csv"
          ? toCsv(Object.keys(table.schema), table.rows)
          : toJsonl(table.jsonl ?? table.rows);
    if (format === "csv") {
      const note = formulaCellsNote(formulaCells(Object.keys(table.schema), table.rows));
      if (note !== null) logInfo(note);
    }
    if (out === undefined) {
      process.stdout.write(text);
      return;
    }
    writeOutput(out, text);
    const n = format === "jsonl" && table.jsonl ? table.jsonl.length : table.rows.length;
    logInfo(`exported ${n} ${kind} row(s) as ${format} to ${out}`);
  },
};

/** A flag of the other kind of export is refused by name rather than silently ignored. */
function refuseFlags(args: ParsedArgs, kind: string, flags: readonly string[]): void {
  const given = flags.filter((f) => args.values[f] !== undefined).map((f) => `--${f}`);
  if (given.length === 0) return;
  const why =
    kind === "leaderboard"
      ? "the leaderboard ranks one --variant"
      : `only export leaderboard takes --${LEADERBOARD_FLAGS.join(", --")}`;
  throw new UsageError(`export ${kind} does not take ${given.join(", ")} (${why}).`);
}

async function recordExport(args: ParsedArgs, kind: string): Promise<ExportTable> {
  return withDeps(args, ({ store }) =>
    exportTable(store, kind as ExportKind, {
      players: listFlag(args, "players"),
      games: listFlag(args, "games"),
      variants: listFlag(args, "variants"),
      framings: listFlag(args, "framings"),
      study_id: stringFlag(args, "study"),
    }),
  );
}

async function leaderboardExport(args: ParsedArgs): Promise<ExportTable> {
  const query = compareQueryOf(args);
  const [{ leaderboard }, { leaderboardTable }] = await Promise.all([
    import("../queries/leaderboard-query.js"),
    import("../exports/leaderboard-table.js"),
  ]);
  return withDeps(args, (deps) =>
    leaderboardTable(leaderboard(deps, query), { players: query.players, games: query.games }),
  );
}
