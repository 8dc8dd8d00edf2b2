// The seam under the Store: one synchronous interface, two databases. The Store speaks SQL through an
// Engine and never sees which one it is, except where a statement has to be written twice (see dialect.ts).

/** A prepared statement: `?` positional parameters, or one object for `@name` parameters. */
export interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /**
   * Runs a write whose count of changed rows nobody reads. Inside a transaction an engine may send it
   * later, together with the next statement that waits for an answer (at the latest the COMMIT); a failure
   * then surfaces there and fails the transaction all the same. Engines without it run `run`.
   */
  defer?(...params: unknown[]): void;
}

export type EngineKind = "sqlite" | "postgres";

export interface Engine {
  readonly kind: EngineKind;
  /** Prepares `sql` once; the Store caches the result per SQL text. */
  prepare(sql: string): Statement;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): void;
  /** Runs `work` as one transaction; a nested call is a savepoint inside it. */
  transaction<T>(work: () => T): T;
  close(): void;
}
