#!/usr/bin/env node
// The bin. A process starts at the speed of the files it reads: `serve`, `import` and `analyze` (what a host
// starts per conversation and what a script runs per analysis) run from a bundle, one ES-module file with
// every module they need (built by scripts/build-bundles.mjs), instead of some 230 modules read one by one.
// Every other verb runs the unbundled CLI. This file imports nothing else of ours (but run-signals.ts, which
// imports nothing), so a process holds one copy of the code, never a bundle's and dist/'s side by side.

/** The verbs with a bundle: src/cli/bundles/VERB.ts, built to dist/bundle/VERB/VERB.js. */
const BUNDLED_VERBS = ["serve", "import", "analyze"] as const;

const verb = process.argv[2];
const bundled = BUNDLED_VERBS.find((name) => name === verb);
// A signal while the run's code loads ends with a line saying nothing was recorded, not silently.
if (verb === "run") (await import("./run-signals.js")).stopOnSignalBeforeRun();
await import(bundled === undefined ? "./unbundled.js" : `../bundle/${bundled}/${bundled}.js`);
