import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/queries/display-width.js";
import { table } from "../../src/queries/format.js";

// Player names are free text: a ranking of "Müller" typed two ways (ü as one character, and as u plus a
// combining diaeresis), a CJK name and an emoji must keep its columns aligned on a terminal. Padded by
// UTF-16 length, the decomposed "Müller" (7 units, 6 columns) ended one column short, "北京模型" (4 units,
// 8 columns) four columns long, and every value after them sat out of line with the others.

describe("text tables padded by the columns a cell takes", () => {
  it("counts combining marks as nothing, CJK characters and emoji as two columns", () => {
    expect(displayWidth("Mu\u0308ller")).toBe(6);
    expect(displayWidth("M\u00fcller")).toBe(6);
    expect(displayWidth("北京模型")).toBe(8);
    expect(displayWidth("bot 🤖")).toBe(6);
    expect(displayWidth('det "always" defect')).toBe(19);
  });

  it("lines the next column up after each of them", () => {
    const text = table(
      ["group", "R"],
      [
        ["Mu\u0308ller", "0.970"],
        ["M\u00fcller", "0.961"],
        ["北京模型", "0.951"],
        ["bot 🤖", "0.940"],
      ],
    );
    expect(text.split("\n")).toEqual([
      "group     R",
      "--------  -----",
      "Mu\u0308ller    0.970",
      "M\u00fcller    0.961",
      "北京模型  0.951",
      "bot 🤖    0.940",
    ]);
  });
});
