import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { packageRoot } from "../package-root.js";
import { UsageError } from "../usage-error.js";
import { certifyFraming } from "./certify.js";
import { type Framing, parseFramingFile } from "./framing.js";
import { type Game, type GameVariant, parseGameFile } from "./game.js";
import { type StageGame, VARIANT_IDS, type VariantId } from "./types.js";

// The catalog the rest of the server builds on: every game and framing file, validated, and every
// (game, variant, framing) pairing certified before anything is played. Loading throws on the first
// defect, so a server never starts with a framing that misstates a payoff.

export interface CatalogDirs {
  readonly gamesDir: string;
  readonly framingsDir: string;
}

/** A (game, variant, framing) combination that certified and may be played. */
export interface Pairing {
  readonly game: Game;
  readonly variant: GameVariant;
  readonly framing: Framing;
}

export interface Catalog {
  readonly games: readonly Game[];
  readonly framings: readonly Framing[];
  /** Every certified pairing, in game, variant, framing order. */
  readonly pairings: readonly Pairing[];
  /** How many prompts certification rendered and checked (every order × style × horizon). */
  readonly certifiedPrompts: number;
  /** SHA-256 of the loaded games and framings: two records with one fingerprint saw the same catalog. */
  readonly fingerprint: string;
  game(gameId: string): Game;
  framing(framingId: string): Framing;
  variant(gameId: string, variantId: string): GameVariant;
  /** The framings that present this game variant, in file-name order. */
  framingsFor(gameId: string, variantId: string): readonly Framing[];
  /** The variant's payoffs as a bimatrix, actions in catalog order. */
  stageGame(gameId: string, variantId: string): StageGame;
}

/** Whether the framing presents this game variant: same action set, label set and kind of play. */
export function framingApplies(framing: Framing, game: Game, variant: GameVariant): boolean {
  const { actions, labelSet, play, games } = framing.appliesTo;
  return (
    actions.length === game.actions.length &&
    actions.every((action) => game.actions.includes(action)) &&
    labelSet === variant.labelSet &&
    play === (game.rounds > 1 ? "repeated" : "one-shot") &&
    (games === null || games.includes(game.id))
  );
}

/** The catalog in `root/games` and `root/framings` (default: this package's own), or in explicit folders. */
export function loadCatalog(source: string | CatalogDirs = packageRoot()): Catalog {
  const dirs =
    typeof source === "string"
      ? { gamesDir: join(source, "games"), framingsDir: join(source, "framings") }
      : source;
  const games = readJsonFiles(dirs.gamesDir).map(({ json, name, source }) =>
    withFileId(parseGameFile(json, source), name, source),
  );
  const framings = readJsonFiles(dirs.framingsDir).map(({ json, name, source }) =>
    withFileId(parseFramingFile(json, source), name, source),
  );
  const pairings: Pairing[] = [];
  let certifiedPrompts = 0;
  for (const game of games) {
    for (const variant of variantsOf(game)) {
      for (const framing of framings.filter((candidate) => framingApplies(candidate, game, variant))) {
        certifiedPrompts += certifyFraming(game, variant, framing);
        pairings.push({ game, variant, framing });
      }
    }
  }
  return catalogOf(games, framings, pairings, certifiedPrompts);
}

function catalogOf(
  games: readonly Game[],
  framings: readonly Framing[],
  pairings: readonly Pairing[],
  certifiedPrompts: number,
): Catalog {
  const game = (gameId: string) =>
    games.find((candidate) => candidate.id === gameId) ??
    unknown(
      "game",
      gameId,
      games.map((candidate) => candidate.id),
    );
  const variant = (gameId: string, variantId: string) => {
    const found = game(gameId);
    const variants = variantsOf(found);
    return (
      variants.find((candidate) => candidate.id === variantId) ??
      unknown(
        `variant of game "${gameId}"`,
        variantId,
        variants.map((candidate) => candidate.id),
      )
    );
  };
  return {
    games,
    framings,
    pairings,
    certifiedPrompts,
    fingerprint: createHash("sha256").update(JSON.stringify({ games, framings })).digest("hex"),
    game,
    variant,
    framing: (framingId) =>
      framings.find((candidate) => candidate.id === framingId) ??
      unknown(
        "framing",
        framingId,
        framings.map((candidate) => candidate.id),
      ),
    framingsFor: (gameId, variantId) => {
      const { id } = variant(gameId, variantId);
      return pairings
        .filter((pairing) => pairing.game.id === gameId && pairing.variant.id === id)
        .map((p) => p.framing);
    },
    stageGame: (gameId, variantId) => {
      const { actions } = game(gameId);
      const { payoffs } = variant(gameId, variantId);
      const u = (own: string, other: string) => payoffs[own]?.[other] as number;
      return {
        actions,
        u1: actions.map((own) => actions.map((other) => u(own, other))),
        u2: actions.map((own) => actions.map((other) => u(other, own))),
      };
    },
  };
}

function variantsOf(game: Game): GameVariant[] {
  return VARIANT_IDS.flatMap((id: VariantId) => game.variants[id] ?? []);
}

function unknown(kind: string, id: string, valid: readonly string[]): never {
  throw new UsageError(`Unknown ${kind} "${id}"; valid: ${valid.join(", ")}.`);
}

function readJsonFiles(dir: string): { json: unknown; name: string; source: string }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => {
      const source = `${basename(dir)}/${file}`;
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(join(dir, file), "utf8"));
      } catch (error) {
        throw new Error(`${source}: not valid JSON (${(error as Error).message}).`);
      }
      return { json, name: file.slice(0, -".json".length), source };
    });
}

/** A file's id must be its file name, so a reviewer finds `business` in framings/business.json. */
function withFileId<T extends { id: string }>(item: T, name: string, source: string): T {
  if (item.id !== name)
    throw new Error(`${source}: id: expected "${name}" (the file name), found "${item.id}".`);
  return item;
}
