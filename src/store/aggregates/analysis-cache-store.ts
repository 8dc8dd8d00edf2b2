import { AnalysisReads } from "./analysis-reads.js";

/** A stored analysis result: its JSON text, for the record version it was computed at. */
export interface CachedAnalysisRow {
  readonly result: string;
  readonly record_version: number;
}

/**
 * The analysis result cache in the record (migration 012), shared by every replica on it. Its writes are
 * single statements outside `transaction()`: storing a result is no change of the record, so it must not
 * move the record's version (and a read-only record simply stores nothing).
 */
export class AnalysisCacheStore extends AnalysisReads {
  /** The result stored under `key` for exactly `version`, if any. */
  cachedAnalysis(key: string, version: number): string | undefined {
    const row = this.stmt(
      "SELECT result, record_version FROM analysis_cache WHERE cache_key = ? AND record_version = ?",
    ).get(key, version) as CachedAnalysisRow | undefined;
    return row?.result;
  }

  /**
   * Stores `result` under `key` for `version`; drops every entry of another version (none can answer
   * again: the version only grows) and then the oldest entries beyond `maxEntries`.
   */
  storeAnalysis(key: string, version: number, result: string, maxEntries: number): void {
    if (this.readonly) return;
    this.stmt(
      `INSERT INTO analysis_cache (cache_key, record_version, result, stored_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (cache_key) DO UPDATE SET record_version = excluded.record_version,
         result = excluded.result, stored_at = excluded.stored_at`,
    ).run(key, version, result, this.now());
    this.stmt("DELETE FROM analysis_cache WHERE record_version < ?").run(version);
    this.stmt(
      `DELETE FROM analysis_cache WHERE cache_key NOT IN (
         SELECT cache_key FROM analysis_cache ORDER BY stored_at DESC, cache_key DESC LIMIT ?)`,
    ).run(maxEntries);
  }
}
