/**
 * `same-game export decisions | head -1`: the reader closes the pipe after the line it wanted, and the next
 * write to stdout fails with EPIPE. Unhandled, that error ends the process with a stack trace and exit 1,
 * as if the export had failed; it did what was asked. A closed stdout is therefore dropped quietly here,
 * for every verb at once (export, analyze --json, study show, run's summary …): whatever is left to write
 * has no reader, and the verb finishes as it would have. Any other stdout failure still surfaces.
 */
export function quietWhenStdoutReaderLeaves(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") return;
    // Left for another listener (serve's MCP transport has its own), else as unhandled as before.
    if (stream.listenerCount("error") === 1) throw error;
  });
}
