/**
 * `npm run bench:scale-client [-- --sizes 10000,1000000] [--shape mixed|short-spanning] [--rounds 3]
 * [--only robustness,report] [--bootstrap B] [--timeout S] [--hits N]`: the
 * analyses as a host calls them. For each size it starts `same-game serve --toolsets analysis` on the scale
 * record (scale-records.ts) over stdio and connects the SDK `Client` with its default options (a 60 s
 * request timeout, no progress), warms the server with one small analysis (modules loaded, worker threads
 * up), then times per tool (`robustness` and `compare` with their defaults; `report` with its default
 * B = 2,000 and with B = 10,000, the CLI's): the first call (computed) and the same call again (answered
 * from the result cache; N = 7 times, the median and range printed, with the client's and the server's CPU
 * time per call, beside the client's own floor: the same answer from a process that does nothing else,
 * replay-server.ts, timed in turn with them), and at the end one more decision written to the record (by another process) and
 * the first call once more (recomputed). Anchors measured in the same session: a `tools/list` round trip on
 * the same connection and one bare SQLite scan of the record's decisions; the load average is printed
 * before and after, and beside each call the server process's CPU time over it (all its threads, from /proc;
 * a figure the load average hardly moves, unlike the wall time), and after each size the server's peak RSS
 * (VmHWM). SAME_GAME_BENCH_CPU_PROF=DIR starts the server under `node --cpu-prof` (its main thread's
 * and its worker threads' profiles written into DIR when it exits), for a look at where its time goes.
 * Not a test: it prints figures.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { anchorScanMs, forgetCachedAnalyses, ROOT, recordOf, shapeArg, sizesArg } from "./scale-records.js";

const cli = join(ROOT, "dist", "cli", "main.js");
const replayServer = join(dirname(fileURLToPath(import.meta.url)), "replay-server.js");
const CACHE_META_KEY = "same-game/cache";

interface Timed {
  ms: number;
  outcome: string;
  bytes: number;
  /** The server process's CPU time over the call (all its threads), in ms; NaN where /proc is missing. */
  serverCpuMs: number;
  /** This process's (the client's) CPU time over the call, in ms. */
  clientCpuMs: number;
  /** The call's result, as the client got it. */
  result?: unknown;
}

/** The server's pid, once connected: its CPU time is read from /proc (Linux), a figure the load hardly moves. */
let serverPid: number | null = null;

