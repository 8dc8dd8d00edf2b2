// The entry of the `serve` bundle (dist/bundle/serve/serve.js, built by scripts/build-bundles.mjs): the CLI with
// this one verb, every module it needs in one file. The bin (main.ts) starts it for `same-game serve`.

import { runCli } from "../run-cli.js";
import { serveCommand } from "../serve.js";
import { VERB_SUMMARIES } from "../verb-summaries.js";

runCli([{ name: "serve", summary: VERB_SUMMARIES.serve, load: async () => serveCommand }]);
