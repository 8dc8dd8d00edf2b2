import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { userCacheFolder, userDataFolder, xdgCacheFolder } from "../../src/user-folders.js";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

// The XDG Base Directory spec: a variable set to an empty or a relative path is ignored, as if unset. The
// default record, the certification cache and the response cache all read the variables so.

const linux = process.platform === "linux";

describe.runIf(linux)("the user's folders from XDG_DATA_HOME and XDG_CACHE_HOME", () => {
  it("take an absolute value and ignore an empty or relative one", () => {
    expect(userDataFolder({ XDG_DATA_HOME: "/srv/data" })).toBe("/srv/data");
    expect(userDataFolder({ XDG_DATA_HOME: "" })).toBe(join(homedir(), ".local", "share"));
    expect(userDataFolder({ XDG_DATA_HOME: "data" })).toBe(join(homedir(), ".local", "share"));
    expect(userDataFolder({})).toBe(join(homedir(), ".local", "share"));
    expect(userCacheFolder({ XDG_CACHE_HOME: "/srv/cache" })).toBe("/srv/cache");
    expect(userCacheFolder({ XDG_CACHE_HOME: "" })).toBe(join(homedir(), ".cache"));
    expect(xdgCacheFolder({ XDG_CACHE_HOME: "./cache" })).toBe(join(homedir(), ".cache"));
  });
});

describe.runIf(linux)("the CLI with XDG variables empty or relative", () => {
  let dir = "";
  let home = "";
  let cwd = "";
  beforeAll(requireBuiltCli);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "same-game-xdg-"));
    home = join(dir, "home");
    cwd = join(dir, "cwd");
    mkdirSync(home);
    mkdirSync(cwd);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The built CLI run in `cwd`, with HOME the temp home and no variable naming a folder but `env`'s. */
  const run = (args: string[], env: Record<string, string>) => {
    const base = { ...process.env };
    for (const name of ["SAME_GAME_DB", "SAME_GAME_CACHE_DIR", "SAME_GAME_CERT_CACHE"]) delete base[name];
    const done = spawnSync(process.execPath, [CLI, ...args], {
      cwd,
      encoding: "utf8",
      env: { ...base, HOME: home, ...env },
      timeout: 60_000,
    });
    return { status: done.status, stdout: done.stdout, stderr: done.stderr };
  };

  it("an empty XDG_DATA_HOME leaves the default record in ~/.local/share, not the current folder", () => {
    for (const value of ["", "relative/data"]) {
      const analyzed = run(["analyze", "robustness"], { XDG_DATA_HOME: value });
      expect(analyzed.status).toBe(2);
      expect(analyzed.stderr).toContain(
        `No record at ${join(home, ".local", "share", "same-game", "same-game.db")};`,
      );
    }
    writeFileSync(
      join(cwd, "design.json"),
      JSON.stringify({ name: "x", games: ["harmony"], framings: ["business"], trials_per_cell: 1, seed: 1 }),
    );
    const registered = run(["study", "register", "design.json"], { XDG_DATA_HOME: "", XDG_CACHE_HOME: "" });
    expect(registered.status, registered.stderr).toBe(0);
    expect(existsSync(join(home, ".local", "share", "same-game", "same-game.db"))).toBe(true);
    // The certification cache went to ~/.cache too: the current folder holds only the design.
    expect(readdirSync(join(home, ".cache", "same-game"))).toEqual(["certified"]);
    expect(readdirSync(cwd)).toEqual(["design.json"]);
  });

  it("an empty SAME_GAME_DB is unset: the default record, not one named by the current folder", () => {
    const analyzed = run(["analyze", "robustness"], { SAME_GAME_DB: "" });
    expect(analyzed.status).toBe(2);
    expect(analyzed.stderr).toContain(
      `No record at ${join(home, ".local", "share", "same-game", "same-game.db")};`,
    );
  });

  it("a relative XDG_CACHE_HOME leaves the response cache in ~/.cache, $SAME_GAME_CACHE_DIR before it", () => {
    const listed = run(["cache", "list"], { XDG_CACHE_HOME: "rel" });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${join(home, ".cache", "same-game", "responses")}: 0 cached replies`);
    const absolute = run(["cache", "list"], { XDG_CACHE_HOME: join(dir, "xdg") });
    expect(absolute.stdout).toContain(`${join(dir, "xdg", "same-game", "responses")}: 0 cached replies`);
    const named = run(["cache", "list"], {
      XDG_CACHE_HOME: join(dir, "xdg"),
      SAME_GAME_CACHE_DIR: join(dir, "own"),
    });
    expect(named.stdout).toContain(`${join(dir, "own")}: 0 cached replies`);
  });
});
