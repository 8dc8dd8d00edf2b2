/**
 * The note naming groups whose names are the same text in different Unicode forms (NFC): "Müller" typed
 * with ü as one character and as u plus a combining diaeresis are two labels to the record, as they
 * must be (text is kept exactly), but print alike, so a ranking showed two rows of the same name with
 * nothing to tell a reader which was which. The note spells each with its non-ASCII characters as code
 * points. Null when no two groups print alike.
 */
export function lookAlikeGroupsNote(groups: readonly string[]): string | null {
  const byForm = new Map<string, string[]>();
  for (const group of groups) {
    const form = group.normalize("NFC");
    const alike = byForm.get(form);
    if (alike) alike.push(group);
    else byForm.set(form, [group]);
  }
  const sets = [...byForm.values()].filter((alike) => alike.length > 1);
  if (sets.length === 0) return null;
  return `Groups whose names print alike but are different labels (Unicode forms differ): ${sets
    .map((alike) => alike.map(codePoints).join(" and "))
    .join("; ")}. They are compared and ranked as different groups.`;
}

/** A name with every character outside printable ASCII written as \u{…}. */
function codePoints(name: string): string {
  return [...name]
    .map((c) => (/^[\x20-\x7e]$/.test(c) ? c : `\\u{${(c.codePointAt(0) as number).toString(16)}}`))
    .join("");
}
