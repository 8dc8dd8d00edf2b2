import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { firstInvalidUtf8Byte } from "../../src/domain/catalog-files.js";
import { packageRoot } from "../../src/package-root.js";
import { runCli } from "../support/built-cli.js";
import { INSPECTION } from "../support/inspection-game.js";

// A user's catalog with a mistake is refused when it loads, in one sentence that names the file and what
// is wrong in it: never accepted and used for nothing, never decoded into other characters.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-catalog-refusals-"));
  mkdirSync(join(dir, "framings"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const load = () => loadCatalog(packageRoot(), dir);
const writeJson = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value));

/** A framing of the inspection game's two actions, restricted to the games given (if any). */
function inspectionFraming(id: string, appliesTo: Record<string, unknown>) {
  return {
    id,
    applies_to: { actions: ["audit", "skip"], label_set: "familiar", play: "one-shot", ...appliesTo },
    labels: { audit: "Open the books", skip: "Wave it through" },
    parties: { self: ["you"], other: ["the firm"] },
    units: { one: "{n} point", other: "{n} points" },
    story: ["You inspect a firm's accounts; the firm decides at the same time whether to comply."],
    payoffs: {
      intro: "What each side gets:",
      sentence:
        "If you {own_label} and the firm chooses {other_label}, you get {own_amount} and the firm gets {other_amount}.",
    },
    question: "What do you do?",
  };
}

describe("a user catalog refused at load", () => {
  it("refuses a file that is not UTF-8, naming the file and the byte offset", () => {
    // "Inspection" with an é written in Latin-1 (0xe9) at byte 10 of the title.
    const text = Buffer.from(JSON.stringify({ ...INSPECTION, title: "Inspection é" }), "utf8");
    const at = text.indexOf(Buffer.from("é", "utf8"));
    const latin1 = Buffer.concat([text.subarray(0, at), Buffer.from([0xe9]), text.subarray(at + 2)]);
    writeFileSync(join(dir, "inspection.json"), latin1);
    const file = join(dir, "inspection.json");
    expect(load).toThrow(`${file} is not UTF-8 text (byte offset ${at}: 0xe9); save it as UTF-8.`);
    const run = runCli(["analyze", "equilibria", "--game", "inspection", "--catalog", dir]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `same-game: ${file} is not UTF-8 text (byte offset ${at}: 0xe9); save it as UTF-8.\n`,
    );
  });

  it("finds the first ill-formed UTF-8 sequence, by its lead byte", () => {
    expect(firstInvalidUtf8Byte(Buffer.from("plain, é, 漢, 😀", "utf8"))).toBeNull();
    expect(firstInvalidUtf8Byte(Uint8Array.from([0x61, 0xc3]))).toBe(1); // cut short
    expect(firstInvalidUtf8Byte(Uint8Array.from([0x61, 0x62, 0xc0, 0xaf]))).toBe(2); // overlong "/"
    expect(firstInvalidUtf8Byte(Uint8Array.from([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
    expect(firstInvalidUtf8Byte(Uint8Array.from([0x41, 0x80]))).toBe(1); // a lone continuation byte
  });

  it("refuses a framing whose applies_to.games names a game the catalog lacks", () => {
    writeJson("inspection.json", INSPECTION);
    writeJson("framings/ghost.json", inspectionFraming("ghost", { games: ["no-such-game"] }));
    expect(load).toThrow(
      /^user catalog\/framings\/ghost\.json: applies_to\.games: unknown game "no-such-game"; games: battle-of-the-sexes, .*, inspection\.$/,
    );
  });

  it("refuses a framing whose action set is no game's", () => {
    writeJson("inspection.json", INSPECTION);
    const framing = inspectionFraming("ghost", {});
    writeJson("framings/ghost.json", {
      ...framing,
      applies_to: { ...framing.applies_to, actions: ["audit", "pass"] },
      labels: { audit: "Open the books", pass: "Wave it through" },
    });
    expect(load).toThrow(
      /^user catalog\/framings\/ghost\.json: applies_to\.actions: no game has the actions audit, pass; the games' action sets: \(opera, football\), .*\(audit, skip\)\.$/,
    );
  });

  it("names the rule an action id breaks, and the id", () => {
    writeJson("inspection.json", { ...INSPECTION, actions: ["a1", "skip"] });
    expect(load).toThrow(
      'user catalog/inspection.json: actions.0: expected an action id of lower-case letters a-z, words joined by single hyphens (no digits, as in "hold-out"), found "a1"',
    );
  });

  it("names a repeated action id", () => {
    writeJson("inspection.json", { ...INSPECTION, actions: ["audit", "skip", "audit"] });
    expect(load).toThrow(
      'user catalog/inspection.json: actions: expected distinct action ids, found "audit" twice',
    );
  });

  it("names both files of one game id", () => {
    writeJson("inspection.json", INSPECTION);
    mkdirSync(join(dir, "games"));
    writeJson("games/inspection.json", INSPECTION);
    expect(load).toThrow(
      'Two game files have the id "inspection": user catalog/inspection.json and user catalog/games/inspection.json; ids must be unique (rename one file and its id).',
    );
  });
});
