import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { CLI } from "../support/built-cli.js";
import {
  finishedMatches,
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  useRunSandbox,
} from "./runner-harness.js";

// A CI runner often has a read-only home folder, and restores records onto read-only mounts. `run` says
// so before its first paid call, in one line naming the folder or file and the way out; a cache that stops
// taking replies halfway costs a warning, never a reply that was paid for. The folders here cannot be
// written even by root: a path under a regular file (ENOTDIR), a cache folder whose every shard name is
// taken by a file, and for the record a process run as nobody.

const box = useRunSandbox("same-game-unwritable-");

describe("same-game run where it cannot write", () => {
  it("an unwritable --cache folder is refused before any call, with exit 2 and one line naming it", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("cache folder", 2, 41));
    const file = join(box.dir, "home");
    writeFileSync(file, "not a folder");
    const cacheDir = join(file, ".cache", "same-game", "responses");
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--cache"]), {
      SAME_GAME_CACHE_DIR: cacheDir,
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `same-game: The response cache folder ${cacheDir} is not writable: ${file} is a file, not a folder. Choose another with --cache DIR (or SAME_GAME_CACHE_DIR=DIR).\n`,
    );
    expect(box.endpoint.requests).toHaveLength(0);
    expect(finishedMatches(box.db)).toBe(0);
  });

  it("a reply the cache cannot keep is warned about once and still used and recorded", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("cache full", 3, 42));
    // The folder is writable, but every shard folder's name (00 … ff) is taken by a file: no entry fits.
    const cacheDir = join(box.dir, "cache");
    mkdirSync(cacheDir);
    for (let i = 0; i < 256; i++) writeFileSync(join(cacheDir, i.toString(16).padStart(2, "0")), "");
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--cache", cacheDir]));
    expect(run.status, run.stderr).toBe(0);
    const warnings = run.stderr.split("\n").filter((line) => line.includes("cannot keep replies"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^same-game run: cannot keep replies in the response cache ${cacheDir} \\(${cacheDir}/[0-9a-f]{2} is a file, not a folder\\); the run goes on, recording every reply without caching it\\.$`,
      ),
    );
    expect(run.stdout).toContain("6 of 6 done (study complete for this player)");
    // Six trials of one round: six paid replies, each recorded.
    expect(box.endpoint.requests).toHaveLength(6);
    expect(query(box.db, "SELECT count(*) AS n FROM model_calls WHERE cached_from IS NULL")).toEqual([
      { n: 6 },
    ]);
  });

  it("a record that cannot be written is refused as read-only, not as unreadable", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("read-only record", 2, 43));
    // The record restored into a folder this user cannot write (closed cleanly: no -wal beside it). Root
    // writes anywhere, so as root the CLI runs as nobody, for whom root's folder is read-only.
    const asNobody = process.getuid?.() === 0;
    const folder = join(box.dir, "restored");
    mkdirSync(folder);
    const db = join(folder, "rec.db");
    copyFileSync(box.db, db);
    chmodSync(db, 0o444);
    chmodSync(folder, 0o555);
    chmodSync(box.dir, 0o755);
    const launcher = asNobody
      ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath]
      : [process.execPath];
    const cli = (args: string[]) =>
      spawnSync(launcher[0] as string, [...launcher.slice(1), CLI, ...args], {
        encoding: "utf8",
        env: { ...process.env, HOME: "/nonexistent", OPENAI_API_KEY: "" },
        timeout: 60_000,
      });
    const run = cli(scriptedRunArgs(box, study, [], db));
    expect(run.stderr).toBe(
      `same-game: ${db} is read-only here (the file or its folder cannot be written), and run records every trial in it: copy the record somewhere writable and give that with --db.\n`,
    );
    expect(run.status).toBe(2);
    expect(box.endpoint.requests).toHaveLength(0);
    // Analyses read it where it is.
    const shown = cli(["study", "show", study, "--db", db]);
    expect(shown.stderr).toBe("");
    expect(shown.status).toBe(0);
    chmodSync(folder, 0o755);
  });
});
