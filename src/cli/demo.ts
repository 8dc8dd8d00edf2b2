import {
  failedChecks,
  randomAgentNote,
  repeatedTable,
  robustnessTable,
  sensitivityTable,
} from "../agents/demo-summary.js";
import { runDemo } from "../agents/run-demo.js";
import { runRunnerDemo } from "../runner/runner-demo.js";
import { type Command, numberFlag, stringFlag } from "./command.js";
import { outputPath, refuseRecordAsOutput } from "./output-file.js";

export const demoCommand: Command = {
  name: "demo",
  usage:
    "same-game demo [--db PATH] [--seed N] [--trials N] [--out FILE.html]\n       same-game demo --runner [--trials N]   (same-game run against a built-in scripted endpoint)",
  options: {
    runner: { type: "boolean" },
    db: { type: "string" },
    seed: { type: "string" },
    trials: { type: "string" },
    out: { type: "string" },
  },
  async run(args) {
    if (args.values.runner === true) {
      const trialsPerCell = numberFlag(args, "trials", { min: 2, max: 1000, integer: true }) ?? 20;
      await runRunnerDemo({ trialsPerCell, write: (text) => process.stdout.write(text) });
      return;
    }
    const outFlag = stringFlag(args, "out");
    const out = outFlag === undefined ? undefined : outputPath(outFlag);
    const db = stringFlag(args, "db");
    if (out !== undefined && db !== undefined) refuseRecordAsOutput(out, db);
    const progress = process.stderr.isTTY ? progressBar() : undefined;
    const result = await runDemo({
      dbPath: stringFlag(args, "db"),
      seed: numberFlag(args, "seed", { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true }),
      trialsPerCell: numberFlag(args, "trials", { min: 2, max: 1000, integer: true }),
      out,
      onProgress: progress,
    });
    const published = result.published.imported
      ? `Published counts imported from ${result.published.path}.`
      : `Published counts not imported (${result.published.reason}: ${result.published.path || "none"}).`;
    const lines = [
      `Record: ${result.dbPath}`,
      ...result.studies.map(
        (s) => `Study ${s.study_id}: ${s.name} (${s.trials_per_player} trials per agent)`,
      ),
      published,
      `Played in ${result.timings.play_seconds.toFixed(1)} s, analysed in ${result.timings.analysis_seconds.toFixed(1)} s.`,
      "",
      robustnessTable(result.report),
      ...(randomAgentNote(result.report) ? [randomAgentNote(result.report)] : []),
      "",
      sensitivityTable(result.report),
      "",
      repeatedTable(result.report),
      "",
      failedChecks(result.report),
      "",
      `Report: ${result.reportPath}`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  },
};

/** A one-line bar redrawn in place on stderr (only used when stderr is a terminal). */
function progressBar(): (done: number, total: number) => void {
  const width = 30;
  return (done, total) => {
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stderr.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} trials`);
    if (done === total) process.stderr.write("\n");
  };
}
