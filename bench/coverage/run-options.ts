// The command-line options every coverage simulation takes: `--studies N`, `--replicates B` and
// `--only TEXT` (run only the rows whose name holds TEXT), plus any of its own through `arg`.

/** The value after `--name` on the command line, or `fallback`. */
export const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

export const STUDIES = Number(arg("studies", "1000"));
export const REPLICATES = Number(arg("replicates", "1000"));
export const ONLY = arg("only", "");