/** utime + stime of the server process in ms (clock ticks of 10 ms), or NaN. */
function serverCpu(): number {
  if (serverPid === null) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${serverPid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** The server process's peak resident set so far (VmHWM), in MB; NaN where /proc is missing. */
function peakRssMb(): number {
  if (serverPid === null) return Number.NaN;
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${serverPid}/status`, "utf8"))?.[1];
    return kb === undefined ? Number.NaN : Math.round(Number(kb) / 1024);
  } catch {
    return Number.NaN;
  }
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const rounds = Number(option("--rounds", "1"));
// The cached call is timed this many times (the median printed): one call on a loaded machine says little.
const hits = Number(option("--hits", "7"));
// The client's floor is timed in turn with the repeated calls after the first, so it needs two or more.
if (!Number.isInteger(hits) || hits < 2) {
  console.error(`--hits ${option("--hits", "")} is invalid; valid: an integer of 2 or more.`);
  process.exit(2);
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
// `--bootstrap B` sets B of every timed call (e.g. to time the cached call on a loaded machine quickly).
const bootstrap = process.argv.includes("--bootstrap")
  ? { bootstrap: Number(option("--bootstrap", "")) }
  : {};
const only = option("--only", "robustness,compare,report,report-10k").split(",");
// `--timeout S`: the client's request timeout in seconds instead of the SDK's default 60 s, to measure the
// server's CPU per call on a machine loaded enough that the default would give up.
const requestOptions = process.argv.includes("--timeout")
  ? { timeout: Number(option("--timeout", "")) * 1000 }
  : undefined;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

const CALLS: Record<string, Record<string, unknown>> = {
  robustness: {},
  compare: {},
  report: {},
  "report-10k": { bootstrap: 10_000 },
};
const toolOf = (name: string) => (name === "report-10k" ? "report" : name);

/** One call; a call the client gave up on (its default 60 s timeout) is reported, not thrown. */
async function timed(client: Client, name: string, args: Record<string, unknown>): Promise<Timed> {
  const started = performance.now();
  const cpuBefore = serverCpu();
  const clientBefore = process.cpuUsage();
  const clientCpu = () => {
    const used = process.cpuUsage(clientBefore);
    return (used.user + used.system) / 1000;
  };
  let result: Awaited<ReturnType<Client["callTool"]>>;
  try {
    result = await client.callTool({ name, arguments: args }, requestOptions);
  } catch (error) {
    const ms = performance.now() - started;
    return {
      ms,
      outcome: `failed: ${error instanceof Error ? error.message : String(error)}`,
      bytes: 0,
      serverCpuMs: serverCpu() - cpuBefore,
      clientCpuMs: clientCpu(),
    };
  }
  const ms = performance.now() - started;
  const serverCpuMs = serverCpu() - cpuBefore;
  const clientCpuMs = clientCpu();
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 500)}`);
  const meta = result._meta?.[CACHE_META_KEY] as { outcome?: string } | undefined;
  return {
    ms,
    outcome: meta?.outcome ?? "?",
    bytes: JSON.stringify(result).length,
    serverCpuMs,
    clientCpuMs,
    result,
  };
}

/**
 * The client's own floor for an answer: a second default `Client` in this process connected to a stand-in
 * server that answers every call with the same answer and does nothing else (replay-server.ts). Its calls
 * are timed in turn with the real server's, so both see the same load, heap and warmth.
 */
async function replayOf(tools: unknown, answer: unknown, name: string) {
  const dir = mkdtempSync(join(tmpdir(), "same-game-scale-floor-"));
  const file = join(dir, "replay.json");
  writeFileSync(file, JSON.stringify({ tools, answer }));
  const replay = new Client({ name: "scale-bench-floor", version: "1.0.0" });
  await replay.connect(
    new StdioClientTransport({ command: process.execPath, args: [replayServer, file], stderr: "inherit" }),
  );
  await replay.listTools();
  // The first call compiles the client's output validators for the listed tools, and a fresh client's
  // first few large answers cost it 2–4× more (V8 and its heap settling): not a floor.
  for (let warm = 0; warm < 8; warm++) await replay.callTool({ name, arguments: {} });
  return {
    async call(): Promise<{ ms: number; cpuMs: number }> {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await replay.callTool({ name, arguments: {} });
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpuBefore);
      return { ms, cpuMs: (used.user + used.system) / 1000 };
    },
    async close(): Promise<void> {
      await replay.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One more decision in the record, written by another process (a second `serve` a player connects to). */
async function oneMoreDecision(path: string): Promise<void> {
  const player = new Client({ name: "scale-bench-player", version: "1.0.0" });
  await player.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, "serve", "--db", path, "--player", "scale-model-00", "--toolsets", "play"],
      stderr: "ignore",
    }),
  );
  await player.listTools();
  // The server draws the framing, which names the actions in its own words: answer with the first label
  // the round lists.
  const start = await player.callTool({ name: "start_match", arguments: { game: "prisoners-dilemma" } });
  if (start.isError) throw new Error(`start_match failed: ${JSON.stringify(start.content)}`);
  const round = start.structuredContent as { match_id: string; labels: string[] };
  const move = await player.callTool({
    name: "submit_move",
    arguments: { match_id: round.match_id, round: 1, choice: round.labels[0] },
  });
  if (move.isError) throw new Error(`submit_move failed: ${JSON.stringify(move.content)}`);
  await player.close();
}

const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

