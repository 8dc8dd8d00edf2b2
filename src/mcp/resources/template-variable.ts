import { ProtocolError, ProtocolErrorCode, type Variables } from "@modelcontextprotocol/server";
import { printable } from "../../queries/format.js";

/**
 * One variable of a resource template, as the id it names. A client fills a template by RFC 6570
 * expansion, which percent-encodes every reserved character (`business+familiar` becomes
 * `business%2Bfamiliar`), and the SDK hands back the matched text still encoded: it is decoded here, before
 * any lookup, so the URI a client builds from the server's own template and completion reads what it names.
 * Text that is not valid percent-encoding names nothing and is refused as such.
 */
export function templateVariable(uri: URL, variables: Variables, name: string): string {
  const raw = String(variables[name] ?? "");
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Resource URI ${printable(uri.href)}: {${name}} "${printable(raw)}" is not valid percent-encoding (each % must start a %XX escape of UTF-8 bytes, e.g. %2B for "+").`,
      { uri: uri.href },
    );
  }
}
