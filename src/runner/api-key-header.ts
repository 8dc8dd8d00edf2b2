// A model endpoint's key travels in an HTTP header (`Authorization: Bearer KEY`, or `x-api-key`). A header
// value may hold neither a control character nor one beyond Latin-1 (RFC 9110, field-value): the request
// is refused inside the client library, which reports it as a connection error ("invalid authorization
// header") that the runner then retries as if the endpoint were unreachable. Whitespace around the key is
// dropped on the way, as HTTP does (a key pasted with its line break still works).

const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** The first character of `key` no HTTP header can carry (its 1-based position, after trimming), or null. */
export function unsendableKeyCharacter(key: string): { position: number; code: number } | null {
  const value = key.replace(HTTP_WHITESPACE, "");
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || code > 0xff) return { position: i + 1, code };
  }
  return null;
}
