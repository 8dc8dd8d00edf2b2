import type { EngineKind } from "./engines/engine.js";

// The few SQL constructs the two engines spell differently, side by side. Every other statement of the
// Store is one text for both (ON CONFLICT, RETURNING, CASE sums and CAST are portable).

export interface Dialect {
  /** True when the JSON-array parameter `@param` is absent (null: match everything). */
  isNull(param: string): string;
  /** `column` is one of the strings of the JSON-array parameter `@param`. */
  inJsonList(column: string, param: string): string;
  /** The first element (as text) of the JSON array stored as text in `column`. */
  firstJsonElement(column: string): string;
  /** The length of the JSON array stored as text in `column`. */
  jsonLength(column: string): string;
  /** A JSON array (as text) of the distinct `column` values of `from … where`, sorted. */
  sortedDistinctJsonArray(column: string, fromWhere: string): string;
  /** The rows of a group as text: one JSON array of `values` per row, joined by commas (in no set order). */
  jsonArraysOfGroup(values: readonly string[]): string;
}

const sqlite: Dialect = {
  isNull: (param) => `@${param} IS NULL`,
  inJsonList: (column, param) => `${column} IN (SELECT value FROM json_each(@${param}))`,
  firstJsonElement: (column) => `json_extract(${column}, '$[0]')`,
  jsonLength: (column) => `json_array_length(${column})`,
  sortedDistinctJsonArray: (column, fromWhere) =>
    `(SELECT json_group_array(v) FROM (SELECT DISTINCT ${column} AS v ${fromWhere} ORDER BY v))`,
  jsonArraysOfGroup: (values) => `group_concat(json_array(${values.join(", ")}), ',')`,
};

// PostgreSQL infers a parameter's type from its use; `$1 IS NULL` alone says nothing, so the parameter is
// cast to text there and to json where its elements are read.
const postgres: Dialect = {
  isNull: (param) => `CAST(@${param} AS TEXT) IS NULL`,
  inJsonList: (column, param) => `${column} IN (SELECT json_array_elements_text(CAST(@${param} AS json)))`,
  firstJsonElement: (column) => `(CAST(${column} AS json) ->> 0)`,
  jsonLength: (column) => `json_array_length(CAST(${column} AS json))`,
  sortedDistinctJsonArray: (column, fromWhere) =>
    `(SELECT CAST(coalesce(json_agg(v ORDER BY v), '[]') AS TEXT) FROM (SELECT DISTINCT ${column} AS v ${fromWhere}) AS d)`,
  jsonArraysOfGroup: (values) => `string_agg(CAST(json_build_array(${values.join(", ")}) AS TEXT), ',')`,
};

export function dialectOf(kind: EngineKind): Dialect {
  return kind === "postgres" ? postgres : sqlite;
}

/** The shared WHERE clause of the analysis queries over `matches m`; parameters from filterParams. */
export function filterSql(d: Dialect): string {
  return `(${d.isNull("players")} OR ${d.inJsonList("m.player", "players")})
  AND (${d.isNull("games")} OR ${d.inJsonList("m.game", "games")})
  AND (${d.isNull("variants")} OR ${d.inJsonList("m.variant", "variants")})
  AND (${d.isNull("framings")} OR ${d.inJsonList("m.framing", "framings")})
  AND (CAST(@study_id AS TEXT) IS NULL OR m.study_id = @study_id)
  AND (CAST(@principal AS TEXT) IS NULL OR m.principal = @principal OR m.source IS NOT NULL)`;
}

/** filterSql over `decision_tallies m` (db/007), where '' stands for no study and no source. */
export function tallyFilterSql(d: Dialect): string {
  return `(${d.isNull("players")} OR ${d.inJsonList("m.player", "players")})
  AND (${d.isNull("games")} OR ${d.inJsonList("m.game", "games")})
  AND (${d.isNull("variants")} OR ${d.inJsonList("m.variant", "variants")})
  AND (${d.isNull("framings")} OR ${d.inJsonList("m.framing", "framings")})
  AND (CAST(@study_id AS TEXT) IS NULL OR m.study_id = @study_id)
  AND (CAST(@principal AS TEXT) IS NULL OR m.principal = @principal OR m.source <> '')`;
}
