import { describe, expect, it } from "vitest";
import { html } from "../../src/report/html.js";
import { groupedRowHeaders } from "../../src/report/sections/row-groups.js";

describe("groupedRowHeaders", () => {
  const rows = [
    { player: "a", game: "pd" },
    { player: "a", game: "pd" },
    { player: "a", game: "sh" },
    { player: "b", game: "sh" },
    { player: "a", game: "sh" },
  ];
  const headers = groupedRowHeaders(
    rows,
    [(r) => r.player, (r) => r.game],
    (r, column) => html`${column === 0 ? r.player : r.game}`,
  ).map((h) => h.text);

  it("writes each run's value once, spanning its rows; an inner run ends where an outer one does", () => {
    expect(headers).toEqual([
      '<th rowspan="3">a</th><th rowspan="2">pd</th>',
      "",
      "<th>sh</th>",
      // b then sh: sh of row 3 follows sh of row 2, but a new player starts a new game run.
      "<th>b</th><th>sh</th>",
      "<th>a</th><th>sh</th>",
    ]);
  });

  it("opens as many cells as the table has rows, each row once", () => {
    const spans = headers.join("").match(/<th(?: rowspan="(\d+)")?>[a-z]+<\/th>/g) ?? [];
    const covered = (column: string[]) =>
      column.reduce((sum, th) => sum + Number(/rowspan="(\d+)"/.exec(th)?.[1] ?? 1), 0);
    const players = spans.filter((th) => /[>](a|b)</.test(th));
    const games = spans.filter((th) => /[>](pd|sh)</.test(th));
    expect(covered(players)).toBe(rows.length);
    expect(covered(games)).toBe(rows.length);
  });
});
