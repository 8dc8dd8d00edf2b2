import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { isSupportedNode, MINIMUM_NODE, nodeVersionProblem } from "../../src/cli/node-version-guard.js";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli } from "../support/built-cli.js";

// What the built code may call is bounded by the Node.js the bin accepts (MINIMUM_NODE). Each entry is an
// API added after Node 20.0 with the release that added it; none may appear in what runs under Node: dist/
// and the bundles (their dependencies included), not dist/app, the dashboard that runs in the host's
// browser. test/e2e/minimum-node.test.ts runs the verbs on that release itself when it is fetched; this
// scan needs no download, so a newer API is caught wherever the suite runs.
const NEWER_APIS: readonly { readonly pattern: RegExp; readonly api: string; readonly since: string }[] = [
  { pattern: /\bimport\.meta\.(dirname|filename)\b/, api: "import.meta.dirname/filename", since: "20.11.0" },
  { pattern: /\bPromise\.withResolvers\b/, api: "Promise.withResolvers", since: "22.0.0" },
  { pattern: /\b(Object|Map)\.groupBy\b/, api: "Object.groupBy / Map.groupBy", since: "21.0.0" },
  { pattern: /\bArray\.fromAsync\b/, api: "Array.fromAsync", since: "22.0.0" },
  { pattern: /\bIterator\.from\b/, api: "Iterator helpers", since: "22.0.0" },
  {
    pattern: /\.(isSubsetOf|isSupersetOf|isDisjointFrom|symmetricDifference)\(/,
    api: "Set methods",
    since: "22.0.0",
  },
  { pattern: /\bgetBuiltinModule\b/, api: "process.getBuiltinModule", since: "20.16.0" },
  { pattern: /\bstyleText\b/, api: "util.styleText", since: "20.12.0" },
  { pattern: /\b(parseEnv|loadEnvFile)\b/, api: "util.parseEnv / process.loadEnvFile", since: "20.12.0" },
  { pattern: /\bAbortSignal\.any\b/, api: "AbortSignal.any", since: "20.3.0" },
  { pattern: /\baddAbortListener\b/, api: "events.addAbortListener", since: "20.5.0" },
  { pattern: /\bglobSync\b|\bpromises\.glob\b/, api: "fs.glob / fs.globSync", since: "22.0.0" },
  { pattern: /\breaddir(Sync)?\([^)]*\brecursive\b/, api: "fs.readdir's recursive option", since: "20.1.0" },
  { pattern: /\bimport\.meta\.resolve\b/, api: "import.meta.resolve", since: "20.6.0" },
  { pattern: /\bSymbol\.(asyncDispose|dispose)\b/, api: "Symbol.dispose", since: "20.4.0" },
  { pattern: /\bURL\.parse\(/, api: "URL.parse", since: "22.1.0" },
  { pattern: /\bnew WebSocket\(/, api: "the global WebSocket", since: "22.0.0" },
  { pattern: /["']node:sqlite["']/, api: "node:sqlite", since: "22.5.0" },
  { pattern: /\bgetCallSites?\b/, api: "util.getCallSite", since: "22.9.0" },
  { pattern: /\benableCompileCache\b/, api: "module.enableCompileCache", since: "22.1.0" },
  { pattern: /\bfindPackageJSON\b/, api: "module.findPackageJSON", since: "23.2.0" },
  { pattern: /\bpostMessageToThread\b/, api: "worker_threads.postMessageToThread", since: "22.5.0" },
  { pattern: /\bFloat16Array\b/, api: "Float16Array", since: "24.0.0" },
  { pattern: /\bRegExp\.escape\b/, api: "RegExp.escape", since: "24.0.0" },
  { pattern: /\bError\.isError\b/, api: "Error.isError", since: "24.0.0" },
  { pattern: /^\s*(await\s+)?using\s+[A-Za-z_$][\w$]*\s*=/m, api: "using declarations", since: "24.0.0" },
];

function builtFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js") && !file.startsWith("app/") && !file.startsWith("app\\"))
    .map((file) => join(folder, file));
}

describe("the Node.js floor", () => {
  it("admits the minimum and everything after it, and nothing before it", () => {
    expect(MINIMUM_NODE).toBe("20.0.0");
    for (const version of ["20.0.0", "v20.0.0", "20.5.1", "20.20.2", "21.7.3", "22.12.0", "100.0.0"]) {
      expect({ version, supported: isSupportedNode(version) }).toEqual({ version, supported: true });
    }
    for (const version of ["19.9.0", "18.20.4", "16.20.2", "12.22.12", "v0.10.48"]) {
      expect({ version, supported: isSupportedNode(version) }).toEqual({ version, supported: false });
    }
    expect(nodeVersionProblem("20.0.0", "/usr/bin/node")).toBeNull();
    expect(nodeVersionProblem("18.20.4", "/usr/bin/node")).toBe(
      "needs Node.js 20.0.0 or later, and this is Node.js 18.20.4 (/usr/bin/node): install Node.js 20 or later (https://nodejs.org) and run same-game with it.",
    );
  });

  it("holds every API the built code calls (dist/ and its bundles)", () => {
    requireBuiltCli();
    const dist = join(packageRoot(), "dist");
    for (const { api, since } of NEWER_APIS)
      expect({ api, newer: since !== MINIMUM_NODE }).toEqual({ api, newer: true });
    const found: string[] = [];
    for (const file of builtFiles(dist)) {
      const text = readFileSync(file, "utf8");
      for (const { pattern, api, since } of NEWER_APIS) {
        if (pattern.test(text)) found.push(`${relative(dist, file)}: ${api} (Node.js ${since})`);
      }
    }
    expect(found).toEqual([]);
  });
});
