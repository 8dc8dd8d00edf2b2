import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { packageRoot } from "../package-root.js";
import { printable } from "../printable-text.js";
import { UsageError } from "../usage-error.js";
import { hasSubfolder, readJsonFiles } from "./catalog-files.js";
import {
  type CatalogFileText,
  certificationKey,
  rememberCertification,
  rememberedCertification,
} from "./certification-cache.js";
import { certifyFraming } from "./certify.js";
import { type Framing, parseFramingFile } from "./framing.js";
import { type Game, type GameVariant, otherPayoffOf, parseGameFile } from "./game.js";
import { familiarLabels, LABEL_CHOICES, neutralLabels, presentationId } from "./label-sets.js";
import { resolveCatalogDir, shippedCatalogNames } from "./shipped-catalogs.js";
import { type ActionId, type StageGame, VARIANT_IDS, type VariantId } from "./types.js";

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
  /** The user's catalog folder loaded beside the shipped one (`--catalog DIR`), or null. */
  readonly userDir: string | null;
  /** SHA-256 of the loaded games and framings: two records with one fingerprint saw the same catalog. */
  readonly fingerprint: string;
  game(gameId: string): Game;
  /**
   * A framing presentation (`business`, `business+familiar`); with a game, its labels for that game's
   * actions (an "any" framing labels each game's actions by position), refused if it does not present it.
   */
  framing(framingId: string, gameId?: string): Framing;
  variant(gameId: string, variantId: string): GameVariant;
  /** The framings that present this game variant, in file-name order. */
  framingsFor(gameId: string, variantId: string): readonly Framing[];
  /** The variant's payoffs as a bimatrix, actions in catalog order. */
  stageGame(gameId: string, variantId: string): StageGame;
}

/** Whether the framing presents this game variant: same action set (or any), label set and kind of play. */
export function framingApplies(framing: Framing, game: Game, variant: GameVariant): boolean {
  const { actions, labelSet, play, games } = framing.appliesTo;
  const fits =
    actions === "any"
      ? game.actions.length <= MAX_ACTIONS
      : actions.length === game.actions.length && actions.every((action) => game.actions.includes(action));
  return (
    fits &&
    labelSet === variant.labelSet &&
    play === (game.rounds > 1 ? "repeated" : "one-shot") &&
    (games === null || games.includes(game.id))
  );
}

const MAX_ACTIONS = 6;

/**
 * Where a user's own games (and framings) live: `DIR/*.json` and `DIR/games/*.json` are games,
 * `DIR/framings/*.json` framings. `--catalog DIR` on any verb sets it; so does `SAME_GAME_CATALOG`. A
 * shipped catalog may be named instead of a folder (`ordinal-2x2`).
 */
export function userCatalogDir(): string | undefined {
  const dir = process.env.SAME_GAME_CATALOG;
  return dir === undefined || dir.trim() === "" ? undefined : resolveCatalogDir(dir);
}

/**
 * The catalog in `root/games` and `root/framings` (default: this package's own), or in explicit folders,
 * plus a user's catalog folder (default: `userCatalogDir()`). Any defect is a CatalogError: one sentence.
 */
export function loadCatalog(
  source: string | CatalogDirs = packageRoot(),
  userDir: string | undefined = userCatalogDir(),
): Catalog {
  return loadCatalogOrExplain(source, userDir);
}

function loadCatalogOrExplain(source: string | CatalogDirs, userDir: string | undefined): Catalog {
  try {
    return loadCatalogFiles(source, userDir);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new CatalogError((error as Error).message);
  }
}

