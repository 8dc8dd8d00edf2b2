import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCatalog } from "../domain/catalog.js";
import { packageRoot } from "../package-root.js";
import { registerStudy } from "../play/studies.js";
import { robustnessReport } from "../queries/robustness-query.js";
import { robustnessText } from "../queries/robustness-text.js";
import { startScriptedEndpoint } from "../scripted-models/scripted-endpoint.js";
import { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { openAiEndpoint } from "./openai-endpoint.js";
import { DEFAULT_RETRY } from "./retry.js";
import { runStudy } from "./run-study.js";
import { styleNamed } from "./styles.js";
import { summaryText } from "./summary.js";

/** The two scripted "models" of the demo: one plays the payoffs, one the story. */
const DEMO_MODELS = ["scripted/payoff-reader", "scripted/story-swayed"];

/**
 * `same-game demo --runner`: the runner against the built-in scripted endpoint (OpenAI-compatible HTTP on
 * loopback, no network, no key), exactly as `same-game run` drives a real model: a fresh record, a
 * registered study, each model playing every trial as a tool-using agent, then robustness.
 */
export async function runRunnerDemo(options: {
  trialsPerCell: number;
  write: (text: string) => void;
}): Promise<{ dbPath: string; studyId: string }> {
  const cliPath = join(packageRoot(), "dist", "cli", "main.js");
  if (!existsSync(cliPath))
    throw new UsageError(`The demo runs the built server ${cliPath}; run npm run build.`);
  const dbPath = join(mkdtempSync(join(tmpdir(), "same-game-runner-demo-")), "runner-demo.db");
  const store = new Store(dbPath);
  const deps = { store, catalog: loadCatalog() };
  const { study_id: studyId } = registerStudy(deps, {
    name: "runner demo: prisoner's dilemma, business vs friend-sharing",
    games: ["prisoners-dilemma"],
    framings: ["business", "friend-sharing"],
    trials_per_cell: options.trialsPerCell,
    seed: 1,
    planned_contrasts: [{ baseline: "business", comparison: "friend-sharing" }],
  });
  const endpoint = await startScriptedEndpoint({ delayMs: 20 });
  try {
    options.write(`Scripted endpoint (OpenAI-compatible) at ${endpoint.openAiBaseUrl}; record ${dbPath}.\n`);
    for (const model of DEMO_MODELS) {
      options.write(
        `\n$ same-game run --study ${studyId} --model ${model} --base-url ${endpoint.openAiBaseUrl} --concurrency 8 --db ${dbPath}\n`,
      );
      const summary = await runStudy({
        studyId,
        target: { kind: "stdio", dbPath, cliPath },
        seat: {
          endpoint: openAiEndpoint({
            model,
            baseURL: endpoint.openAiBaseUrl,
            apiKey: "no-key",
            decoding: { max_tokens: 256 },
          }),
          player: model,
          mode: "tools",
          style: styleNamed("zero-shot"),
          samples: 1,
          price: null,
        },
        concurrency: 8,
        timeoutMs: 30_000,
        retry: DEFAULT_RETRY,
        cache: null,
        budget: null,
      });
      options.write(
        `${summaryText(summary, [`same-game analyze robustness --study ${studyId} --db ${dbPath}`])}\n`,
      );
    }
  } finally {
    await endpoint.close();
  }
  const report = robustnessReport(deps, { study_id: studyId, bootstrap: 2000, seed: 1 });
  options.write(`\n${robustnessText(report)}\n`);
  store.close();
  return { dbPath, studyId };
}
