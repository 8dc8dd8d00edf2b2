import { runsOneAnalysis } from "../analysis/invariance/permutation-replicates.js";
import { reportData } from "../queries/report-data-query.js";
import { renderReportHtml } from "../report/render-report.js";
import { type Command, listFlag, numberFlag, stringFlag } from "./command.js";
import { resolveDatabasePath } from "./database-path.js";
import { withDeps } from "./open-deps.js";
import { outputPath, refuseRecordAsOutput, writeOutput } from "./output-file.js";

export const reportCommand: Command = {
  name: "report",
  usage:
    "same-game report [--db PATH] [--study ID] [--framings BASELINE,COMPARISON,…] [--seed N] [--bootstrap N] [--out FILE.html]",
  options: {
    db: { type: "string" },
    study: { type: "string" },
    framings: { type: "string" },
    seed: { type: "string" },
    bootstrap: { type: "string" },
    out: { type: "string" },
  },
  async run(args) {
    runsOneAnalysis();
    const out = outputPath(stringFlag(args, "out") ?? "same-game-report.html");
    refuseRecordAsOutput(out, resolveDatabasePath(stringFlag(args, "db"), process.env, { create: false }));
    await withDeps(args, async (deps, dbPath) => {
      const data = reportData(deps, {
        study_id: stringFlag(args, "study"),
        framings: listFlag(args, "framings"),
        seed: numberFlag(args, "seed", { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true }),
        bootstrap: numberFlag(args, "bootstrap", { min: 100, max: 1_000_000, integer: true }),
        database: dbPath,
      });
      writeOutput(out, await renderReportHtml(data));
    });
    process.stderr.write(`same-game: report written to ${out}\n`);
  },
};
