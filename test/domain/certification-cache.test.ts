import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { packageRoot } from "../../src/package-root.js";

// A catalog that certified once is neither validated nor certified again at the next start
// (certification-cache.ts), but the cache may never let through a text it did not see certified, nor hand
// back an old reading of a file that changed: its key is every file's name and bytes.

let dir: string;
let cache: string;
const saved = process.env.SAME_GAME_CERT_CACHE;

/** A small catalog of its own: the prisoner's dilemma under the business framing (retitled: new content). */
function catalogCopy(name: string, title?: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, "games"), { recursive: true });
  mkdirSync(join(root, "framings"), { recursive: true });
  copyFileSync(
    join(packageRoot(), "games", "prisoners-dilemma.json"),
    join(root, "games", "prisoners-dilemma.json"),
  );
  copyFileSync(join(packageRoot(), "framings", "business.json"), join(root, "framings", "business.json"));
  if (title !== undefined) retitle(root, title);
  return root;
}

function retitle(root: string, title: string): void {
  const file = join(root, "games", "prisoners-dilemma.json");
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), title }));
}

/** The cache entries written since `before` (a listing of the cache folder). */
function newEntries(before: readonly string[]): string[] {
  return readdirSync(cache).filter((f) => !before.includes(f));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-cert-cache-"));
  cache = join(dir, "cache");
  process.env.SAME_GAME_CERT_CACHE = cache;
});
afterAll(() => {
  if (saved === undefined) delete process.env.SAME_GAME_CERT_CACHE;
  else process.env.SAME_GAME_CERT_CACHE = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe("the certification cache", () => {
  it("remembers a certified catalog by its content, and reports the same certified prompts from it", () => {
    const root = catalogCopy("good");
    const first = loadCatalog(root, undefined);
    expect(readdirSync(cache)).toHaveLength(1);
    const second = loadCatalog(root, undefined);
    expect(second.certifiedPrompts).toBe(first.certifiedPrompts);
    expect(second.pairings.map((p) => p.framing.id)).toEqual(first.pairings.map((p) => p.framing.id));
    expect(readdirSync(cache)).toHaveLength(1);
  });

  it("hands back, from the cache, exactly the catalog a fresh load validates", () => {
    const root = catalogCopy("same", "Remembered Dilemma");
    const before = readdirSync(cache);
    const fresh = loadCatalog(root, undefined);
    const [entry] = newEntries(before);
    // The entry holds the validated game, so the next load reads it instead of the files' zod validation.
    expect(readFileSync(join(cache, entry as string), "utf8")).toContain('"title":"Remembered Dilemma"');
    const remembered = loadCatalog(root, undefined);
    expect(newEntries(before)).toEqual([entry]);
    process.env.SAME_GAME_CERT_CACHE = "0";
    const uncached = loadCatalog(root, undefined);
    process.env.SAME_GAME_CERT_CACHE = cache;
    for (const catalog of [remembered, uncached]) {
      expect(catalog.games).toEqual(fresh.games);
      expect(catalog.framings).toEqual(fresh.framings);
      expect(catalog.pairings).toEqual(fresh.pairings);
      expect(catalog.fingerprint).toBe(fresh.fingerprint);
      expect(catalog.certifiedPrompts).toBe(fresh.certifiedPrompts);
    }
    // The prisoner's dilemma under business: 3 label sets, each rendered for every order, style, horizon.
    expect(remembered.pairings.map((p) => p.framing.id)).toEqual([
      "business",
      "business+familiar",
      "business+neutral",
    ]);
    // The row player's payoffs as games/prisoners-dilemma.json has them: cooperate (5, 2), defect (10, 3).
    expect(remembered.stageGame("prisoners-dilemma", "base").u1).toEqual([
      [5, 2],
      [10, 3],
    ]);
  });

  it("never serves the old reading of a file edited since: a retitled game shows its new title", () => {
    const root = catalogCopy("retitled");
    expect(loadCatalog(root, undefined).game("prisoners-dilemma").title).toBe("Prisoner's Dilemma");
    retitle(root, "Retitled Dilemma");
    expect(loadCatalog(root, undefined).game("prisoners-dilemma").title).toBe("Retitled Dilemma");
  });

  it("ignores an entry it cannot use (truncated or foreign) and loads the files afresh", () => {
    const root = catalogCopy("damaged", "Damaged Dilemma");
    const before = readdirSync(cache);
    const fresh = loadCatalog(root, undefined);
    const [entry] = newEntries(before);
    if (entry === undefined) throw new Error("the load remembered nothing");
    for (const damage of ['{"prompts": 3, "games": [', '{"prompts": 3}']) {
      writeFileSync(join(cache, entry), damage);
      const again = loadCatalog(root, undefined);
      expect(again.games).toEqual(fresh.games);
      expect(again.certifiedPrompts).toBe(fresh.certifiedPrompts);
    }
  });

  it("still refuses a framing edited after its catalog was remembered: the swapped amount headings", () => {
    const root = catalogCopy("edited");
    loadCatalog(root, undefined); // certified and remembered as shipped
    const file = join(root, "framings", "business.json");
    const framing = JSON.parse(readFileSync(file, "utf8")) as {
      payoffs: { table: { own_payoff: string; other_payoff: string } };
    };
    const { own_payoff, other_payoff } = framing.payoffs.table;
    framing.payoffs.table = { ...framing.payoffs.table, own_payoff: other_payoff, other_payoff: own_payoff };
    writeFileSync(file, JSON.stringify(framing));
    expect(() => loadCatalog(root, undefined)).toThrow(
      /profile \(agent cooperate, other defect\) gives the agent 10 but the game pays the agent 2/,
    );
  });

  it("is off with SAME_GAME_CERT_CACHE=0: nothing is written", () => {
    process.env.SAME_GAME_CERT_CACHE = "0";
    try {
      const before = readdirSync(cache).length;
      loadCatalog(catalogCopy("off"), undefined);
      expect(readdirSync(cache)).toHaveLength(before);
    } finally {
      process.env.SAME_GAME_CERT_CACHE = cache;
    }
  });
});
