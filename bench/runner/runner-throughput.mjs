// The issue-11 benchmark: a 320-trial one-shot study played by `same-game run` (in process, spawning
// `same-game serve` over stdio) at concurrency 32 against a scripted endpoint that answers in 200 ms.
// Ideal: 320 / 32 × 0.2 s = 2 s; goal ≤ 1.3×. Beside it, the anchor run in the same session: the same
// 320 calls through the same client library and endpoint, 32 at a time, with no MCP and no record —
// so the ratio runner / anchor is the cost of the runner itself. Run: npm run bench:runner
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import OpenAI from "openai";
import { loadCatalog } from "../../dist/domain/catalog.js";
import { registerStudy } from "../../dist/play/studies.js";
import { openAiEndpoint } from "../../dist/runner/openai-endpoint.js";
import { DEFAULT_RETRY } from "../../dist/runner/retry.js";
import { runStudy } from "../../dist/runner/run-study.js";
import { ServerConnection } from "../../dist/runner/server-connection.js";
import { styleNamed } from "../../dist/runner/styles.js";
import { Store } from "../../dist/store/store.js";

const DELAY_MS = 200;
const TRIALS = 320;
const CONCURRENCY = 32;
const IDEAL_S = (TRIALS / CONCURRENCY) * (DELAY_MS / 1000);

const dir = mkdtempSync(join(tmpdir(), "same-game-bench-runner-"));
const endpointProcess = spawn(
  process.execPath,
  [join(import.meta.dirname, "endpoint-process.mjs"), String(DELAY_MS)],
  {
    stdio: ["pipe", "pipe", "inherit"],
  },
);
const origin = await new Promise((resolve) =>
  createInterface({ input: endpointProcess.stdout }).once("line", resolve),
);
const baseURL = `${origin}/v1`;

function freshStudy(name) {
  const dbPath = join(dir, `${name}.db`);
  const store = new Store(dbPath);
  const { study_id } = registerStudy(
    { store, catalog: loadCatalog() },
    {
      name,
      games: ["prisoners-dilemma", "snowdrift", "stag-hunt", "harmony"],
      framings: ["business", "friend-sharing"],
      trials_per_cell: TRIALS / 8,
      seed: 1,
    },
  );
  store.close();
  return { dbPath, studyId: study_id };
}

/** The anchor: 320 chat completions, 32 workers, through the official client, nothing else. */
async function anchor() {
  const client = new OpenAI({ apiKey: "no-key", baseURL, maxRetries: 0 });
  const prompt = "Answer with exactly one of: Cooperate or Defect.";
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < TRIALS) {
        await client.chat.completions.create({
          model: "scripted/payoff-reader",
          messages: [{ role: "user", content: prompt }],
          max_tokens: 64,
        });
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/** The server spawn and MCP handshake alone (paid once per run, before the first trial). */
async function connectOnly(dbPath) {
  const started = performance.now();
  const connection = await ServerConnection.open({ kind: "stdio", dbPath }, "bench-connect");
  await connection.modelTools();
  const seconds = (performance.now() - started) / 1000;
  await connection.close();
  return seconds;
}

async function runner(mode) {
  const { dbPath, studyId } = freshStudy(`runner-${mode}`);
  const connect = await connectOnly(dbPath);
  let firstTrialAt = null;
  const started = performance.now();
  const summary = await runStudy({
    studyId,
    target: { kind: "stdio", dbPath },
    seat: {
      endpoint: openAiEndpoint({
        model: "scripted/payoff-reader",
        baseURL,
        apiKey: "no-key",
        decoding: { max_tokens: 64 },
      }),
      player: `bench-${mode}`,
      mode,
      style: styleNamed("zero-shot"),
      samples: 1,
    },
    concurrency: CONCURRENCY,
    timeoutMs: 30_000,
    retry: DEFAULT_RETRY,
    onProgress: (_stats, total) => {
      if (firstTrialAt === null && total.trialsPerPlayer !== null) firstTrialAt = performance.now();
    },
  });
  const total = (performance.now() - started) / 1000;
  const setup = ((firstTrialAt ?? started) - started) / 1000;
  if (summary.stats.trials !== TRIALS) throw new Error(`played ${summary.stats.trials} of ${TRIALS} trials`);
  const store = new Store(dbPath);
  const latency = store.db.prepare("SELECT avg(latency_ms) AS avg FROM model_calls").get().avg / 1000;
  store.close();
  return { mode, total, setup, trials: total - setup, connect, latency, calls: summary.stats.modelCalls };
}

try {
  const anchorSeconds = await anchor();
  const results = [];
  for (const mode of ["tools", "text"]) results.push(await runner(mode));
  const lines = [
    `ideal ${IDEAL_S.toFixed(2)} s (${TRIALS} trials / ${CONCURRENCY} × ${DELAY_MS} ms); anchor (SDK + endpoint only) ${anchorSeconds.toFixed(2)} s = ${(anchorSeconds / IDEAL_S).toFixed(2)}× ideal`,
  ];
  for (const r of results) {
    lines.push(
      `runner ${r.mode}: ${r.total.toFixed(2)} s = ${(r.total / IDEAL_S).toFixed(2)}× ideal, ${(r.total / anchorSeconds).toFixed(2)}× anchor` +
        ` | spawn+handshake ${r.setup.toFixed(2)} s (alone: ${r.connect.toFixed(2)} s), trials ${r.trials.toFixed(2)} s = ${(r.trials / IDEAL_S).toFixed(2)}× ideal, ${(r.trials / anchorSeconds).toFixed(2)}× anchor` +
        ` | mean model call ${(r.latency * 1000).toFixed(0)} ms over ${r.calls} calls`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  endpointProcess.stdin.end();
  rmSync(dir, { recursive: true, force: true });
}
