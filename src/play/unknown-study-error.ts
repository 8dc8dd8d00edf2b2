import { printable } from "../queries/format.js";
import { UsageError } from "../usage-error.js";

/**
 * A study id the record does not hold (or does not show this caller). Its message speaks to an MCP
 * client; the CLI words it for a terminal, with the ids it does hold (see cli/unknown-study.ts).
 */
export class UnknownStudyError extends UsageError {
  override readonly name = "UnknownStudyError";
  constructor(readonly studyId: string) {
    super(`No study with id "${printable(studyId)}"; register one with register_study.`);
  }
}
