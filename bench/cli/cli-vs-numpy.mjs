// The CLI on the Table-3 data (the published Lorè & Heydari counts): `same-game import counts` then
// `same-game analyze robustness`, two processes, beside one numpy process doing the same analysis
// (table3_numpy.py), alternately in the same session. Without python3 + numpy the anchor is a bare
// `node -e ""` process, and the output says so. One warm-up pair first, unmeasured: the first start after a
// build certifies the catalog under the new code (once per release, see certification-cache.ts). Goal ≤ 1.5.
// Run: npm run bench:cli [-- REPS]   (the CLI is the built one: dist/cli/main.js).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, "../../dist/cli/main.js");
const CSV = join(here, "../../data/lore-heydari-2024-business-vs-friend.csv");
const reps = Number(process.argv[2] ?? 3);
const dir = mkdtempSync(join(tmpdir(), "same-game-cli-"));
const quote = (s) => `'${s.replace(/'/g, "'\\''")}'`;

/** Wall and CPU seconds (user + system of the children, from bash's `times`) of a shell command. */
function run(command) {
  const t0 = performance.now();
  const out = spawnSync("bash", ["-c", `${command} >/dev/null || exit 9; times`], { encoding: "utf8" });
  const wall = (performance.now() - t0) / 1000;
  if (out.status !== 0) throw new Error(`${command} failed: ${out.stderr}`);
  const children = out.stdout.trim().split("\n")[1] ?? "";
  const [user, system] = children.split(/\s+/).map((t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
  });
  return { wall, cpu: user + system };
}

const numpy = spawnSync("python3", ["-c", "import numpy"]).status === 0;
const anchorName = numpy ? "numpy, one analysis as a process" : 'bare `node -e ""` (no python3 + numpy here)';
const anchorCommand = numpy
  ? `python3 ${quote(join(here, "table3_numpy.py"))} ${quote(CSV)}`
  : `${quote(process.execPath)} -e ""`;
const node = quote(process.execPath);
const importAndAnalyze = (db) =>
  `${node} ${quote(CLI)} import counts ${quote(CSV)} --db ${db} 2>/dev/null && ${node} ${quote(CLI)} analyze robustness --db ${db}`;
run(importAndAnalyze(quote(join(dir, "warm-up.db"))));
run(anchorCommand);
const ours = [];
const anchor = [];
for (let i = 0; i < reps; i++) {
  ours.push(run(importAndAnalyze(quote(join(dir, `table3-${i}.db`)))));
  anchor.push(run(anchorCommand));
}
rmSync(dir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const measure of ["wall", "cpu"]) {
  const a = ours.map((r) => r[measure]);
  const b = anchor.map((r) => r[measure]);
  const ratios = a.map((x, i) => x / b[i]);
  const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(" ");
  console.log(`${measure} s`);
  console.log(`  same-game import + analyze robustness: ${fmt(a)}   median ${median(a).toFixed(2)}`);
  console.log(`  ${anchorName}: ${fmt(b)}   median ${median(b).toFixed(2)}`);
  console.log(`  ratio per pair: ${fmt(ratios)}   median ${median(ratios).toFixed(2)} (goal ≤ 1.5)`);
}
