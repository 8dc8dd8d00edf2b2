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

// A catalog that certified once is not certified again at the next start (certification-cache.ts), but
// the cache may never let through a text it did not see certified: its key is the loaded content.

let dir: string;
let cache: string;
const saved = process.env.SAME_GAME_CERT_CACHE;

/** A small catalog of its own: the prisoner's dilemma under the business framing. */
function catalogCopy(name: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, "games"), { recursive: true });
  mkdirSync(join(root, "framings"), { recursive: true });
  copyFileSync(
    join(packageRoot(), "games", "prisoners-dilemma.json"),
    join(root, "games", "prisoners-dilemma.json"),
  );
  copyFileSync(join(packageRoot(), "framings", "business.json"), join(root, "framings", "business.json"));
  return root;
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
