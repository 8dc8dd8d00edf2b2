import { afterEach, beforeEach } from "vitest";
import type { EngineKind } from "../../src/store/engines/engine.js";
import type { MatchRecord } from "../../src/store/records.js";
import { Store } from "../../src/store/store.js";
import { firstRoundDecision, oneShotMatch } from "./match-record.js";
import { freshRecord, type TestRecord } from "./postgres.js";
import { memorySession } from "./session-record.js";

/**
 * A one-shot record small enough to count by hand, written straight into `store` (matches m1–m6, all in
 * the prisoner's dilemma). Player p: session s1 plays business twice (cooperate, listed first; defect,
 * listed first) and friend-sharing once (cooperate, listed first), so its sessions span cells; s2 and s3
 * each play business once (defect, listed second). Player q: session t1, one decision (business,
 * cooperate, listed first).
 */
export function playSmallRecord(store: Store): void {
  const at = "2026-12-01T00:00:00.000Z";
  let n = 0;
  const play = (player: string, session: string, framing: string, action: string, firstListed: boolean) => {
    const id = `m${++n}`;
    const order = firstListed ? [action, action === "cooperate" ? "defect" : "cooperate"] : [];
    const match = oneShotMatch(id, {
      player,
      session_id: session,
      framing,
      action_order: firstListed
        ? order
        : action === "cooperate"
          ? ["defect", "cooperate"]
          : ["cooperate", "defect"],
      created_at: at,
    });
    store.insertMatch(match);
    const decision = firstRoundDecision(id, action, { session_id: session, decided_at: at });
    store.saveDecision(decision, store.getMatch(id) as MatchRecord);
  };
  for (const s of ["s1", "s2", "s3"]) store.saveSession(memorySession(s));
  store.saveSession(memorySession("t1", { player: "q" }));
  play("p", "s1", "business", "cooperate", true);
  play("p", "s1", "business", "defect", true);
  play("p", "s1", "friend-sharing", "cooperate", true);
  play("p", "s2", "business", "defect", false);
  play("p", "s3", "business", "defect", false);
  play("q", "t1", "business", "cooperate", true);
}

/** The small record on a fresh database of `engine` for each test of the calling suite (call it inside one). */
export function useSmallRecord(engine: EngineKind): () => Store {
  let record: TestRecord;
  let store: Store;
  beforeEach(() => {
    record = freshRecord(engine);
    store = new Store(record.location);
    playSmallRecord(store);
  });
  afterEach(() => {
    store.close();
    record.dispose();
  });
  return () => store;
}