function loadCatalogFiles(source: string | CatalogDirs, userDir: string | undefined): Catalog {
  const dirs =
    typeof source === "string"
      ? { gamesDir: join(source, "games"), framingsDir: join(source, "framings") }
      : source;
  const gameFiles = readJsonFiles(dirs.gamesDir, basename(dirs.gamesDir));
  const framingFiles = readJsonFiles(dirs.framingsDir, basename(dirs.framingsDir));
  if (userDir !== undefined) {
    if (!existsSync(userDir) || !statSync(userDir).isDirectory()) {
      throw new CatalogError(
        `--catalog / SAME_GAME_CATALOG: "${userDir}" is not a folder nor a shipped catalog (shipped: ${shippedCatalogNames().join(", ")}).`,
      );
    }
    gameFiles.push(...readJsonFiles(userDir, "user catalog"));
    // Named "user catalog/…" in every message, so a user's games/x.json is never taken for a shipped one.
    if (hasSubfolder(userDir, "games"))
      gameFiles.push(...readJsonFiles(join(userDir, "games"), "user catalog/games"));
    if (hasSubfolder(userDir, "framings"))
      framingFiles.push(...readJsonFiles(join(userDir, "framings"), "user catalog/framings"));
  }
  // A catalog with exactly these files already loaded and certified under this code is neither validated
  // nor certified again (certification-cache.ts says why and when it is).
  const key = certificationKey({ games: gameFiles, framings: framingFiles });
  const remembered = rememberedCertification(key);
  const games =
    remembered?.games ??
    uniqueIds(
      gameFiles.map((file) => withFileId(parseGameFile(jsonOf(file), file.source), file.name, file.source)),
      gameFiles,
      "game",
    );
  const framingBases =
    remembered?.framingBases ??
    uniqueIds(
      framingFiles.map((file) =>
        withFileId(parseFramingFile(jsonOf(file), file.source), file.name, file.source),
      ),
      framingFiles,
      "framing",
    );
  if (remembered === undefined) {
    framingBases.forEach((framing, i) => {
      refuseFramingOfNoGame(framing, (framingFiles[i] as CatalogFileText).source, games);
    });
  }
  const pairings: Pairing[] = [];
  let certifiedPrompts = 0;
  for (const game of games) {
    for (const variant of variantsOf(game)) {
      for (const base of framingBases.filter((candidate) => framingApplies(candidate, game, variant))) {
        for (const framing of presentationsOf(base, game.actions)) {
          if (remembered === undefined) certifiedPrompts += certifyFraming(game, variant, framing);
          pairings.push({ game, variant, framing });
        }
      }
    }
  }
  if (remembered === undefined)
    rememberCertification(key, { games, framingBases, prompts: certifiedPrompts });
  else certifiedPrompts = remembered.prompts;
  const framings = framingBases.flatMap((base) => {
    const shown = pairings.filter((pairing) => pairing.framing.presentation.framing === base.id);
    const ids = [...new Set(shown.map((pairing) => pairing.framing.id))];
    return ids.length === 0
      ? [base]
      : ids.map((id) => shown.find((pairing) => pairing.framing.id === id)?.framing as Framing);
  });
  return catalogOf(games, framings, pairings, certifiedPrompts, userDir ?? null);
}

/** Two files may not claim the same id (a user game may not shadow a shipped one). */
function uniqueIds<T extends { id: string }>(
  items: T[],
  files: readonly CatalogFileText[],
  kind: string,
): T[] {
  const seen = new Map<string, string>();
  items.forEach((item, i) => {
    const source = (files[i] as CatalogFileText).source;
    const first = seen.get(item.id);
    if (first !== undefined)
      throw new CatalogError(
        `Two ${kind} files have the id "${item.id}": ${first} and ${source}; ids must be unique (rename one file and its id).`,
      );
    seen.set(item.id, source);
  });
  return items;
}

/**
 * A framing that presents no game of the catalog would load, certify nothing and be offered nowhere: the
 * mistake (a misspelt game id, an action set no game has) would only show later, in messages that do not
 * name the framing. Refused here, naming its file.
 */
function refuseFramingOfNoGame(framing: Framing, source: string, games: readonly Game[]): void {
  const { games: named, actions, labelSet, play } = framing.appliesTo;
  const gameIds = games.map((game) => game.id);
  const unknownGame = named?.find((id) => !gameIds.includes(id));
  if (unknownGame !== undefined) {
    throw new CatalogError(
      `${source}: applies_to.games: unknown game "${unknownGame}"; games: ${gameIds.join(", ")}.`,
    );
  }
  if (games.some((game) => variantsOf(game).some((variant) => framingApplies(framing, game, variant))))
    return;
  const candidates = games.filter((game) => named === null || named.includes(game.id));
  const shaped =
    actions === "any"
      ? candidates.filter((game) => game.actions.length <= MAX_ACTIONS)
      : candidates.filter(
          (game) => game.actions.length === actions.length && actions.every((a) => game.actions.includes(a)),
        );
  if (shaped.length === 0 && actions !== "any") {
    const sets = [...new Set(candidates.map((game) => game.actions.join(", ")))].map((set) => `(${set})`);
    throw new CatalogError(
      `${source}: applies_to.actions: no game has the actions ${actions.join(", ")}; the games' action sets: ${sets.join(", ")}.`,
    );
  }
  throw new CatalogError(
    `${source}: applies_to: no game with its actions has a variant it fits (${play} play, ${labelSet} labels); games with its actions: ${shaped.map((game) => game.id).join(", ") || "none"}.`,
  );
}

/** A catalog defect the operator can fix: a malformed file, a clash, a framing that misstates a game. */
export class CatalogError extends UsageError {
  override readonly name: string = "CatalogError";
}

