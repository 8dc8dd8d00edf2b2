/**
 * `npm run bench:scale [-- --sizes 10000,100000,1000000] [--shape mixed|short-spanning] [--serve-only]`:
 * analysis at the size of real studies. For each size it generates (once; kept in
 * node_modules/.cache/same-game-scale/records/) a record of 20 players × 4 dilemmas × 11 framings played
 * in sessions (generate-record.ts; the shape "short-spanning" gives every player short sessions across
 * cells), then times the `robustness` tool as a host calls it: the SDK `Client` with its default options
 * over stdio against a warm `same-game serve` (one unmeasured call with another seed first, so the
 * server's threads are up and the result cache cannot answer), with the server's peak memory; and, each
 * in a fresh process as a user runs them, `analyze robustness --json` (every framing, session clusters)
 * and `report`, with their peak memory; all beside the anchor measured in the same session: one bare
 * SQLite scan of the same record's decisions (`SELECT count(*), sum(length(raw_text)) FROM decisions`,
 * the least any analysis that read the decisions could cost). Also the in-process time of the robustness
 * query alone. `--serve-only` times the tool alone. Below the table, the server's peak RSS at the largest
 * size as a multiple of that at the smallest, against the goal of 1.5× (memory flat in the record's size;
 * "OVER" when not). The load average is printed with each row: the machine may be shared. Not a test: it
 * prints figures. Default sizes 10k and 100k; 1M takes minutes to
 * generate the first time.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { loadCatalog } from "../../src/domain/catalog.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import { Store } from "../../src/store/store.js";
import {
  anchorScanMs,
  forgetCachedAnalyses,
  recordOf,
  RECORDS as records,
  ROOT as root,
  shapeArg,
  sizesArg,
} from "./scale-records.js";

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

/**
 * The `robustness` tool through the SDK `Client` (default options: a 60 s request timeout) over stdio
 * against `serve` on the record: one call with seed 2 to warm the server (its analysis thread and the
 * permutation worker) that the result cache then cannot answer for seed 1, the measured call. Wall seconds
 * of the measured call (null when it failed, e.g. timed out) and the server's peak RSS in MB.
 */
async function robustnessOverStdio(path: string): Promise<{ seconds: number | null; rssMb: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "serve", "--db", path, "--toolsets", "all"],
    stderr: "ignore",
  });
  const client = new Client({ name: "scale-bench", version: "1.0.0" });
  await client.connect(transport);
  const pid = transport.pid as number;
  await client.listTools();
  let seconds: number | null = null;
  try {
    await client.callTool({ name: "robustness", arguments: { seed: 2 } });
    const started = performance.now();
    const result = await client.callTool({ name: "robustness", arguments: { seed: 1 } });
    if (!result.isError) seconds = (performance.now() - started) / 1000;
  } catch (error) {
    console.error(`robustness over stdio failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  await client.close();
  return { seconds, rssMb: Number(peak) / 1024 };
}

const serveOnly = process.argv.includes("--serve-only");
const shape = shapeArg();
const header = [
  "decisions",
  "load",
  "anchor scan",
  "robustness tool (stdio)",
  "RSS",
  ...(serveOnly ? [] : ["robustness in process", "analyze robustness", "RSS", "report", "RSS"]),
];
const widths = [9, 14, 11, 24, 7, 24, 20, 7, 20, 7];
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join("  ");
const times = (seconds: number, anchorMs: number) =>
  `${seconds.toFixed(2)} s (${((seconds * 1000) / anchorMs).toFixed(1)}×)`;
console.log(
  `Shape ${shape}; B = 10,000, seed 1, all 11 framings; × = multiple of the anchor (one bare scan of the record's decisions); load = the 1-, 5- and 15-minute load averages before the row.`,
);
console.log(line(header));
/** The robustness tool's peak RSS per size, for the ratio line below the table. */
const toolPeaks: { decisions: number; rssMb: number }[] = [];
for (const decisions of sizesArg("10000,100000")) {
  const path = recordOf(decisions, shape);
  forgetCachedAnalyses(path);
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  const anchor = anchorScanMs(path);
  const tool = await robustnessOverStdio(path);
  toolPeaks.push({ decisions, rssMb: tool.rssMb });
  const toolCells = [
    tool.seconds === null ? "failed" : times(tool.seconds, anchor),
    `${tool.rssMb.toFixed(0)} MB`,
  ];
  if (serveOnly) {
    console.log(line([String(decisions), load, `${anchor.toFixed(1)} ms`, ...toolCells]));
    continue;
  }
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
      load,
      `${anchor.toFixed(1)} ms`,
      ...toolCells,
      `${inProcess.toFixed(0)} ms (${(inProcess / anchor).toFixed(1)}×)`,
      times(analyze.seconds, anchor),
      `${analyze.rssMb.toFixed(0)} MB`,
      times(report.seconds, anchor),
      `${report.rssMb.toFixed(0)} MB`,
    ]),
  );
}
// The server's memory should stay flat as the record grows: its peak at the largest size within
// MEMORY_FLAT_RATIO of its peak at the smallest (the analysis holds tallies and cells, not decisions).
const MEMORY_FLAT_RATIO = 1.5;
const smallest = toolPeaks.reduce(
  (a, b) => (b.decisions < a.decisions ? b : a),
  toolPeaks[0] as (typeof toolPeaks)[0],
);
const largest = toolPeaks.reduce(
  (a, b) => (b.decisions > a.decisions ? b : a),
  toolPeaks[0] as (typeof toolPeaks)[0],
);
if (toolPeaks.length > 1 && largest.decisions > smallest.decisions) {
  const ratio = largest.rssMb / smallest.rssMb;
  console.log(
    `Server peak RSS at ${largest.decisions} decisions / at ${smallest.decisions}: ${ratio.toFixed(2)}× (${ratio <= MEMORY_FLAT_RATIO ? "within" : "OVER"} ${MEMORY_FLAT_RATIO}×)`,
  );
}
