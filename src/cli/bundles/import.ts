// The entry of the `import` bundle (dist/bundle/import/import.js, built by scripts/build-bundles.mjs): the CLI with
// this one verb, every module it needs in one file. The bin (main.ts) starts it for `same-game import`.
import { importCommand } from "../import.js";
import { runCli } from "../run-cli.js";
import { VERB_SUMMARIES } from "../verb-summaries.js";

runCli([{ name: "import", summary: VERB_SUMMARIES.import, load: async () => importCommand }]);
