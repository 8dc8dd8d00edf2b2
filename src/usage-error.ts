/**
 * A mistake the user can fix (a bad flag, an unknown id, a malformed file). The CLI prints its one-line
 * message on stderr and exits 2; MCP tools return it as an `isError` result. Anything else is internal.
 */
export class UsageError extends Error {
  override readonly name: string = "UsageError";
}
