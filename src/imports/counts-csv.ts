import { parse } from "csv-parse/sync";
import type { Catalog } from "../domain/catalog.js";
import { printable } from "../queries/format.js";
import { MAX_CELL_DECISIONS } from "../store/limits.js";
import type { ImportedCountRow } from "../store/records.js";
import { textProblem } from "../store/well-formed-text.js";
import { UsageError } from "../usage-error.js";
import { IMPORT_FORMATS } from "./import-file.js";
import { importedFramingProblem } from "./imported-framing.js";

const REQUIRED_COLUMNS = ["player", "game", "framing", "action", "count"] as const;
const OPTIONAL_COLUMNS = ["variant", "session"] as const;
const MAX_LABEL_LENGTH = 200;
/** NUL, line breaks, tabs and the other C0/C1 controls: never part of a label (PostgreSQL cannot store NUL). */
const CONTROL_CHARACTER = /\p{Cc}/u;

export interface CountsCsvOptions {
  /** Accept framings the catalog does not know, as free provenance labels of the published study. */
  freeFramings?: boolean;
}

interface CsvRecord {
  record: Record<string, string>;
  info: { lines: number };
}

/**
 * Parses published aggregate counts (`player,game,framing,action,count`, optional `variant` and `session`)
 * with a real CSV parser: quoted fields, quoted commas, CRLF and a BOM are read as R's `write.csv`, Excel
 * and pandas write them (an unnamed first column, R's row names, is ignored). Every row is checked against the
 * catalog. All or nothing: the first bad row is reported with its line in the file and nothing is returned.
 *
 * `session` (counts per session: a conversation id, an epoch) is scoped to the file's import and player:
 * the same label in two games or framings of one player is one session spanning those cells, resampled
 * whole as a live MCP session is. A row with an empty session holds decisions without one (each its
 * own), so a file may mix both (as `export counts` writes a record with live and published counts).
 */
export function parseCountsCsv(
  text: string,
  fileLabel: string,
  catalog: Catalog,
  options: CountsCsvOptions = {},
): ImportedCountRow[] {
  refuseJson(text, fileLabel);
  let records: CsvRecord[];
  let header: string[] = [];
  try {
    records = parse(text, {
      bom: true,
      // Any line ending, even mixed in one file (a CRLF file with lines appended on Linux): the parser
      // would otherwise take the first line's ending for all and read the next LF line as one with the row after.
      record_delimiter: ["\r\n", "\n", "\r"],
      columns: (names: string[]) => {
        header = names.map((h) => h.trim());
        checkHeader(header, fileLabel);
        // R's write.csv writes row names under an empty header: keep them out of the record.
        return header.map((h, i) => (h === "" && i === 0 ? false : h));
      },
      info: true,
      skip_empty_lines: true,
      trim: true,
    }) as CsvRecord[];
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const e = error as { lines?: number; message?: string };
    const line = e.lines === undefined ? "" : ` line ${e.lines}:`;
    throw new UsageError(
      `${fileLabel}:${line} not valid CSV (${firstSentence(e.message ?? String(error))}).`,
    );
  }
  const rows: ImportedCountRow[] = [];
  const seen = new Set<string>();
  const cellTotals = new Map<string, number>();
  for (const { record, info } of records) {
    const where = `${fileLabel}: line ${info.lines}`;
    const row = countRow(record, where, catalog, options);
    const cell = JSON.stringify([row.player, row.game, row.variant, row.framing]);
    const key = JSON.stringify([cell, row.session ?? "", row.action]);
    if (seen.has(key)) {
      const session = row.session === undefined ? "" : ` in session "${row.session}"`;
      throw new UsageError(
        `${where}: a second count for ${row.player} / ${row.game} / ${row.framing} / ${row.action}${session}.`,
      );
    }
    seen.add(key);
    const total = (cellTotals.get(cell) ?? 0) + row.count;
    if (total > MAX_CELL_DECISIONS) {
      throw new UsageError(
        `${where}: the cell ${row.player} / ${row.game} / ${row.framing} would hold ${total} decisions; the analysis holds at most ${MAX_CELL_DECISIONS} per cell.`,
      );
    }
    cellTotals.set(cell, total);
    rows.push(row);
  }
  if (rows.length === 0) throw new UsageError(`${fileLabel}: no count rows after the header.`);
  return rows;
}

/**
 * Refuses JSON (`export counts --format jsonl`, or a transcript file) with what it is, before the CSV
 * parser reads its first quote as a quoting error.
 */
