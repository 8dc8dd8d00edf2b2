import { createRequire } from "node:module";
import { dirname, sep } from "node:path";

// The SQLite driver, better-sqlite3, is a compiled module (a .node file) built for one Node.js ABI when it
// is installed; it loads at the first record opened. When it cannot load, the record is not at fault: the
// install is. The two usual causes, each with its fix, instead of "Cannot open the record" and the driver's
// multi-line message:
// - built for another Node.js: the Node.js was switched (nvm, a system upgrade) after `npm ci`/`install`;
// - never built: its install script did not run (`--ignore-scripts`, or an npm that runs a dependency's
//   install script only when allowed — npm 12 and later — while our own `allowScripts` covers only
//   installs of this package's folder, not of a folder that installs it).

/** The folder better-sqlite3 is installed in, and the one to run `npm rebuild` in (its node_modules' parent). */
function driverFolders(): { driver: string; root: string } | null {
  try {
    const driver = dirname(dirname(createRequire(import.meta.url).resolve("better-sqlite3")));
    const at = driver.lastIndexOf(`${sep}node_modules${sep}`);
    return { driver, root: at > 0 ? driver.slice(0, at) : driver };
  } catch {
    return null;
  }
}

/**
 * One line saying why the SQLite driver could not load and how to repair the install, or null when
 * `error` is not a failure to load it (a bad file, a locked record: the caller's own message).
 */
export function sqliteDriverProblem(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const message = error.message;
  const code = (error as NodeJS.ErrnoException).code;
  const abi = /using\s+NODE_MODULE_VERSION (\d+)[\s\S]*requires\s+NODE_MODULE_VERSION (\d+)/.exec(message);
  const missing = message.startsWith("Could not locate the bindings file");
  if (abi === null && !missing && code !== "ERR_DLOPEN_FAILED") return null;
  const folders = driverFolders();
  const where = folders === null ? "" : ` in ${folders.driver}`;
  const rebuild = `npm rebuild better-sqlite3\`${folders === null ? "" : ` in ${folders.root}`}`;
  const node = `Node.js ${process.versions.node}`;
  if (abi !== null) {
    return (
      `The SQLite driver (better-sqlite3)${where} was built for another Node.js (NODE_MODULE_VERSION ${abi[1]}) ` +
      `than this ${node} (NODE_MODULE_VERSION ${abi[2]}): run \`${rebuild} with this Node.js, or run same-game ` +
      "with the Node.js it was installed with."
    );
  }
  if (missing) {
    return (
      `The SQLite driver (better-sqlite3)${where} was never compiled: its install script did not run ` +
      "(npm --ignore-scripts, or an npm that runs a dependency's install script only when allowed). " +
      `Run \`${rebuild} (where npm asks, after \`npm install-scripts approve better-sqlite3\` there), ` +
      "or install again allowing it: npm install -g --allow-scripts=better-sqlite3 <the same-game tarball>."
    );
  }
  const first = message.split("\n")[0] ?? message;
  return `The SQLite driver (better-sqlite3)${where} cannot be loaded by this ${node} (${first}): run \`${rebuild} with this Node.js.`;
}
