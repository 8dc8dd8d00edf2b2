import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli } from "../support/built-cli.js";

// An install whose SQLite driver was never compiled: better-sqlite3's install script did not run, as with
// `npm install --ignore-scripts` or an npm that runs a dependency's install script only when the installing
// folder allows it (npm 12). Every verb that opens a record must say that, with the fix, in one line and
// exit 2 — not "Cannot open the record" (the record is fine), and not, in the demo, a spawned server's
// silent exit that the MCP client can only report as "Connection closed".
// The install is built here: the built package copied into a temp folder, its node_modules linking every
// installed package but better-sqlite3, which is copied without its build/ folder.

let dir: string;
let root: string;
let driver: string;

beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-driver-not-built-"));
  root = join(dir, "same-game");
  mkdirSync(root);
  const source = packageRoot();
  cpSync(join(source, "dist"), join(root, "dist"), { recursive: true });
  for (const entry of ["package.json", "db", "games", "framings", "styles", "catalogs", "data"]) {
    symlinkSync(join(source, entry), join(root, entry));
  }
  const installed = realpathSync(join(source, "node_modules"));
  const modules = join(root, "node_modules");
  mkdirSync(modules);
  for (const name of readdirSync(installed)) {
    if (name !== "better-sqlite3" && !name.startsWith("."))
      symlinkSync(join(installed, name), join(modules, name));
  }
  driver = join(modules, "better-sqlite3");
  mkdirSync(driver);
  for (const entry of ["package.json", "lib"])
    cpSync(join(installed, "better-sqlite3", entry), join(driver, entry), { recursive: true });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sameGame(args: string[]) {
  const out = spawnSync(process.execPath, [join(root, "dist", "cli", "main.js"), ...args], {
    encoding: "utf8",
    input: "",
    timeout: 120_000,
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("a same-game whose SQLite driver was never compiled", () => {
  const line = () =>
    `same-game: The SQLite driver (better-sqlite3) in ${driver} was never compiled: its install script did not run (npm --ignore-scripts, or an npm that runs a dependency's install script only when allowed). Run \`npm rebuild better-sqlite3\` in ${root} (where npm asks, after \`npm install-scripts approve better-sqlite3\` there), or install again allowing it: npm install -g --allow-scripts=better-sqlite3 <the same-game tarball>.\n`;

  it("says so, and how to build it, in one line with exit 2 (serve, import, demo)", () => {
    for (const args of [
      ["serve", "--db", join(dir, "serve.db")],
      ["import", "counts", "--reference", "lore-heydari-2024", "--db", join(dir, "import.db")],
      ["demo", "--db", join(dir, "demo.db"), "--trials", "2"],
    ]) {
      const out = sameGame(args);
      expect({ args, stderr: out.stderr }).toEqual({ args, stderr: line() });
      expect(out.status).toBe(2);
    }
  });

  it("still answers what needs no record (analyze equilibria)", () => {
    const out = sameGame(["analyze", "equilibria", "--game", "snowdrift"]);
    expect(out.stdout).toContain("1. pure: row plays cooperate, column plays defect; payoffs 3, 10");
    expect(out.status).toBe(0);
    expect(existsSync(join(driver, "build"))).toBe(false);
  });
});
