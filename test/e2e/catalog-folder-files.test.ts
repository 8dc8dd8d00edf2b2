import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { INSPECTION } from "../support/inspection-game.js";

// A --catalog folder is read as the user's own files, never through them: a FIFO must not block a verb, a
// symlink must not lead out of the folder (nor echo what it found there), and every refusal names the path.

let dir: string;
let catalog: string;
beforeAll(() => requireBuiltCli());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-catalog-files-"));
  catalog = join(dir, "my-games");
  mkdirSync(catalog);
  writeFileSync(join(catalog, "inspection.json"), JSON.stringify(INSPECTION));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const load = () => loadCatalog(packageRoot(), catalog);

describe("--catalog DIR reads only regular files inside the folder", () => {
  it("refuses a FIFO named x.json at once, naming it, on every verb instead of hanging", () => {
    const fifo = join(catalog, "x.json");
    execFileSync("mkfifo", [fifo]);
    // In a child process first: a reader that blocks on the FIFO fails here instead of hanging the tests.
    const t0 = performance.now();
    const run = runCli(["analyze", "equilibria", "--game", "inspection", "--catalog", catalog]);
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `same-game: ${fifo} is a FIFO (named pipe), not a regular file; a catalog holds JSON files only.\n`,
    );
    expect(load).toThrow(
      `${fifo} is a FIFO (named pipe), not a regular file; a catalog holds JSON files only.`,
    );
  });

  it("refuses a symlink out of the folder without reading (or echoing) its target", () => {
    writeFileSync(join(dir, "secret.txt"), "root:x:0:0:root:/root:/bin/bash\n");
    const link = join(catalog, "x.json");
    symlinkSync(join(dir, "secret.txt"), link);
    expect(load).toThrow(
      `${link} is a symbolic link out of the catalog folder; only files inside the folder are read`,
    );
    const run = runCli(["analyze", "equilibria", "--game", "inspection", "--catalog", catalog]);
    expect(run.status).toBe(2);
    expect(run.stderr).not.toMatch(/root:/);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    // The same for a link to the password file itself, and for a dangling link.
    rmSync(link);
    symlinkSync("/etc/passwd", link);
    expect(load).toThrow(/x\.json is a symbolic link out of the catalog folder/);
    rmSync(link);
    symlinkSync(join(dir, "nowhere.json"), link);
    expect(load).toThrow(/x\.json is a symbolic link out of the catalog folder/);
  });

  it("names the path of a folder (or a link to one) that ends in .json, and of a games/ that is no folder", () => {
    const linked = join(catalog, "x.json");
    mkdirSync(join(catalog, "sub"));
    symlinkSync(join(catalog, "sub"), linked);
    expect(load).toThrow(`${linked} is a folder, not a regular file; a catalog holds JSON files only.`);
    rmSync(linked);
    mkdirSync(linked);
    expect(load).toThrow(`${linked} is a folder, not a regular file`);
    rmSync(linked, { recursive: true });
    writeFileSync(join(catalog, "games"), "not a folder");
    expect(load).toThrow(`${join(catalog, "games")} is a file, not a folder of the catalog`);
  });

  it("still reads a symlink to a file inside the folder", () => {
    rmSync(join(catalog, "inspection.json"));
    mkdirSync(join(catalog, "originals"));
    writeFileSync(join(catalog, "originals", "inspection.txt"), JSON.stringify(INSPECTION));
    symlinkSync(join(catalog, "originals", "inspection.txt"), join(catalog, "inspection.json"));
    expect(load().game("inspection").actions).toEqual(["audit", "skip"]);
  });
});
