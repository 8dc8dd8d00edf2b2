import { UnknownStudyError } from "../play/unknown-study-error.js";
import type { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";

/** How many study ids the message lists before "…": enough to spot a typo, never a wall. */
const SHOWN_IDS = 5;

/** The CLI's words for an unknown study id: the ids the record holds (a few) and the command that registers one. */
export function unknownStudyText(studyId: string, known: readonly string[]): string {
  const held =
    known.length === 0
      ? "the record holds no study yet"
      : `the record holds ${known.slice(0, SHOWN_IDS).join(", ")}${known.length > SHOWN_IDS ? `, … (${known.length} in all: same-game study list)` : ""}`;
  return `No study with id "${studyId}"; ${held}; register one with same-game study register FILE.json.`;
}

/** `--study ID` of a verb that reads the record must name a study of it: checked before anything is read. */
export function requireStudy(store: Store, studyId: string | undefined): void {
  if (studyId !== undefined && !store.getStudy(studyId)) throw new UnknownStudyError(studyId);
}

/** An unknown study met while `work` ran, reworded for the terminal while the record is still open. */
export async function withStudyIdsNamed<T>(store: Store, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw reworded(store, error);
  }
}

/** The same for work that is synchronous. */
export function namingStudyIds<T>(store: Store, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw reworded(store, error);
  }
}

function reworded(store: Store, error: unknown): unknown {
  if (!(error instanceof UnknownStudyError)) return error;
  const known = store.listStudies().map((study) => study.id);
  return new UsageError(unknownStudyText(error.studyId, known));
}
