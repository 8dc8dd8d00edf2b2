// The first step of `npm run build` (and so of `npm test`, `npm run demo` and `npm pack`'s prepack): the
// build needs a newer Node.js than the built package. vite, which bundles the dashboard (build-app.mjs)
// and runs the tests, requires Node ^20.19.0 || >=22.12.0 (its engines); on an older Node it fails deep
// in its own imports (node:util has no styleText before 20.12). The built package runs on Node 20.0.0
// and later (src/cli/node-version-guard.ts), so a tarball packed elsewhere installs on an older 20.
// Written in the JavaScript of old releases, so that it gets as far as its one line.

/** The Node.js lines the build runs on, each from its first release: vite's engines, ^20.19.0 || >=22.12.0. */
export const BUILD_NODE_FLOORS = [
  { major: 20, from: "20.19.0", through: 20 },
  { major: 22, from: "22.12.0", through: Number.POSITIVE_INFINITY },
];

function parts(version) {
  return version
    .replace(/^v/, "")
    .split(".")
    .map((part) => Number.parseInt(part, 10) || 0);
}

function atLeast(version, floor) {
  const have = parts(version);
  const need = parts(floor);
  for (let i = 0; i < 3; i++) {
    if ((have[i] || 0) !== (need[i] || 0)) return (have[i] || 0) > (need[i] || 0);
  }
  return true;
}

/** The line an unsupported Node gets (without the "same-game build: " prefix), or null when it builds. */
export function buildNodeProblem(version) {
  const major = parts(version)[0];
  const line = BUILD_NODE_FLOORS.find((floor) => major >= floor.major && major <= floor.through);
  if (line !== undefined && atLeast(version, line.from)) return null;
  return (
    `building same-game needs Node.js 20.19 or later on Node 20, or 22.12 or later (vite's requirement), and this is Node.js ${version}. ` +
    "The built package runs on Node.js 20.0.0 and later: pack it where the build runs (npm pack) and install the tarball here."
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problem = buildNodeProblem(process.versions.node);
  if (problem !== null) {
    process.stderr.write(`same-game build: ${problem}\n`);
    process.exit(2);
  }
}
