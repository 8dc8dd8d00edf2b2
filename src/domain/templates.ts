// Framing texts are templates with `{name}` placeholders so one framing can serve every game with the
// same actions; the framing's own wording decides where labels and numbers land in the prompt.

const PLACEHOLDER = /\{(\w+)\}/g;

/** The placeholder names a template uses, in order of appearance. */
export function placeholdersOf(template: string): string[] {
  return Array.from(template.matchAll(PLACEHOLDER), (match) => match[1] as string);
}

/** The template with every placeholder replaced; a placeholder without a value is a programming error. */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Template placeholder ${whole} has no value.`);
    return String(value);
  });
}
