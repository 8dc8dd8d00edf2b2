// The behaviour hints every tool declares: hosts use them to decide what needs the user's approval.

/** Analysis and lookups: they read the record and change nothing. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** Play tools that add to the record and never delete. */
export const RECORDING = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** Recording tools whose repeated call with the same arguments changes nothing more. */
export const IDEMPOTENT_RECORDING = { ...RECORDING, idempotentHint: true } as const;