function refuseJson(text: string, fileLabel: string): void {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const index = lines.findIndex((line) => line.trim() !== "");
  const first = (lines[index] ?? "").trim();
  if (!first.startsWith("{") && !first.startsWith("[")) return;
  const shown = first.length > 60 ? `${first.slice(0, 60)}…` : first;
  throw new UsageError(
    `${fileLabel}: line ${index + 1}: JSON (${printable(shown)}), not CSV; ${IMPORT_FORMATS}.`,
  );
}

function checkHeader(header: readonly string[], fileLabel: string): void {
  const named = header.filter((h, i) => !(h === "" && i === 0));
  const known: readonly string[] = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS];
  const twice = named.find((h, i) => named.indexOf(h) !== i);
  if (twice !== undefined) {
    throw new UsageError(
      `${fileLabel}: line 1: the header names the column "${twice}" twice; name each of ${REQUIRED_COLUMNS.join(",")} (and optionally variant) once.`,
    );
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !named.includes(c));
  const unknown = named.filter((h) => !known.includes(h));
  if (missing.length > 0 || unknown.length > 0) {
    const problem =
      missing.length > 0 ? `missing ${missing.join(", ")}` : `unknown column "${unknown[0] ?? ""}"`;
    throw new UsageError(
      `${fileLabel}: line 1: the header must name the columns ${REQUIRED_COLUMNS.join(",")} (and optionally ${OPTIONAL_COLUMNS.join(", ")}); ${problem}.`,
    );
  }
}

function countRow(
  record: Record<string, string>,
  where: string,
  catalog: Catalog,
  options: CountsCsvOptions,
): ImportedCountRow {
  const field = (name: string): string => {
    const value = record[name] ?? "";
    if (value === "") throw new UsageError(`${where}: ${name} is empty.`);
    if (value.length > MAX_LABEL_LENGTH)
      throw new UsageError(`${where}: ${name} is longer than ${MAX_LABEL_LENGTH} characters.`);
    const problem = textProblem(value);
    if (problem !== null) throw new UsageError(`${where}: ${name} ${problem}`);
    return value;
  };
  const player = field("player");
  const gameId = field("game");
  const variant = record.variant === undefined || record.variant === "" ? "base" : field("variant");
  const framing = field("framing");
  const rawSession = record.session ?? "";
  if (CONTROL_CHARACTER.test(rawSession)) {
    throw new UsageError(
      `${where}: session "${JSON.stringify(rawSession).slice(1, -1)}" contains a control character; a session label is printable text.`,
    );
  }
  const session = rawSession === "" ? undefined : field("session");
  const action = field("action");
  const countText = record.count ?? "";
  if (countText === "") throw new UsageError(`${where}: count is empty; give a whole number of decisions.`);
  if (!/^\d+$/.test(countText)) {
    throw new UsageError(`${where}: count "${countText}" is not a whole number of decisions.`);
  }
  const count = Number(countText);
  if (count > MAX_CELL_DECISIONS) {
    throw new UsageError(
      `${where}: count ${countText} is above ${MAX_CELL_DECISIONS}, the most decisions the analysis holds per cell.`,
    );
  }
  const game = catalog.games.find((g) => g.id === gameId);
  if (!game) {
    throw new UsageError(
      `${where}: unknown game "${gameId}"; valid: ${catalog.games.map((g) => g.id).join(", ")}.`,
    );
  }
  if (game.rounds > 1) {
    // A count says how often an action was chosen in one decision; a round of a repeated game depends on
    // the rounds before it, so its choices are not draws of one distribution and need their transcripts.
    const oneShot = catalog.games.filter((g) => g.rounds === 1).map((g) => g.id);
    throw new UsageError(
      `${where}: ${gameId} is a repeated game (${game.rounds} rounds) and counts are one-shot only; one-shot games: ${oneShot.join(", ")} (import a repeated game's transcripts with import matches).`,
    );
  }
  if (!game.variants[variant as keyof typeof game.variants]) {
    throw new UsageError(
      `${where}: game ${gameId} has no variant "${variant}"; valid: ${Object.keys(game.variants).join(", ")}.`,
    );
  }
  if (!game.actions.includes(action)) {
    throw new UsageError(
      `${where}: "${action}" is not an action of ${gameId}; valid: ${game.actions.join(", ")}.`,
    );
  }
  const framingProblem = importedFramingProblem(
    catalog,
    gameId,
    variant,
    framing,
    options.freeFramings === true,
  );
  if (framingProblem !== null) throw new UsageError(`${where}: ${framingProblem}`);
  return {
    player,
    game: gameId,
    variant,
    framing,
    ...(session === undefined ? {} : { session }),
    action,
    count,
  };
}

function firstSentence(message: string): string {
  return (message.split(/\.\s/)[0] ?? message).replace(/\.$/, "");
}
