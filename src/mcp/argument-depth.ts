// JSON.parse reads arrays and objects nested thousands deep, but every step that walks a value again by
// recursion (JSON.stringify of a refused value, a validation library) runs out of stack on one: the caller
// was answered "Maximum call stack size exceeded". No argument of this server nests more than a few levels
// (a study design's contrasts are the deepest), so a tool call whose argument nests deeper than the limit
// is refused by name before anything else reads it.

/** The most levels of arrays and objects inside one another an argument may hold. */
export const MAX_ARGUMENT_DEPTH = 64;

/** The name of the first argument nested deeper than `limit`, or null when none is. */
export function tooDeepArgument(args: object, limit = MAX_ARGUMENT_DEPTH): string | null {
  for (const [name, value] of Object.entries(args)) {
    if (nestsDeeperThan(value, limit)) return name;
  }
  return null;
}

/** Walks the value with a stack of its own (a recursive walk would overflow on the very input it checks). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [here, depth] = next;
    if (here === null || typeof here !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Object.values(here)) {
      if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
    }
  }
  return false;
}
