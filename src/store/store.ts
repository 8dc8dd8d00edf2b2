import { ErasureStore } from "./aggregates/erasure-store.js";

export type {
  CellActionCountRow,
  OneShotTallyRow,
  RepeatedRoundRow,
} from "./aggregates/analysis-reads.js";
export {
  COMPARISON_FACTORS,
  type ComparisonCountRow,
  type ComparisonFactor,
} from "./aggregates/comparison-reads.js";
export { promptHash } from "./aggregates/decision-store.js";
export type { ErasureCounts, ErasureTarget, LiveLease } from "./aggregates/erasure-store.js";
export type { RunLeaseRow } from "./aggregates/run-lease-store.js";
export type { RunnerBatchRequestRow, RunnerBatchRow } from "./aggregates/runner-batch-store.js";
export type { PlayerSpendRow, SpendCellRow } from "./aggregates/spend-reads.js";
export type { MatchSummaryRow, StudyTrialCountRow } from "./aggregates/study-match-store.js";
export type { StoreOptions } from "./store-core.js";

/**
 * The record: the only module that speaks SQL. Every statement is prepared once and reused; a writing
 * operation of the play loop runs inside `transaction()` so one tool call is one transaction. The record is
 * an SQLite file (a path) or a PostgreSQL database (a postgres:// URL); see engines/ and dialect.ts. Its
 * statements live by aggregate in aggregates/ (sessions, HTTP sessions, studies and matches, decisions and
 * attempts, imports, analysis reads, the analysis result cache, the comparison's reads, the runner's batches and leases, erasure), each class
 * extending the one before.
 */
export class Store extends ErasureStore {
  /**
   * The same record seen by one principal (a bearer token): its analysis queries leave out every other
   * principal's matches, so to token B the play of token A does not exist. The view shares this store's
   * connection and prepared statements; closing it closes both.
   */
  scopedTo(principal: string): Store {
    return Object.create(this, { principalScope: { value: principal, enumerable: true } }) as Store;
  }
}
