import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli } from "../support/built-cli.js";

// What `npm pack` puts in the tarball, from the current build (the list only: --dry-run, and
// --ignore-scripts so prepack does not rebuild dist/). test/packaging/packed-install.test.ts installs a
// real tarball; this is the quick check of its file list.

const root = packageRoot();
let files: string[];

beforeAll(() => {
  requireBuiltCli();
  const out = execFileSync("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  files = (JSON.parse(out) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? [];
}, 120_000);

describe("the packed file list", () => {
  it("holds no source map: they point at src/, which is not shipped", () => {
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    expect(files.filter((f) => f.startsWith("src/"))).toEqual([]);
  });

  it("holds every built module, the bin's version guard among them", () => {
    const dist = join(root, "dist");
    const built = readdirSync(dist, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".js"))
      .map((f) => `dist/${f.split("\\").join("/")}`);
    expect(built).toContain("dist/cli/node-version-guard.js");
    expect(built.filter((f) => !files.includes(f))).toEqual([]);
  });

  it("holds every docs page the built code's messages and help send a user to", () => {
    const referenced = new Set<string>();
    for (const file of files.filter((f) => f.startsWith("dist/") && f.endsWith(".js"))) {
      for (const match of readFileSync(join(root, file), "utf8").matchAll(/\bdocs\/[a-z0-9-]+\.md\b/g)) {
        referenced.add(match[0]);
      }
    }
    expect(referenced.size).toBeGreaterThan(0);
    expect([...referenced].filter((doc) => !files.includes(doc))).toEqual([]);
  });
});
