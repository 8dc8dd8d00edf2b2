/**
 * `npm run bench:scale [-- --sizes 10000,100000,1000000]`: analysis at the size of real studies.
 * For each size it generates (once; kept in node_modules/.cache/same-game-scale/records/) a record of
 * 20 players × 4 dilemmas × 11 framings played in sessions (generate-record.ts), then times, each in a
 * fresh process as a user runs them, `analyze robustness --json` (every framing, session clusters) and
 * `report`, with their peak memory, beside the anchor measured in the same session: one bare SQLite scan
 * of the same record's decisions (`SELECT count(*), sum(length(raw_text)) FROM decisions`, the least any
 * analysis that read the decisions could cost). Also the in-process time of the robustness query alone.
 * Not a test: it prints figures. Default sizes 10k and 100k; 1M takes minutes to generate the first time.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadCatalog } from "../../src/domain/catalog.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import { Store } from "../../src/store/store.js";
import { anchorScanMs, recordOf, RECORDS as records, ROOT as root, sizesArg } from "./scale-records.js";

const cli = join(root, "dist", "cli", "main.js");
const hook = join(root, "bench", "scale", "rss-hook.mjs");

/** One CLI verb in a fresh process: wall seconds and peak RSS in MB. */
function runVerb(args: string[]): { seconds: number; rssMb: number } {
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--import", hook, cli, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  const seconds = (performance.now() - started) / 1000;
  if (child.status !== 0) throw new Error(`same-game ${args.join(" ")} failed: ${child.stderr}`);
  const rss = /scale-bench maxRSS (\d+)/.exec(child.stderr)?.[1];
  return { seconds, rssMb: Number(rss) / 1024 };
}

const header = [
  "decisions",
  "anchor scan",
  "robustness in process",
  "analyze robustness",
  "RSS",
  "report",
  "RSS",
];
const widths = [9, 11, 24, 20, 7, 20, 7];
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join("  ");
console.log(
  "B = 10,000, seed 1, all 11 framings; × = multiple of the anchor (one bare scan of the record's decisions).",
);
console.log(line(header));
for (const decisions of sizesArg("10000,100000")) {
  const path = recordOf(decisions);
  const anchor = anchorScanMs(path);
  const store = new Store(path, { readonly: true });
  const started = performance.now();
  robustnessReport({ store, catalog: loadCatalog() }, {});
  const inProcess = performance.now() - started;
  store.close();
  const analyze = runVerb(["analyze", "robustness", "--db", path, "--json"]);
  const html = join(records, `scale-${decisions}.html`);
  const report = runVerb(["report", "--db", path, "--out", html]);
  rmSync(html, { force: true });
  console.log(
    line([
      String(decisions),
      `${anchor.toFixed(1)} ms`,
      `${inProcess.toFixed(0)} ms (${(inProcess / anchor).toFixed(1)}×)`,
      `${analyze.seconds.toFixed(2)} s (${((analyze.seconds * 1000) / anchor).toFixed(1)}×)`,
      `${analyze.rssMb.toFixed(0)} MB`,
      `${report.seconds.toFixed(2)} s (${((report.seconds * 1000) / anchor).toFixed(1)}×)`,
      `${report.rssMb.toFixed(0)} MB`,
    ]),
  );
}
