// The entry of the `analyze` bundle (dist/bundle/analyze/analyze.js, built by scripts/build-bundles.mjs): the CLI with
// this one verb, every module it needs in one file. The bin (main.ts) starts it for `same-game analyze`.
import { analyzeCommand } from "../analyze.js";
import { runCli } from "../run-cli.js";
import { VERB_SUMMARIES } from "../verb-summaries.js";

runCli([{ name: "analyze", summary: VERB_SUMMARIES.analyze, load: async () => analyzeCommand }]);
