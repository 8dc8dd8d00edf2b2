import { toCsv, toJsonl } from "../exports/csv-writer.js";
import { EXPORT_KINDS, type ExportFormat, type ExportKind, exportTable } from "../exports/export-tables.js";
import { toParquet } from "../exports/parquet-writer.js";
import { logInfo } from "../log.js";
import { UsageError } from "../usage-error.js";
import { type Command, listFlag, stringFlag } from "./command.js";
import { withDeps } from "./open-deps.js";
import { outputPath, writeOutput } from "./output-file.js";

const FORMATS: readonly ExportFormat[] = ["csv", "jsonl", "parquet"];

export const exportCommand: Command = {
  name: "export",
  usage:
    "same-game export decisions|matches|attempts|model-calls|studies|counts [--format csv|jsonl|parquet] [--out FILE] [--db PATH] [--players a,b] [--games g,h] [--variants v] [--framings f,g] [--study ID]",
  options: {
    db: { type: "string" },
    format: { type: "string" },
    out: { type: "string" },
    players: { type: "string" },
    games: { type: "string" },
    variants: { type: "string" },
    framings: { type: "string" },
    study: { type: "string" },
  },
  async run(args) {
    const [kind, ...extra] = args.positionals;
    if (!kind || !(EXPORT_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`export needs one of ${EXPORT_KINDS.join(", ")}, got "${kind ?? ""}".`);
    }
    if (extra.length > 0)
      throw new UsageError(`export ${kind} takes no other argument, got "${extra.join(" ")}".`);
    const format = (stringFlag(args, "format") ?? "csv") as ExportFormat;
    if (!FORMATS.includes(format)) {
      throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got "${format}".`);
    }
    const outFlag = stringFlag(args, "out");
    const out = outFlag === undefined ? undefined : outputPath(outFlag);
    if (format === "parquet" && out === undefined) {
      throw new UsageError("--format parquet writes a binary file: give its path with --out FILE.parquet.");
    }
    await withDeps(args, ({ store, catalog }) => {
      const table = exportTable(store, catalog, kind as ExportKind, {
        players: listFlag(args, "players"),
        games: listFlag(args, "games"),
        variants: listFlag(args, "variants"),
        framings: listFlag(args, "framings"),
        study_id: stringFlag(args, "study"),
      });
      const text =
        format === "parquet"
          ? toParquet(table.columns, table.rows)
          : format === "csv"
            ? toCsv(table.columns, table.rows)
            : toJsonl(table.jsonl ?? table.rows);
      if (out === undefined) {
        process.stdout.write(text);
        return;
      }
      writeOutput(out, text);
      const n = format === "jsonl" && table.jsonl ? table.jsonl.length : table.rows.length;
      logInfo(`exported ${n} ${kind} row(s) as ${format} to ${out}`);
    });
  },
};
