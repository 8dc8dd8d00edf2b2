import { html, isolated, isolatedList, type SafeHtml } from "../html.js";
import type { ImportedSource, ReportHeader } from "../report-data.js";

/** Which players' numbers come from published data, by player: marked wherever the player appears. */
export function importedPlayers(header: ReportHeader): Map<string, string> {
  const marks = new Map<string, string>();
  for (const source of header.provenance?.imported ?? []) {
    for (const player of source.players) marks.set(player, source.source);
  }
  return marks;
}

/**
 * A player's name in a table cell, with "(imported: SOURCE)" on a line of its own when its data was
 * imported (counts or transcripts), not live play. The cell takes its writing direction from the name
 * (report-style.ts), so the name needs no isolation of its own there.
 */
export function playerName(player: string, imported: ReadonlyMap<string, string>): SafeHtml {
  const source = imported.get(player);
  return source === undefined
    ? html`${player}`
    : html`${player} <span class="imported" title="imported data">(imported: ${source})</span>`;
}

/** What reproduces the report: version, catalog, design, seeds, the exact command, and imported data. */
export function provenanceSection(header: ReportHeader): SafeHtml {
  const p = header.provenance;
  if (!p) return html``;
  const design = header.study
    ? html`<dt>Design hash</dt><dd><code>${header.study.design_hash}</code></dd>`
    : html`<dt>Design hash</dt><dd>none (no study selected)</dd>`;
  const imported =
    p.imported.length === 0
      ? html`<p>No imported data: every number comes from play recorded by same-game.</p>`
      : html`<p>Imported data (not played through this server: no prompts were shown by it), marked <span class="imported">(imported: source)</span> beside its players:</p><ul>${p.imported.map(
          (s) =>
            html`<li><strong>${isolated(s.source)}</strong>: ${importedWhat(s)}, ${s.decisions.toLocaleString("en-US")} decisions, players ${isolatedList(s.players)}${s.citation ? html` — ${s.citation}` : html``}.</li>`,
        )}</ul>`;
  return html`<section id="provenance"><h2>Provenance and reproduction</h2><dl class="meta"><dt>same-game</dt><dd>version ${p.server_version}</dd><dt>Catalog fingerprint</dt><dd><code>${p.catalog_fingerprint}</code></dd>${design}<dt>Seed, bootstrap</dt><dd>seed ${p.seed}, B = ${p.bootstrap.toLocaleString("en-US")}</dd><dt>Command</dt><dd><code>${p.command}</code></dd></dl>${imported}</section>`;
}

/** What a source holds: counts (with or without sessions) or match transcripts. */
function importedWhat(s: ImportedSource): string {
  if (s.kind === "transcripts") return `${s.rows.toLocaleString("en-US")} match transcripts`;
  const sessions =
    s.sessions === null || s.sessions === 0
      ? "aggregate counts, no sessions"
      : `counts of ${s.sessions.toLocaleString("en-US")} sessions`;
  return `${s.rows.toLocaleString("en-US")} count rows (${sessions})`;
}
