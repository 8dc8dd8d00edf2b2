// The standard normal's upper tail, for the story × labels tests' p-values.

/**
 * P(Z > z) for a standard normal Z, by the complementary error function's Chebyshev fit (Numerical
 * Recipes' erfcc, fractional error below 1.2·10⁻⁷ everywhere), which is ample for a p-value.
 */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}
