import { ComparisonReads } from "./comparison-reads.js";

/** A batch of `run --batch` as the record keeps it (migration 016). */
export interface RunnerBatchRow {
  readonly batch_id: string;
  readonly provider: string;
  readonly url: string;
  readonly model: string;
  readonly study_id: string;
  readonly player: string;
  readonly requests: number;
  readonly submitted_at: string;
}

/** One request of a batch: which trial and sample it is for, and the request as JSON. */
export interface RunnerBatchRequestRow {
  readonly batch_id: string;
  readonly custom_id: string;
  readonly match_id: string;
  readonly trial_index: number;
  readonly sample_index: number;
  readonly request_json: string;
  /** The round as next_trial showed it (match id, round, prompt, labels), JSON. */
  readonly view_json: string;
  readonly recorded_at: string | null;
}

/**
 * The batches `same-game run --batch` submitted, and the trial behind each request: what lets a killed
 * run find its batches in flight by id, and map each result back to its trial exactly once.
 */
export class RunnerBatchStore extends ComparisonReads {
  /** A submitted batch with its requests, in one transaction: a batch is never half known. */
  insertRunnerBatch(
    batch: RunnerBatchRow,
    requests: readonly Omit<RunnerBatchRequestRow, "recorded_at">[],
  ): void {
    this.transaction(() => {
      this.stmt(
        `INSERT INTO runner_batches (batch_id, provider, url, model, study_id, player, requests, submitted_at)
         VALUES (@batch_id, @provider, @url, @model, @study_id, @player, @requests, @submitted_at)`,
      ).run(batch);
      const insert = this.stmt(
        `INSERT INTO runner_batch_requests (batch_id, custom_id, match_id, trial_index, sample_index, request_json, view_json)
         VALUES (@batch_id, @custom_id, @match_id, @trial_index, @sample_index, @request_json, @view_json)`,
      );
      for (const request of requests) insert.run(request);
    });
  }

  /** The batches of this study, player and endpoint whose results are not all mapped back yet, oldest first. */
  openRunnerBatches(key: {
    study_id: string;
    player: string;
    provider: string;
    url: string;
    model: string;
  }): RunnerBatchRow[] {
    return this.stmt(
      `SELECT batch_id, provider, url, model, study_id, player, requests, submitted_at FROM runner_batches
       WHERE study_id = @study_id AND player = @player AND provider = @provider AND url = @url
         AND model = @model AND ended_at IS NULL
       ORDER BY submitted_at, batch_id`,
    ).all(key) as RunnerBatchRow[];
  }

  runnerBatchRequests(batchId: string): RunnerBatchRequestRow[] {
    return this.stmt(
      `SELECT batch_id, custom_id, match_id, trial_index, sample_index, request_json, view_json, recorded_at
       FROM runner_batch_requests WHERE batch_id = ? ORDER BY custom_id`,
    ).all(batchId) as RunnerBatchRequestRow[];
  }

  /** The requests of one match's trial were answered and submitted: never again. */
  markBatchRequestsRecorded(batchId: string, matchId: string, at: string): void {
    this.transaction(() =>
      this.stmt(
        "UPDATE runner_batch_requests SET recorded_at = ? WHERE batch_id = ? AND match_id = ? AND recorded_at IS NULL",
      ).run(at, batchId, matchId),
    );
  }

  /** Every result of the batch has been mapped back. */
  endRunnerBatch(batchId: string, at: string): void {
    this.transaction(() =>
      this.stmt("UPDATE runner_batches SET ended_at = ? WHERE batch_id = ?").run(at, batchId),
    );
  }

  /** The status of a match (open, finished, …), or null when the record has no such match. */
  matchStatus(matchId: string): string | null {
    const row = this.stmt("SELECT status FROM matches WHERE id = ?").get(matchId) as
      | { status: string }
      | undefined;
    return row?.status ?? null;
  }
}
