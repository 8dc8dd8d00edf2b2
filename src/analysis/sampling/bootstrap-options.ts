/** The bootstrap settings every analysis accepts, with the defaults of SPEC §4. */
export interface BootstrapOptions {
  /** Replicates B (default 10,000). */
  readonly bootstrap?: number;
  /** Seed of the bootstrap stream (default 1); the same seed gives the same intervals. */
  readonly seed?: number;
  /** Two-sided interval level (default 0.95). */
  readonly confidence?: number;
}

/** Apply the defaults and refuse values that cannot be used, naming them. */
export function bootstrapSettings(options: BootstrapOptions): {
  bootstrap: number;
  seed: number;
  confidence: number;
} {
  const { bootstrap = 10_000, seed = 1, confidence = 0.95 } = options;
  if (!Number.isInteger(bootstrap) || bootstrap < 1) {
    throw new Error(
      `Bootstrap size ${bootstrap} is invalid; it must be a positive integer number of replicates.`,
    );
  }
  if (!Number.isSafeInteger(seed)) throw new Error(`Seed ${seed} is invalid; it must be an integer.`);
  if (!(confidence > 0 && confidence < 1)) {
    throw new Error(`Confidence ${confidence} is invalid; it must lie strictly between 0 and 1.`);
  }
  return { bootstrap, seed, confidence };
}
