import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_NODE_FLOORS, buildNodeProblem } from "../../scripts/check-build-node.mjs";
import { MINIMUM_NODE_RELEASE, nodeBinary } from "../../scripts/fetch-node-binaries.mjs";
import { packageRoot } from "../../src/package-root.js";

// Building from a clone needs more than running the built package: vite (the dashboard's bundler, and
// vitest's) requires Node ^20.19.0 || >=22.12.0, while the package runs on 20.0.0. `npm run build` checks
// first and says so in one line, exit 2, instead of failing inside vite's imports.

const root = packageRoot();
const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("the Node.js the build needs", () => {
  it("is vite's requirement, checked first by npm run build", () => {
    const vite = json(join(root, "node_modules", "vite", "package.json")).engines.node as string;
    const ours = BUILD_NODE_FLOORS.map((floor, i) => (i === 0 ? `^${floor.from}` : `>=${floor.from}`)).join(
      " || ",
    );
    expect(ours).toBe(vite);
    const build = json(join(root, "package.json")).scripts.build as string;
    expect(build.startsWith("node scripts/check-build-node.mjs && ")).toBe(true);
  });

  it("admits 20.19+ and 22.12+, and refuses the rest", () => {
    for (const version of ["20.19.0", "20.20.2", "22.12.0", "23.1.0", "24.0.0"]) {
      expect({ version, problem: buildNodeProblem(version) }).toEqual({ version, problem: null });
    }
    for (const version of ["20.0.0", "20.18.1", "21.7.3", "22.11.0", "18.20.4"]) {
      expect(buildNodeProblem(version)).toBe(
        `building same-game needs Node.js 20.19 or later on Node 20, or 22.12 or later (vite's requirement), and this is Node.js ${version}. The built package runs on Node.js 20.0.0 and later: pack it where the build runs (npm pack) and install the tarball here.`,
      );
    }
  });

  const node = nodeBinary(MINIMUM_NODE_RELEASE);
  if (!existsSync(node)) {
    process.stderr.write(
      `SKIPPED (build-node-floor.test.ts): no Node.js ${MINIMUM_NODE_RELEASE} at ${node}; fetch it with \`node scripts/fetch-node-binaries.mjs\`.\n`,
    );
  }
  it.skipIf(!existsSync(node) && process.env.SAME_GAME_REQUIRE_NODE_RELEASES !== "1")(
    `stops the build on Node.js ${MINIMUM_NODE_RELEASE} in one line, exit 2`,
    () => {
      const out = spawnSync(node, [join(root, "scripts", "check-build-node.mjs")], { encoding: "utf8" });
      expect(out.stderr).toBe(`same-game build: ${buildNodeProblem(MINIMUM_NODE_RELEASE)}\n`);
      expect(out.status).toBe(2);
    },
  );
});
