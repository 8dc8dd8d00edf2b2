// The HTML report of an 880-cell record (8 players × 110 game-framing pairs of the shipped catalog, counts
// drawn from a seeded generator), written by the built CLI. Prints its size, the share of it that is SVG,
// and the ratio to the goal (≤ 0.6 MB with the same pictures). Run: npm run bench:report-size [-- KEEP_DIR]
// (KEEP_DIR keeps the record and the report, e.g. for a before/after screenshot).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalog } from "../../dist/domain/catalog.js";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, "../../dist/cli/main.js");
const keep = process.argv[2];
const dir = keep ?? mkdtempSync(join(tmpdir(), "same-game-report-size-"));
mkdirSync(dir, { recursive: true });

// Deterministic counts: a small LCG, so every run writes the very same record.
let state = 12345;
const draw = (n) => {
  state = (state * 1103515245 + 12345) % 2 ** 31;
  return state % n;
};
const catalog = loadCatalog();
const pairs = catalog.games
  .flatMap((game) => catalog.framingsFor(game.id, "base").map((framing) => ({ game, framing })))
  .filter(({ game }) => game.rounds === undefined || game.rounds <= 1)
  .slice(0, 110);
const lines = ["player,game,framing,action,count"];
for (let p = 0; p < 8; p++) {
  for (const { game, framing } of pairs) {
    for (const action of game.actions)
      lines.push(`model-${p},${game.id},${framing.id},${action},${5 + draw(60)}`);
  }
}
const csv = join(dir, "counts.csv");
writeFileSync(csv, `${lines.join("\n")}\n`);
const db = join(dir, "record.db");
const html = join(dir, "report.html");
rmSync(db, { force: true });
execFileSync(process.execPath, [CLI, "import", "counts", csv, "--db", db], {
  stdio: ["ignore", "ignore", "inherit"],
});
execFileSync(process.execPath, [CLI, "report", "--db", db, "--out", html], {
  stdio: ["ignore", "ignore", "inherit"],
});
const text = readFileSync(html, "utf8");
const bytes = Buffer.byteLength(text);
const svgBytes = [...text.matchAll(/<svg[\s\S]*?<\/svg>/g)].reduce((n, m) => n + Buffer.byteLength(m[0]), 0);
const cells = 8 * pairs.length;
console.log(
  `report of a ${cells}-cell record: ${(bytes / 1e6).toFixed(2)} MB, SVG ${((100 * svgBytes) / bytes).toFixed(0)}% of it`,
);
console.log(`ratio to the goal of 0.6 MB: ${(bytes / 0.6e6).toFixed(2)} (goal ≤ 1)`);
if (!keep) rmSync(dir, { recursive: true, force: true });
