import { html, type SafeHtml } from "../html.js";
import type { AnalysisNote, VerificationCheck } from "../report-data.js";

export function failedCount(checks: readonly VerificationCheck[]): number {
  return checks.filter((c) => !c.ok).length;
}

/** The notes under the checks: information about the results, set apart so no reader takes one for a failure. */
function notesList(notes: readonly AnalysisNote[]): SafeHtml | string {
  if (notes.length === 0) return "";
  return html`<h3 id="notes">Notes</h3><p class="muted">Information about the results above, not failures.</p><ul class="notes">${notes.map((n) => html`<li><strong>${n.name}</strong>: ${n.detail}</li>`)}</ul>`;
}

/** Every check, failures first: a failed check is reported, never hidden (SPEC §4); then the notes. */
export function checksSection(
  checks: readonly VerificationCheck[],
  notes: readonly AnalysisNote[] = [],
): SafeHtml {
  if (checks.length === 0) {
    return html`<section id="checks"><h2>Verification</h2><p class="no-data">No verification checks were run for this report.</p>${notesList(notes)}</section>`;
  }
  const ordered = [...checks.filter((c) => !c.ok), ...checks.filter((c) => c.ok)];
  const rows = ordered.map((c) =>
    c.ok
      ? html`<tr class="ok"><td class="status">✓ ok</td><td>${c.name}</td><td class="detail">${c.detail}</td></tr>`
      : html`<tr class="failed"><td class="status">✗ FAILED</td><td>${c.name}</td><td class="detail">${c.detail}</td></tr>`,
  );
  const failed = failedCount(checks);
  const summary =
    failed === 0
      ? html`<p class="summary ok">All ${checks.length} checks passed.</p>`
      : html`<p class="summary failed">${failed} of ${checks.length} checks FAILED; read them before trusting the numbers above.</p>`;
  return html`<section id="checks"><h2>Verification</h2>${summary}<table class="checks">
<thead><tr><th>Status</th><th>Check</th><th>Detail</th></tr></thead><tbody>${rows}</tbody></table>${notesList(notes)}</section>`;
}
