import type { Catalog } from "../domain/catalog.js";
import type { Store } from "../store/store.js";

/** What the play and analysis services run on: the record and the certified catalog. */
export interface PlayDeps {
  readonly store: Store;
  readonly catalog: Catalog;
}
