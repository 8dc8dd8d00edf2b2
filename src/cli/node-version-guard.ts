// The oldest Node.js same-game runs on, and the one line an older one gets instead of a stack trace.
// `engines` in package.json is advisory (npm warns, npx and a host launching the bin do not), and an older
// Node fails deep inside a module it cannot link (`parseArgs` is missing from node:util before 18.3,
// `isUtf8` from node:buffer before 18.14) or at the SQLite driver, whose native module needs Node 20's ABI.
//
// The bin loads this file before anything else, so it is written in the JavaScript of old releases (no
// `??`, no `?.`, no top-level await): a Node 12 or 14 still reads it far enough to print the line.

/** The oldest release every verb was run on (test/e2e/minimum-node.test.ts); package.json's engines agree. */
export const MINIMUM_NODE = "20.0.0";

function parts(version: string): number[] {
  return version
    .replace(/^v/, "")
    .split(".")
    .map((part) => Number.parseInt(part, 10) || 0);
}

/** Whether `version` (process.versions.node, "20.5.1") is at least MINIMUM_NODE. */
export function isSupportedNode(version: string): boolean {
  const have = parts(version);
  const need = parts(MINIMUM_NODE);
  for (let i = 0; i < need.length; i++) {
    const a = have[i] || 0;
    const b = need[i] || 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** The line an unsupported Node gets (without the "same-game: " prefix), or null when it is supported. */
export function nodeVersionProblem(version: string, executable: string): string | null {
  if (isSupportedNode(version)) return null;
  return (
    `needs Node.js ${MINIMUM_NODE} or later, and this is Node.js ${version} (${executable}): ` +
    "install Node.js 20 or later (https://nodejs.org) and run same-game with it."
  );
}
