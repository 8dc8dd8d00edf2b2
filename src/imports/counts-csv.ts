import { z } from "zod";
import type { ImportedCountRow } from "../store/records.js";
import { UsageError } from "../usage-error.js";

const REQUIRED_COLUMNS = ["player", "game", "framing", "action", "count"] as const;
const OPTIONAL_COLUMNS = ["variant"] as const;

const name = z.string().trim().min(1).max(200);
const CountRowSchema = z.object({
  player: name,
  game: name,
  variant: name.default("base"),
  framing: name,
  action: name,
  count: z.coerce.number().int().min(0).max(1e9),
});

/**
 * Parses published aggregate counts (`player,game,framing,action,count`, optional `variant`), as in
 * shared/data/lore-heydari-2024-business-vs-friend.csv. All or nothing: the first bad line is reported
 * with its line number and no row is returned. Fields are plain (no quoted commas), as in the published files.
 */
export function parseCountsCsv(text: string, fileLabel: string): ImportedCountRow[] {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? "").split(",").map((h) => h.trim());
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  const unknown = header.filter(
    (h) =>
      !(REQUIRED_COLUMNS as readonly string[]).includes(h) &&
      !(OPTIONAL_COLUMNS as readonly string[]).includes(h),
  );
  if (missing.length > 0 || unknown.length > 0) {
    throw new UsageError(
      `${fileLabel}: line 1: the header must name the columns ${REQUIRED_COLUMNS.join(",")} (and optionally variant); ` +
        `got "${lines[0] ?? ""}".`,
    );
  }
  const rows: ImportedCountRow[] = [];
  const seen = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === "") continue;
    const fields = line.split(",");
    if (fields.length !== header.length) {
      throw new UsageError(
        `${fileLabel}: line ${i + 1}: expected ${header.length} fields, got ${fields.length}.`,
      );
    }
    const record = Object.fromEntries(header.map((h, k) => [h, fields[k]]));
    const parsed = CountRowSchema.safeParse(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`${fileLabel}: line ${i + 1}: ${issue?.path.join(".")}: ${issue?.message}.`);
    }
    const row = parsed.data;
    const key = [row.player, row.game, row.variant, row.framing, row.action].join("\u0000");
    if (seen.has(key)) {
      throw new UsageError(
        `${fileLabel}: line ${i + 1}: a second count for ${row.player} / ${row.game} / ${row.framing} / ${row.action}.`,
      );
    }
    seen.add(key);
    rows.push(row);
  }
  if (rows.length === 0) throw new UsageError(`${fileLabel}: no count rows after the header.`);
  return rows;
}
