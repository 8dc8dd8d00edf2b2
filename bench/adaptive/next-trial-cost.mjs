// next_trial's cost under adaptive stopping as the record grows: the seed's design (4 dilemmas × 11
// framings × 300 trials = 13,200 trials of one player) played through the SDK client in process, one
// trial at a time, with an invariance rule that never fires (the player answers every framing alike, with
// the round's first label). Timed: next_trial over assignments WINDOW+1 … 2·WINDOW (after WINDOW to warm up) and over the last WINDOW,
// each beside a no-op tool of the same server called in between (the SDK's own per-call cost), so the
// machine's load falls on both alike. Reported: each window's median, its ratio to the no-op, and the
// late window's ratio to the early one (goal: ≈ 1, i.e. not growing with the record); CPU time as
// well as wall time, since a loaded machine's wall time is mostly waiting.
// Run: npm run build && node bench/adaptive/next-trial-cost.mjs [TRIALS_PER_CELL] [WINDOW]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { loadCatalog } from "../../dist/domain/catalog.js";
import { createServer } from "../../dist/mcp/create-server.js";
import { TOOLSET_NAMES } from "../../dist/mcp/toolsets.js";
import { Store } from "../../dist/store/store.js";

const trialsPerCell = Number(process.argv[2] ?? 300);
const window = Number(process.argv[3] ?? 100);
const games = ["harmony", "prisoners-dilemma", "snowdrift", "stag-hunt"];
const framings = [
  "abstract-matrix",
  "business",
  "competitive-narrative",
  "cooperative-narrative",
  "diplomatic",
  "environmental",
  "friend-sharing",
  "neutral-narrative",
  "relabeled",
  "role",
  "team",
];
const dir = mkdtempSync(join(tmpdir(), "same-game-next-trial-"));
const store = new Store(join(dir, "bench.db"));
const server = createServer(
  { store, catalog: loadCatalog() },
  {
    transport: "memory",
    player: "bench",
    toolsets: TOOLSET_NAMES,
  },
);
server.registerTool("noop", { description: "Does nothing: the SDK's own per-call cost." }, async () => ({
  content: [{ type: "text", text: "ok" }],
}));
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await server.connect(serverTransport);
const client = new Client({ name: "bench", version: "1" });
await client.connect(clientTransport);

const call = async (name, args) => {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
};
const { study_id } = await call("register_study", {
  name: "next_trial cost",
  games,
  framings,
  trials_per_cell: trialsPerCell,
  adaptive: { rule: "invariance" },
});
const total = games.length * framings.length * trialsPerCell;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// Wall time and CPU time (this process: client, server and SQLite all run in it) per call.
const timed = {
  early: { next: [], noop: [], nextCpu: [], noopCpu: [] },
  late: { next: [], noop: [], nextCpu: [], noopCpu: [] },
};
const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const cpuStart = process.cpuUsage();
const started = performance.now();
for (let i = 0; i < total; i++) {
  // The first WINDOW assignments warm the JIT up; the early window is the next WINDOW.
  const slot = i >= window && i < 2 * window ? timed.early : i >= total - window ? timed.late : null;
  if (slot) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await call("noop", {});
    slot.noop.push(performance.now() - t0);
    slot.noopCpu.push(cpuMs(c0));
  }
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const next = await call("next_trial", { study_id });
  if (slot) {
    slot.next.push(performance.now() - t0);
    slot.nextCpu.push(cpuMs(c0));
  }
  if (next.complete) throw new Error(`complete after ${i} of ${total} trials: the rule fired`);
  await call("submit_move", { match_id: next.trial.match_id, round: 1, choice: next.trial.labels[0] });
  if (i % 1000 === 999)
    console.error(`${i + 1}/${total} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
const final = await call("next_trial", { study_id });
if (!final.complete) throw new Error("not complete after every trial");
const cpu = process.cpuUsage(cpuStart);
const row = (name, { next, noop, nextCpu, noopCpu }) =>
  `| ${name} | ${median(next).toFixed(2)} ms | ${median(noop).toFixed(2)} ms | ${(median(next) / median(noop)).toFixed(1)}× | ${median(nextCpu).toFixed(2)} ms | ${median(noopCpu).toFixed(2)} ms | ${(median(nextCpu) / median(noopCpu)).toFixed(1)}× |`;
console.log(
  `| next_trial, ${window} assignments | wall median | no-op beside it | ÷ no-op | CPU median | no-op CPU | ÷ no-op |`,
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
console.log(row(`trials ${window + 1}–${2 * window}`, timed.early));
console.log(row(`trials ${total - window + 1}–${total}`, timed.late));
console.log(
  `late ÷ early next_trial: wall ${(median(timed.late.next) / median(timed.early.next)).toFixed(2)}, CPU ${(median(timed.late.nextCpu) / median(timed.early.nextCpu)).toFixed(2)}; ${total} trials in ${((performance.now() - started) / 1000).toFixed(0)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s); load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} on ${cpus().length} cores`,
);
await client.close();
store.close();
rmSync(dir, { recursive: true, force: true });
