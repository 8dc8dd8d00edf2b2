import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { nashEquilibria } from "../../src/game-theory/equilibria.js";

const catalog = loadCatalog();

describe("equilibria of the asymmetric catalog games", () => {
  it("Battle of the Sexes: both pure coordinations and the mixed one (row opera 3/5, column opera 2/5)", () => {
    // Column indifferent: 2x = 3(1 − x) ⇒ x = 3/5. Row indifferent: 3y = 2(1 − y) ⇒ y = 2/5.
    // Mixed payoffs: row 3 · 2/5 = 6/5, column 2 · 3/5 = 6/5.
    const { equilibria } = nashEquilibria(catalog.stageGame("battle-of-the-sexes", "base"));
    expect(equilibria.filter((e) => e.kind === "pure").map((e) => [e.row, e.column, e.payoffs])).toEqual([
      [
        { opera: 1, football: 0 },
        { opera: 1, football: 0 },
        { row: 3, column: 2 },
      ],
      [
        { opera: 0, football: 1 },
        { opera: 0, football: 1 },
        { row: 2, column: 3 },
      ],
    ]);
    const mixed = equilibria.find((e) => e.kind === "mixed");
    expect(mixed?.row.opera).toBeCloseTo(3 / 5, 12);
    expect(mixed?.column.opera).toBeCloseTo(2 / 5, 12);
    expect(mixed?.payoffs.row).toBeCloseTo(6 / 5, 12);
    expect(mixed?.payoffs.column).toBeCloseTo(6 / 5, 12);
  });

  it("Matching Pennies: only the ½–½ mix, worth 0 to each", () => {
    const { equilibria } = nashEquilibria(catalog.stageGame("matching-pennies", "base"));
    expect(equilibria).toHaveLength(1);
    expect(equilibria[0]?.row.heads).toBeCloseTo(0.5, 12);
    expect(equilibria[0]?.column.heads).toBeCloseTo(0.5, 12);
    expect(equilibria[0]?.payoffs.row).toBeCloseTo(0, 12);
  });

  it("the 3 × 3 coordination game: three pure equilibria and four mixed ones", () => {
    // Diagonal 3, 2, 1: every support S gives a mixed equilibrium with weights ∝ 1/u on S (7 supports).
    const { equilibria } = nashEquilibria(catalog.stageGame("coordination-3x3", "base"));
    expect(equilibria.filter((e) => e.kind === "pure")).toHaveLength(3);
    expect(equilibria.filter((e) => e.kind === "mixed")).toHaveLength(4);
    const full = equilibria.find((e) => Object.values(e.row).every((p) => p > 0));
    // Weights 1/3 : 1/2 : 1 normalised by 11/6: left 2/11, middle 3/11, right 6/11.
    expect(full?.row.left).toBeCloseTo(2 / 11, 12);
    expect(full?.row.right).toBeCloseTo(6 / 11, 12);
  });
});
