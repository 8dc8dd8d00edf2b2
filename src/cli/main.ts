#!/usr/bin/env node
// The bin. A process starts at the speed of the files it reads: `serve`, `import` and `analyze` (what a host
// starts per conversation and what a script runs per analysis) run from a bundle, one ES-module file with
// every module they need (built by scripts/build-bundles.mjs), instead of some 230 modules read one by one.
// Every other verb runs the unbundled CLI. This file imports nothing else of ours (but node-version-guard.ts
// and run-signals.ts, which import nothing), so a process holds one copy of the code, never a bundle's and
// dist/'s side by side.
//
// Like the guard, this file is written in the JavaScript of old Node releases (no top-level await, no `??`):
// an unsupported Node must get as far as the guard's one line, exit 2.
import { nodeVersionProblem } from "./node-version-guard.js";

/** The verbs with a bundle: src/cli/bundles/VERB.ts, built to dist/bundle/VERB/VERB.js. */
const BUNDLED_VERBS = ["serve", "import", "analyze"] as const;

const problem = nodeVersionProblem(process.versions.node, process.execPath);
if (problem !== null) {
  process.stderr.write(`same-game: ${problem}\n`);
  process.exitCode = 2;
} else {
  const verb = process.argv[2];
  const bundled = BUNDLED_VERBS.find((name) => name === verb);
  const target = bundled === undefined ? "./unbundled.js" : `../bundle/${bundled}/${bundled}.js`;
  // A signal while the run's code loads ends with a line saying nothing was recorded, not silently.
  const ready =
    verb === "run"
      ? import("./run-signals.js").then((signals) => signals.stopOnSignalBeforeRun())
      : Promise.resolve();
  // A module that fails to load is a rejection nobody awaits: Node prints it and exits 1, as it did
  // when this file awaited the import at its top level.
  void ready.then(() => import(target));
}
