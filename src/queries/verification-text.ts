import { printable } from "./format.js";

// The verification part of every readable analysis twin: the checks' verdict (invariants, so a failure
// means something is wrong), then the notes (information about the result, never a failure).

interface CheckLike {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

interface NoteLike {
  readonly name: string;
  readonly detail: string;
}

export function verificationText(checks: readonly CheckLike[], notes: readonly NoteLike[] = []): string {
  const failed = checks.filter((c) => !c.ok);
  const verdict =
    failed.length === 0
      ? `All ${checks.length} verification checks ok.`
      : `${failed.length} of ${checks.length} verification checks FAILED:\n${failed.map((c) => `- ${c.name}: ${printable(c.detail)}`).join("\n")}`;
  if (notes.length === 0) return verdict;
  return [
    verdict,
    `Notes (information, not failures):`,
    ...notes.map((n) => `- ${n.name}: ${printable(n.detail)}`),
  ].join("\n");
}
