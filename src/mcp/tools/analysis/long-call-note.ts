/**
 * What an agent reading a long analysis tool's description should know before it calls: the call can take
 * seconds on a large record, and asking the same thing again of an unchanged record is answered from the
 * result cache, the same numbers (another seed is what draws new replicates). One sentence, the same in
 * every such tool, within the 1,024 characters a provider allows a description.
 */
export const LONG_CALL_NOTE =
  "Takes seconds on a large record (progress notifications when the request asks for them); the same call on an unchanged record is answered from a cache with the same numbers, and another seed draws new replicates.";

/** A long analysis tool's description with the note after it. */
export function withLongCallNote(description: string): string {
  return `${description} ${LONG_CALL_NOTE}`;
}