function catalogOf(
  games: readonly Game[],
  framings: readonly Framing[],
  pairings: readonly Pairing[],
  certifiedPrompts: number,
  userDir: string | null,
): Catalog {
  // Looked up on every tool call (a submit_move asks for its framing three times): indexed once, by id,
  // keeping the first of equal ids as the linear searches they replace did.
  const gameById = firstById(games, (g) => g.id);
  const framingById = firstById(framings, (f) => f.id);
  const pairingFraming = firstById(pairings, (p) => `${p.framing.id}\0${p.game.id}`);
  const framingsOf = new Map<string, Framing[]>();
  for (const pairing of pairings) {
    const key = `${pairing.game.id}\0${pairing.variant.id}`;
    framingsOf.set(key, [...(framingsOf.get(key) ?? []), pairing.framing]);
  }
  const stageGames = new Map<string, StageGame>();
  const game = (gameId: string) =>
    gameById.get(gameId) ??
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
    userDir,
    fingerprint: createHash("sha256").update(JSON.stringify({ games, framings })).digest("hex"),
    game,
    variant,
    framing: (framingId, gameId) => {
      const found =
        framingById.get(framingId) ??
        unknown(
          "framing",
          framingId,
          framings.map((candidate) => candidate.id),
        );
      if (gameId === undefined) return found;
      return (
        pairingFraming.get(`${framingId}\0${gameId}`)?.framing ??
        unknown(`framing of game "${gameId}"`, framingId, [
          ...new Set(pairings.filter((p) => p.game.id === gameId).map((p) => p.framing.id)),
        ])
      );
    },
    framingsFor: (gameId, variantId) => {
      const { id } = variant(gameId, variantId);
      return [...(framingsOf.get(`${gameId}\0${id}`) ?? [])];
    },
    stageGame: (gameId, variantId) => {
      const key = `${gameId}\0${variantId}`;
      const known = stageGames.get(key);
      if (known) return known;
      const { actions } = game(gameId);
      const found = variant(gameId, variantId);
      const u = (own: string, other: string) => found.payoffs[own]?.[other] as number;
      const stage = {
        actions,
        u1: actions.map((own) => actions.map((other) => u(own, other))),
        u2: actions.map((own) => actions.map((other) => otherPayoffOf(found, own, other))),
      };
      stageGames.set(key, stage);
      return stage;
    },
  };
}

/**
 * A framing file's story under every label set: its own (story-true) words, the textbook names and neutral
 * letters. A counterfactual framing's labels are the manipulation itself, so it is shown only with its own.
 */
export function presentationsOf(framing: Framing, actions: readonly ActionId[]): Framing[] {
  const own =
    framing.positionalLabels === null
      ? framing.labels
      : Object.fromEntries(actions.map((action, i) => [action, framing.positionalLabels?.[i] as string]));
  const storyTrue = { ...framing, labels: own };
  if (framing.appliesTo.labelSet === "counterfactual") return [storyTrue];
  return LABEL_CHOICES.map((labels) => ({
    ...framing,
    id: presentationId(framing.id, labels),
    presentation: { framing: framing.id, labels },
    labels:
      labels === "story-true"
        ? own
        : labels === "familiar"
          ? familiarLabels(actions)
          : neutralLabels(actions),
  }));
}

/** The first item of each key, as `find` over the list would return it. */
function firstById<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T> {
  const byKey = new Map<string, T>();
  for (const item of items) if (!byKey.has(keyOf(item))) byKey.set(keyOf(item), item);
  return byKey;
}

function variantsOf(game: Game): GameVariant[] {
  return VARIANT_IDS.flatMap((id: VariantId) => game.variants[id] ?? []);
}

function unknown(kind: string, id: string, valid: readonly string[]): never {
  const entry = kind === "game" ? "game" : kind.startsWith("framing") ? "framing" : null;
  // The id is the caller's text: echoed with its control characters escaped, as every refusal does.
  throw new UnknownCatalogIdError(
    entry,
    id,
    `Unknown ${kind} "${printable(id)}"; valid: ${valid.join(", ")}.`,
  );
}

/**
 * An id the catalog does not hold. When the id came from a record rather than from the user (a record of
 * games loaded with `--catalog`, read without it), the CLI says so instead (cli/outside-catalog.ts).
 */
export class UnknownCatalogIdError extends UsageError {
  override readonly name: string = "UnknownCatalogIdError";
  constructor(
    /** A game or a framing id; null for anything else (a variant). */
    readonly entry: "game" | "framing" | null,
    readonly id: string,
    message: string,
  ) {
    super(message);
  }
}

function jsonOf(file: CatalogFileText): unknown {
  try {
    return JSON.parse(file.text);
  } catch (error) {
    throw new Error(`${file.source}: not valid JSON (${(error as Error).message}).`);
  }
}

/** A file's id must be its file name, so a reviewer finds `business` in framings/business.json. */
function withFileId<T extends { id: string }>(item: T, name: string, source: string): T {
  if (item.id !== name)
    throw new Error(`${source}: id: expected "${name}" (the file name), found "${item.id}".`);
  return item;
}