const shape = shapeArg();
console.log(`shape ${shape}; load average before: ${load()}`);
for (const decisions of sizesArg("10000")) {
  // A copy: the decision written at the end must not change the kept record.
  const dir = mkdtempSync(join(tmpdir(), "same-game-scale-client-"));
  const path = join(dir, "record.db");
  copyFileSync(recordOf(decisions, shape), path);
  forgetCachedAnalyses(path);
  const scan = anchorScanMs(path);
  const client = new Client({ name: "scale-bench", version: "1.0.0" });
  const profile = process.env.SAME_GAME_BENCH_CPU_PROF;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      ...(profile ? ["--cpu-prof", "--cpu-prof-dir", profile] : []),
      cli,
      "serve",
      "--db",
      path,
      "--toolsets",
      "analysis",
    ],
    stderr: "inherit",
  });
  await client.connect(transport);
  serverPid = transport.pid;
  const listStarted = performance.now();
  const tools = await client.listTools();
  const listMs = performance.now() - listStarted;
  // Warm: the analysis modules loaded and the worker threads started, on arguments no timed call uses.
  const warm = await timed(client, "robustness", { bootstrap: 200, seed: 99 });
  const anchors = [0, 1, 2].map(async () => {
    const at = performance.now();
    await client.listTools();
    return performance.now() - at;
  });
  const roundTrip = (await Promise.all(anchors)).sort((a, b) => a - b)[1] as number;
  console.log(
    `\n${decisions.toLocaleString("en-US")} decisions — anchors: bare scan ${scan.toFixed(1)} ms, tools/list round trip ${roundTrip.toFixed(1)} ms (first ${listMs.toFixed(0)} ms); warm-up robustness B = 200 ${seconds(warm.ms)}; load ${load()}`,
  );
  for (let round = 0; round < rounds; round++) {
    for (const name of only) {
      const args = { ...CALLS[name], ...bootstrap, seed: 1 + round };
      const first = await timed(client, toolOf(name), args);
      const again: Timed[] = [await timed(client, toolOf(name), args)];
      const replay = await replayOf(tools, again[0]?.result, toolOf(name));
      const floor: { ms: number; cpuMs: number }[] = [];
      for (let hit = 1; hit < hits; hit++) {
        again.push(await timed(client, toolOf(name), args));
        floor.push(await replay.call());
      }
      await replay.close();
      const wall = median(again.map((a) => a.ms));
      const outcomes = [...new Set(again.map((a) => a.outcome))].join("/");
      console.log(
        `${name.padEnd(11)} first ${seconds(first.ms).padStart(9)} (${first.outcome}, ${(first.bytes / 1e6).toFixed(2)} MB, server CPU ${seconds(first.serverCpuMs)})   again ${seconds(wall).padStart(7)} (median of ${hits}, ${seconds(Math.min(...again.map((a) => a.ms)))}–${seconds(Math.max(...again.map((a) => a.ms)))}; ${outcomes}, ${(wall / roundTrip).toFixed(1)}× the round trip; CPU per call: client ${seconds(median(again.map((a) => a.clientCpuMs)))}, server ${seconds(again.reduce((sum, a) => sum + a.serverCpuMs, 0) / hits)})   load ${load()}`,
      );
      console.log(
        `${"".padEnd(11)} the client's floor, the same answer from a server doing nothing else (in turn with the calls above): ${seconds(median(floor.map((f) => f.ms)))}, client CPU ${seconds(median(floor.map((f) => f.cpuMs)))} per call`,
      );
    }
  }
  await oneMoreDecision(path);
  for (const name of only) {
    const after = await timed(client, toolOf(name), { ...CALLS[name], ...bootstrap, seed: 1 });
    console.log(`${name.padEnd(11)} after one more decision ${seconds(after.ms)} (${after.outcome})`);
  }
  console.log(`server peak RSS ${peakRssMb()} MB (VmHWM: the warm-up and every call above)`);
  await client.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\nload average after: ${load()}`);
