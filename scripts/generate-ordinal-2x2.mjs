// Writes the shipped catalog of the 144 strict ordinal 2×2 games (Robinson–Goforth numbering) into
// catalogs/ordinal-2x2/games/, one game file per game, from the generator in src/domain/ordinal-2x2.ts.
// Run it with `npm run generate:ordinal-2x2` (it builds first); test/domain/ordinal-2x2.test.ts fails when
// the committed files and the generator disagree.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ordinalGameFile, robinsonGoforthGames } from "../dist/domain/ordinal-2x2.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const gamesDir = join(root, "catalogs", "ordinal-2x2", "games");
mkdirSync(gamesDir, { recursive: true });
for (const file of readdirSync(gamesDir).filter((name) => name.endsWith(".json"))) {
  rmSync(join(gamesDir, file));
}
const games = robinsonGoforthGames();
for (const game of games) {
  const file = ordinalGameFile(game);
  writeFileSync(join(gamesDir, `${file.id}.json`), formatted(file));
}
/** The layout of the files in games/ (and the one biome keeps): one line per payoff row. */
function formatted(file) {
  const inline = (object) =>
    `{ ${Object.entries(object)
      .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
      .join(", ")} }`;
  const table = (t) =>
    `{\n${Object.entries(t)
      .map(([own, row]) => `    ${JSON.stringify(own)}: ${inline(row)}`)
      .join(",\n")}\n  }`;
  const lines = [
    `  "id": ${JSON.stringify(file.id)}`,
    `  "title": ${JSON.stringify(file.title)}`,
    `  "actions": ${JSON.stringify(file.actions).replace(/,/g, ", ")}`,
    `  "cooperative_action": ${JSON.stringify(file.cooperative_action)}`,
    `  "rounds": ${JSON.stringify(file.rounds)}`,
    `  "payoffs": ${table(file.payoffs)}`,
    `  "column_payoffs": ${table(file.column_payoffs)}`,
    `  "variants": {\n    "base": ${inline(file.variants.base)}\n  }`,
  ];
  return `{\n${lines.join(",\n")}\n}\n`;
}

process.stderr.write(`wrote ${games.length} games to ${gamesDir}\n`);
