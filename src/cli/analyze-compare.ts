import { compareReport } from "../queries/compare-query.js";
import { compareText } from "../queries/compare-text.js";
import type { ParsedArgs } from "./command.js";
import { compareQueryOf } from "./compare-flags.js";
import { printResult, withDeps } from "./open-deps.js";

/** `analyze compare`: the same object the `compare` tool returns, or its tables. */
export async function analyzeCompare(args: ParsedArgs): Promise<void> {
  const query = compareQueryOf(args);
  await withDeps(args, (deps) => {
    const report = compareReport(deps, query);
    printResult(args, report, compareText(report));
  });
}
