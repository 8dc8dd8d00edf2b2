/**
 * A failure outside same-game that the user can read but not fix with other arguments: a server or endpoint
 * it talks to failing a request. The CLI prints its message on one line and exits 1, without a stack trace
 * (the trace would be the SDK's, and says nothing the message does not). A bug of same-game stays an
 * ordinary error, printed in full.
 */
export class OutsideFailure extends Error {
  override readonly name: string = "OutsideFailure";
}
