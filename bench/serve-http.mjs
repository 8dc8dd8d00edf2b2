// `same-game serve --http` as the HTTP benches start it, in one place: the built CLI on a free port with
// limits that never refuse a bench client, so what is measured is the server's work, not its refusals.
// (The benches are plain .mjs run without a build step, so they cannot share the TypeScript helper of the
// HTTP tests, test/http/support/server-process.ts.)
//
// SAME_GAME_BENCH_CPU_PROF=DIR starts each server (and each anchor started by startProcess) under
// `node --cpu-prof`, its profile written into DIR when it stops on SIGTERM, for a look at where its time goes.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const CLI = join(import.meta.dirname, "..", "dist", "cli", "main.js");

/**
 * Starts `same-game serve --http` on the record at `location` (a file or a postgres:// URL) and resolves
 * with the process, its endpoint URL and its stderr so far, once it says where it listens.
 * `rateLimit` and `maxSessions` are set far above any bench's load; `toolsets` as `--toolsets` (default the
 * server's own: the player's surface).
 */
export function startServeHttp(location, { rateLimit = 1_000_000, maxSessions = 10_000, toolsets } = {}) {
  return startProcess(
    [
      CLI,
      "serve",
      "--http",
      "--port",
      "0",
      "--db",
      location,
      "--rate-limit",
      String(rateLimit),
      "--max-sessions",
      String(maxSessions),
      ...(toolsets ? ["--toolsets", toolsets] : []),
    ],
    /serving MCP over HTTP at (\S+);/,
  );
}

/**
 * Starts `node ARGS` and resolves with { child, url, stderr() } once its stderr matches `pattern` (whose
 * first group is the URL); rejects with its stderr when it exits first.
 */
export function startProcess(args, pattern) {
  const profile = process.env.SAME_GAME_BENCH_CPU_PROF;
  const node = profile ? ["--cpu-prof", "--cpu-prof-dir", profile] : [];
  const child = spawn(process.execPath, [...node, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
      const found = pattern.exec(err);
      if (found) resolve({ child, url: found[1], stderr: () => err });
    });
    child.once("exit", (code) => reject(new Error(`${args.at(0)} exited ${code}: ${err}`)));
  });
}

/** A process's CPU time so far (user + system) in ms, from /proc/PID/stat (clock ticks of 1/100 s). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
