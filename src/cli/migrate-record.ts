import { existsSync } from "node:fs";
import { loadCatalog } from "../domain/catalog.js";
import { analysisOutputs, RECORD_ANALYSES } from "../queries/analysis-outputs.js";
import { table } from "../queries/format.js";
import { isPostgresUrl, redactUrl } from "../store/engines/database-location.js";
import { copyRecord } from "../store/record-copy.js";
import { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import type { Command } from "./command.js";
import { printResult } from "./open-deps.js";

/** Resamples of the verifying analyses: seeded, so equal records give equal intervals; enough to compare. */
const VERIFY_BOOTSTRAP = 1000;

export const migrateRecordCommand: Command = {
  name: "migrate-record",
  summary: "copy an SQLite record into PostgreSQL, verified by row counts and identical analysis output",
  usage: "same-game migrate-record --from FILE.db --to postgres://USER@HOST:PORT/DB [--replace] [--json]",
  options: {
    from: { type: "string" },
    to: { type: "string" },
    replace: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(args) {
    const from = args.values.from;
    const to = args.values.to;
    if (typeof from !== "string" || typeof to !== "string") {
      throw new UsageError("migrate-record needs --from FILE.db and --to postgres://…");
    }
    if (args.positionals.length > 0) {
      throw new UsageError(`migrate-record takes no other argument, got "${args.positionals.join(" ")}".`);
    }
    if (isPostgresUrl(from)) throw new UsageError(`--from must be an SQLite file, got ${redactUrl(from)}.`);
    if (!existsSync(from)) throw new UsageError(`No record at ${from} (--from).`);
    if (!isPostgresUrl(to)) throw new UsageError(`--to must be a postgres:// URL, got "${to}".`);
    const catalog = loadCatalog();
    const source = new Store(from, { readonly: true });
    try {
      const target = new Store(to);
      try {
        const expected = analysisOutputs({ store: source, catalog }, VERIFY_BOOTSTRAP);
        const counts = copyRecord(source, target, {
          replace: args.values.replace === true,
          // Inside the copy's transaction: the analyses read the copied rows before anything commits.
          verify() {
            const actual = analysisOutputs({ store: target, catalog }, VERIFY_BOOTSTRAP);
            const differing = RECORD_ANALYSES.filter((name) => actual[name] !== expected[name]);
            if (differing.length > 0) {
              throw new Error(
                `The copy's analyses differ from the file's (${differing.join(", ")}); nothing was written.`,
              );
            }
          },
        });
        const result = {
          from,
          to: redactUrl(to),
          tables: counts.map((c) => ({ table: c.table, rows: c.target })),
          analyses_identical: [...RECORD_ANALYSES],
        };
        const text = [
          `Copied ${from} into ${result.to} in one transaction:`,
          table(
            ["table", "rows"],
            counts.map((c) => [c.table, String(c.target)]),
          ),
          `Verified: the row count of every table, and identical output of analyze ${RECORD_ANALYSES.join(", ")}.`,
        ].join("\n");
        printResult(args, result, text);
      } finally {
        target.close();
      }
    } finally {
      source.close();
    }
  },
};
