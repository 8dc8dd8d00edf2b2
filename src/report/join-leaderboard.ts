import type { Leaderboard, ReportData, VerificationCheck } from "./report-data.js";

/** The players ranked (the leaderboard), or why each part could not be (one-shot, repeated play). */
export interface ReportLeaderboard {
  leaderboard: Leaderboard | null;
  reason: string | null;
  repeatedReason: string | null;
  /** The repeated-play comparison's notes: what its ranks leave out and why. */
  repeatedNotes?: string[];
}

/**
 * The report's sections (leaderboard null) and its leaderboard, computed apart, joined into what the
 * report shows: the leaderboard in its place, and why a part is missing after the sections' reasons.
 */
export function withLeaderboard(sections: ReportData, ranked: ReportLeaderboard): ReportData {
  const missing = [...(sections.missing ?? [])];
  if (ranked.reason) missing.push({ section: "leaderboard", reason: ranked.reason });
  if (ranked.repeatedReason) missing.push({ section: "leaderboard-repeated", reason: ranked.repeatedReason });
  const notes = [
    // A player with matches but no valid decision is in no rank: the leaderboard says so, and why.
    ...(ranked.leaderboard?.left_out ?? []).map((l) => ({
      name: "leaderboard_left_out",
      detail: `Not ranked: ${l.reason}.`,
    })),
    ...(ranked.repeatedNotes ?? []).map((detail) => ({ name: "leaderboard_repeated", detail })),
  ];
  return {
    ...sections,
    missing,
    leaderboard: ranked.leaderboard,
    ...(notes.length > 0 ? { notes: [...(sections.notes ?? []), ...notes] } : {}),
  };
}

/** The report's sections computed without the record's integrity check, with it: the last check, as reportData lists it. */
export function withIntegrityCheck(sections: ReportData, check: VerificationCheck): ReportData {
  return { ...sections, checks: [...(sections.checks ?? []), check] };
}
