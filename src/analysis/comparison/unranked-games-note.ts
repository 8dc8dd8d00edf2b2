/**
 * The note naming the games some group played under every framing that the ranks leave out, and the
 * groups that did not play them so. Ranks, λ and exploitability are computed on the games every group
 * played under every framing: one group short of a framing in one game takes that game out of every
 * group's rank. The header's list of ranked games says which games are ranked, not which were dropped nor
 * who dropped them; without this note a ranking of five models on four games became a ranking on one,
 * because a sixth had played three of them under one framing only, and nothing said so.
 * Null when no game is left out (or none is ranked: a note of its own says so).
 */
export function unrankedGamesNote(
  groups: readonly string[],
  complete: readonly ReadonlySet<string>[],
  rankedGames: readonly string[],
): string | null {
  if (rankedGames.length === 0) return null;
  const ranked = new Set(rankedGames);
  const leftOut = [...new Set(complete.flatMap((games) => [...games]))].filter((g) => !ranked.has(g)).sort();
  if (leftOut.length === 0) return null;
  // Games left out by the same groups are named together.
  const byLackers = new Map<string, string[]>();
  for (const game of leftOut) {
    const lackers = groups.filter((_, g) => !(complete[g] as ReadonlySet<string>).has(game)).map(quoted);
    const key = lackers.join(", ");
    const games = byLackers.get(key);
    if (games) games.push(game);
    else byLackers.set(key, [game]);
  }
  const why = [...byLackers].map(
    ([lackers, games]) => `${games.join(", ")} (not played under every framing by ${lackers})`,
  );
  return (
    `Ranked on ${rankedGames.join(", ")} only, the games every group played under every framing (R, λ and exploitability alike); ` +
    `left out of the ranks: ${why.join("; ")}. Each pair is still compared on the games both played (games used). ` +
    "To rank on more games, compare without the groups that lack them, or play the missing cells."
  );
}

/** A name as the list flags read it: in double quotes (a quote inside doubled) when it holds a comma or a quote. */
function quoted(name: string): string {
  return /[",]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name;
}
