/** The sample variance (B − 1) of replicates. */
export function variance(values: Float64Array): number {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  return squares / Math.max(1, values.length - 1);
}
