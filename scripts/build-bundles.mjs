// Bundles the verbs a process starts most often (src/cli/bundles/VERB.ts: serve, import, analyze) with
// esbuild into dist/bundle/VERB/: VERB.js holds every module the verb needs at start, so a start reads one or
// two files instead of some 230 modules (zod alone is 97), which is most of a cold start. What a verb loads
// only on demand (the report renderer with vega, behind `serve`'s study-report resource; each analysis of
// `analyze`) stays on demand, in a chunk of its own beside it. The bin (dist/cli/main.js) runs them.
//
// - Native and driver packages stay outside (better-sqlite3's .node binding, pg), loaded from node_modules.
//   So does the optional canvas package, which vega only tries.
// - `serve` also gets its analysis worker beside it: the pool starts `./analysis-worker.js` relative to its
//   own module, which inside the bundle is dist/bundle/serve/. Both `serve` and `analyze` get the
//   permutation worker (`./permutation-worker.js`, the robustness analysis' second core) the same way;
//   without it there, the analysis would quietly stay on one thread.
// - Not minified: a stack trace in a bug report reads like the source.
// - zod's error messages in other languages are left out (englishOnlyZod), and the certification cache's
//   code key is computed here from the sources (certifierCode): both are start-up time, not behaviour.
// - The build fails if a bundle would load a file of ours from outside its folder, or a package other than
//   those, at run time: a bundle is self-contained, so a process never holds two copies of a module.
import { readdirSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { moduleFolderHash } from "../dist/domain/certification-cache.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// vega-canvas tries `import("canvas")` and renders without it when it is absent (it is not a dependency).
const EXTERNAL = ["better-sqlite3", "pg", "canvas"];
const PERMUTATION_WORKER = "src/analysis/invariance/permutation-worker.ts";
const WORKERS = {
  serve: ["src/mcp/analysis-pool/analysis-worker.ts", PERMUTATION_WORKER],
  analyze: [PERMUTATION_WORKER],
};

/**
 * `import { z } from "zod"` is a namespace that carries zod's error messages in some fifty languages
 * (`z.locales`, 358 KiB of the 734 KiB zod adds), which a bundler cannot leave out because the namespace
 * is reached by property. Nothing here (nor in the MCP SDK) switches language: the bundles keep English,
 * zod's default, and save the ~20 ms a process spends compiling the rest at every start.
 */
const englishOnlyZod = {
  name: "english-only-zod",
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * What certification-cache.ts hashes as the certifier's code when unbundled (every module directly in its
 * folder), taken from the sources: inside a bundle that folder would be the bundle's, megabytes to hash.
 * The same function as at run time, from the tsc output this build has just written.
 */
function certifierCode() {
  return moduleFolderHash(join(root, "src", "domain"));
}

const verbs = readdirSync(join(root, "src", "cli", "bundles"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -".ts".length));

for (const verb of verbs) {
  const entryPoints = [`src/cli/bundles/${verb}.ts`, ...(WORKERS[verb] ?? [])].map((entry) => ({
    in: join(root, entry),
    out: entry.split("/").at(-1).replace(/\.ts$/, ""),
  }));
  const outdir = join(root, "dist", "bundle", verb);
  rmSync(outdir, { recursive: true, force: true }); // no chunk of an earlier build stays behind
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: "chunk-[hash]",
    format: "esm",
    platform: "node",
    target: "node20",
    external: EXTERNAL,
    // A CommonJS dependency inside an ES-module bundle may still call require() (seedrandom asks for crypto).
    banner: {
      js: 'import { createRequire as __bundleRequire } from "node:module";\nconst require = __bundleRequire(import.meta.url);',
    },
    legalComments: "inline",
    define: { SAME_GAME_CERTIFIER_CODE: JSON.stringify(`bundled sources ${certifierCode()}`) },
    plugins: [englishOnlyZod],
    metafile: true,
    logLevel: "warning",
  });
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    const stray = output.imports.filter(
      (i) => !builtins.has(i.path) && !EXTERNAL.includes(i.path) && !(i.path in result.metafile.outputs),
    );
    if (stray.length > 0)
      throw new Error(`${file} would load ${stray.map((i) => i.path).join(", ")} at run time`);
  }
  const size = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
  process.stderr.write(`bundle: dist/bundle/${verb}/ (${(size / 1024).toFixed(0)} KiB)\n`);
}
