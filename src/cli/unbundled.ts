// The CLI with every verb, each loaded module by module from dist/ when it runs: what the bin
// (main.ts) starts for every verb without a bundle, and, run directly, the reference the bundles are
// tested against (`node dist/cli/unbundled.js serve` answers exactly as the bundled `serve`).
import { runCli } from "./run-cli.js";
import { VERBS } from "./verbs.js";

runCli(VERBS);
