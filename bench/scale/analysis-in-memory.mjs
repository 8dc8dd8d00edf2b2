// The robustness analysis of a scale record's decisions without the record: the decisions that
// generate-record.ts would write (the same sessions and choices), folded into cells in memory as the store's
// per-session tallies would give them, then `robustnessAnalysis` as the server runs it (the permutations on
// the resident worker thread). It measures the analysis alone at sizes whose record takes too long to write
// on a loaded machine; the read of the tallies is not in it. Prints wall and CPU seconds (all threads of
// this process) and peak RSS, with the load average.
// Run after `npm run build` and `tsc -p bench/scale/tsconfig.json` (npm run bench:scale does both):
//   node bench/scale/analysis-in-memory.mjs [--sizes 10000,1000000] [--shape mixed|short-spanning]
//   (SAME_GAME_CLUSTER_SUMS=exact|normal forces the bootstrap's session sums either way).
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const { robustnessAnalysis } = await import(join(root, "dist/analysis/robustness/robustness.js"));
const { cellsFromRows } = await import(join(root, "dist/queries/one-shot-cells.js"));
const { loadCatalog } = await import(join(root, "dist/domain/catalog.js"));
const { scaleDecisions } = await import(
  join(root, "node_modules/.cache/same-game-scale/bench/scale/generate-record.js")
);

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const sizes = option("sizes", "10000,1000000").split(",").map(Number);
const shape = option("shape", "mixed");

/** The store's per-session tally rows of the generated decisions (player, session, cell, action). */
function tallyRows(decisions) {
  const rows = new Map();
  for (const d of scaleDecisions(decisions, 1, shape)) {
    const key = `${d.player}\u0000${d.session}\u0000${d.game}\u0000${d.framing}\u0000${d.action}`;
    const row = rows.get(key);
    if (row) row.count++;
    else
      rows.set(key, {
        player: d.player,
        game: d.game,
        variant: "base",
        framing: d.framing,
        action: d.action,
        session_id: d.session,
        count: 1,
        source: null,
      });
  }
  return [...rows.values()];
}

const catalog = loadCatalog();
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
console.log(
  `Shape ${shape}; B = 10,000, all 11 framings; cluster sums ${process.env.SAME_GAME_CLUSTER_SUMS ?? "auto"}.`,
);
for (const decisions of sizes) {
  const cells = cellsFromRows(tallyRows(decisions));
  const games = [...new Set(cells.map((c) => c.game))];
  const options = {
    cooperativeAction: Object.fromEntries(games.map((g) => [g, catalog.game(g).cooperativeAction])),
    actions: Object.fromEntries(games.map((g) => [g, catalog.game(g).actions])),
  };
  // Once with another seed (the worker thread starts, as in a warm server), then measured.
  robustnessAnalysis(cells, { ...options, seed: 2, bootstrap: 1000 });
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  const wall0 = performance.now();
  const cpu0 = cpu();
  const result = robustnessAnalysis(cells, { ...options, seed: 1 });
  const wall = (performance.now() - wall0) / 1000;
  const used = cpu() - cpu0;
  console.log(
    `${decisions} decisions (${result.decisions} analysed, ${cells.length} cells): ${wall.toFixed(2)} s wall, ${used.toFixed(2)} s CPU (all threads), peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load ${load}; pooled R ${result.pooled.R.estimate.toFixed(4)} [${result.pooled.R.ci.map((x) => x.toFixed(4)).join(", ")}]`,
  );
}
