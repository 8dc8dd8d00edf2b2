import { readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedScaleRecord, serveScaleRecord } from "../support/served-scale-record.js";

// A long analysis as a host sees it, over stdio against the built server: a client that sends a
// progressToken hears from the server at least every 2 s (and, resetting its timeout on progress, never
// times out although its timeout is shorter than the analysis); a client that cancels after 1 s sees the
// server's CPU fall to idle within 1 s (measured from the process's CPU time, all its threads), and its
// next analysis is answered.

/** The server's user + system CPU seconds so far, every thread counted (/proc/PID/stat, 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The 14 players of a 10,000-decision scale record who play alone or in one cell per session (500 decisions
// each, 616 cells), at B = 60,000: several seconds of bootstrap and permutations on any machine (B = 20,000
// once took more, but came to answer in 2.1 s on a quiet machine, inside the client's timeout below, where
// the test shows nothing).
const PLAYERS = Array.from({ length: 14 }, (_, p) => `scale-model-${String(p).padStart(2, "0")}`);
const LONG = { bootstrap: 60_000, players: PLAYERS };
const DECISIONS = 14 * 500;
/** Shorter than the analysis: only resetting on progress keeps the call alive. */
const CLIENT_TIMEOUT_MS = 2_500;

describe.runIf(process.platform === "linux")("a long analysis over stdio: progress and cancellation", () => {
  let served: ServedScaleRecord;
  let client: Client;
  let pid: number;

  beforeAll(async () => {
    served = await serveScaleRecord("progress-test");
    ({ client, pid } = served);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("robustness");
  }, 60_000);

  afterAll(() => served?.close());

  it("sends progress at least every 2 s, and a client resetting its 2.5 s timeout on progress gets the answer", async () => {
    const heard: { at: number; progress: number; total?: number; message?: string }[] = [];
    const started = performance.now();
    const result = await client.callTool(
      { name: "robustness", arguments: LONG },
      {
        timeout: CLIENT_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onprogress: (p) => heard.push({ at: performance.now(), ...p }),
      },
    );
    const ended = performance.now();
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { decisions: number }).decisions).toBe(DECISIONS);
    const seconds = (ended - started) / 1000;
    // Long enough to mean something: the client's own timeout alone would have failed it.
    expect(seconds * 1000).toBeGreaterThan(CLIENT_TIMEOUT_MS);
    // From the call to the last notification (the analysis' life; what follows is the answer being sent,
    // parsed and validated against the schema by this client).
    const instants = [started, ...heard.map((h) => h.at)];
    const gaps = instants.slice(1).map((t, i) => t - (instants[i] as number));
    expect(ended - (instants.at(-1) as number)).toBeLessThan(CLIENT_TIMEOUT_MS);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(2_000);
    expect(heard.length).toBeGreaterThanOrEqual(Math.floor(seconds / 2));
    for (let i = 1; i < heard.length; i++) {
      expect(heard[i]?.progress).toBeGreaterThan(heard[i - 1]?.progress as number);
    }
    for (const h of heard) expect(h.total).toBeGreaterThanOrEqual(h.progress + 1);
    expect(
      heard.some((h) => /robustness: bootstrap \(60,000 replicates\): cell \d+ of 616/.test(h.message ?? "")),
    ).toBe(true);
  }, 180_000);

  it("stops a cancelled analysis within 1 s (the server's CPU falls to idle) and answers the next call", async () => {
    const controller = new AbortController();
    // More replicates than the call before: this call runs on the worker that call warmed (its permutation
    // thread up), where a shorter analysis could end within the second waited before cancelling.
    const pending = client.callTool(
      { name: "robustness", arguments: { ...LONG, seed: 2, bootstrap: 100_000 } },
      { signal: controller.signal, timeout: 120_000 },
    );
    pending.catch(() => {});
    const before = cpuSeconds(pid);
    await sleep(1_000);
    const busy = cpuSeconds(pid) - before;
    controller.abort("the analyst changed their mind");
    const cancelledAt = performance.now();
    await expect(pending).rejects.toThrow();
    // The server's CPU time every 100 ms for 2 s after the cancellation: within 1 s it stops, and from then
    // on it is idle.
    const samples: { at: number; cpu: number }[] = [];
    for (let i = 0; i <= 20; i++) {
      samples.push({ at: performance.now() - cancelledAt, cpu: cpuSeconds(pid) });
      await sleep(100);
    }
    const last = samples.at(-1) as { cpu: number };
    const settled = samples.find((s) => s.at >= 1_000) as { at: number; cpu: number };
    const idle = last.cpu - settled.cpu;
    // When the CPU time stopped growing (less than one 10 ms tick from there to the end).
    const idleFrom = samples.find((s) => last.cpu - s.cpu < 0.015)?.at ?? Number.POSITIVE_INFINITY;
    process.stderr.write(
      `cancel over stdio: ${busy.toFixed(2)} s of server CPU in the analysis' first second; idle from ${idleFrom.toFixed(0)} ms after the cancellation (${(idle * 1000).toFixed(0)} ms of CPU from 1 s to 2 s)\n`,
    );
    // Busy while it ran (a niced worker on a loaded machine gets less than a core), idle after.
    expect(busy).toBeGreaterThan(0.1);
    expect(idle).toBeLessThan(0.05);

    const next = await client.callTool({
      name: "robustness",
      arguments: { bootstrap: 200, players: PLAYERS },
    });
    expect(next.isError).toBeFalsy();
    expect((next.structuredContent as { decisions: number }).decisions).toBe(DECISIONS);
  }, 120_000);
});
