import { setTimeout as sleep } from "node:timers/promises";
import { loadCatalog } from "../../domain/catalog.js";
import type { ModelCall } from "../../domain/model-call.js";
import { trialsBeforeNextLook } from "../../play/look-wave.js";
import type { Store } from "../../store/store.js";
import { replyKey, type TrialRef } from "../cache/reply-key.js";
import type { ChatRequest, ModelReply } from "../endpoint.js";
import { answeredCall, callModel, fromCache, requestEstimate } from "../model-caller.js";
import { playTextMatch } from "../play-text.js";
import { withRetries } from "../retry.js";
import { RunStats, StopSignal } from "../run-stats.js";
import type { RunOptions, RunSummary, RunTotal } from "../run-study.js";
import { initialTotal, openSeat, studyComplete, trialDealer } from "../run-study.js";
import type { TrialView } from "../seat.js";
import { BATCH_LIMITS, type BatchApi, type BatchRequest, type BatchResult } from "./batch-api.js";

export interface BatchSettings {
  /** `--batch-size`: the most requests in one provider batch. */
  readonly size: number;
  /** The record the batch ids and their trials are kept in (the run's --db). */
  readonly ledger: Store;
  /** First wait between looks at a batch in flight; it grows by half each look up to the retry policy's longest wait. */
  readonly firstPollMs?: number;
  /** One line per oddity a provider sent (a result for an id no request had, a result twice). */
  readonly onWarning?: (message: string) => void;
}

/** A trial whose first replies come from a batch: its round as next_trial showed it, and its budget name. */
interface BatchTrial {
  readonly view: TrialView;
  readonly ref: TrialRef;
}

const DEFAULT_FIRST_POLL_MS = 1000;

/**
 * `same-game run --batch`: text mode, one seat. Each wave takes the trials the run may play (next_trial,
 * as without --batch; under adaptive stopping only those up to the next look, so that a game the look
 * stops is never batched again), looks their first prompts up in the cache, submits the rest to the
 * provider's batch API in chunks of at most --batch-size requests, and keeps each batch id and the trial
 * behind each request in the record before waiting. It then polls every batch in flight (with backoff)
 * and, as each ends, maps its results back by custom_id and submits each trial's reply exactly once: a
 * request the batch did not answer (errored, expired, canceled, missing) is made again directly with the
 * usual retries, a refused reply is answered in the same conversation directly, and so is every later
 * round of a repeated game. A run killed while a batch is in flight finds it in the record when started
 * again and waits for it instead of submitting it again.
 */
export async function runBatchStudy(options: RunOptions, batch: BatchSettings): Promise<RunSummary> {
  const stats = new RunStats();
  const seat = await openSeat(options, options.seat, stats);
  const { endpoint } = seat.settings;
  const api = endpoint.batches as BatchApi;
  const { ledger } = batch;
  const total: RunTotal = initialTotal(options);
  const nextTrial = trialDealer(seat, options.studyId, total);
  const report = () => options.onProgress?.(stats, total);
  stats.onChange = report;
  const onInterrupt = () => stats.interrupt();
  if (options.interrupt?.aborted) onInterrupt();
  else options.interrupt?.addEventListener("abort", onInterrupt, { once: true });
  const ledgerKey = {
    study_id: options.studyId,
    player: seat.connection.player,
    provider: endpoint.provider,
    url: endpoint.url,
    model: endpoint.model,
  };
  const { budget } = options;
  let complete = false;
  let started = 0;
  let admissions = 0;
  let budgetFull = false;
  const leftOpen = new Set<string>();
  const budgetKeys = new Map<string, string>();
  /** The budget's reservation of each request this run submitted, by custom_id, until its result is charged. */
  const reservations = new Map<string, number>();
  const endReservation = (customId: string, reply?: ModelReply) => {
    const ticket = reservations.get(customId);
    if (ticket === undefined) return;
    if (reply) budget?.observe(ticket, reply.promptTokens, reply.completionTokens);
    budget?.endCall(ticket);
    reservations.delete(customId);
  };
  const warn = (message: string) => batch.onWarning?.(message);
  // Under adaptive stopping a wave ends at the next look, so a game the look stops gets no further batch.
  const schedule = { store: ledger, catalog: loadCatalog() };
  const dealt = new Set<number>();
  // The server the runner spawns on its --db record plays for the record's own principal, "local".
  const waveSize = () =>
    trialsBeforeNextLook(schedule, options.studyId, seat.connection.player, "local", dealt) ?? Infinity;
  /** A batch API call with the run's retries (rate limits, server errors), cut short by Ctrl-C. */
  const retried = async <T>(work: () => Promise<T>): Promise<T> =>
    (
      await stats.interruptible((interruption) =>
        withRetries(
          work,
          seat.settings.retry,
          (error) => stats.retried(error.kind),
          Math.random,
          interruption,
        ),
      )
    ).value;

  /** A trial's replies are in (from the batch, the cache or a direct call): submit them and play on. */
  const finishTrial = async (
    trial: BatchTrial,
    calls: ModelCall[],
    replies: ModelReply[],
    submitted: () => void,
  ) => {
    try {
      await playTextMatch(seat, trial.view, trial.ref, { replies, calls, submitted });
      stats.trials++;
      leftOpen.delete(trial.view.match_id);
      budget?.release(trial.ref.budgetKey, true);
    } catch (error) {
      leftOpen.add(trial.view.match_id);
      budget?.release(trial.ref.budgetKey, false);
      if (error instanceof StopSignal) return;
      stats.failedTrials++;
      options.onTrialError?.(trial.view.match_id, error instanceof Error ? error.message : String(error));
    } finally {
      report();
    }
  };

  try {
    while (stats.takesNewTrials) {
      // Trials of batches already in flight (a killed run's) are mapped back from the record, not taken again.
      const inFlight = new Set(
        ledger
          .openRunnerBatches(ledgerKey)
          .flatMap((b) => ledger.runnerBatchRequests(b.batch_id).map((r) => r.match_id)),
      );
      const wave: BatchTrial[] = [];
      const dealtBefore = dealt.size;
      const waveLimit = waveSize();
      while (!complete && !budgetFull && stats.takesNewTrials) {
        if (options.maxTrials !== undefined && started >= options.maxTrials) break;
        if (dealt.size - dealtBefore >= waveLimit) break;
        const budgetKey = `trial ${++admissions}`;
        const admitted = budget?.admitNow(budgetKey) ?? "admitted";
        // Until a trial has finished its cost is unknown: the wave goes with what it has.
        if (admitted === "wait") break;
        // The budget holds no more trials: this wave is the last (the run stops once it is recorded).
        if (admitted === "full") {
          budgetFull = true;
          break;
        }
        const next = await nextTrial();
        // Nothing left to deal: the study is complete, or its last trials are ones this run holds open.
        if (next.complete === true || next.trial === null) {
          complete = true;
          budget?.release(budgetKey, false);
          break;
        }
        const view = next.trial as TrialView;
        dealt.add(next.trial_index as number);
        if (inFlight.has(view.match_id)) {
          budget?.release(budgetKey, false);
          continue;
        }
        started++;
        const ref = {
          matchId: view.match_id,
          player: seat.connection.player,
          trialIndex: next.trial_index as number,
          budgetKey,
        };
        budgetKeys.set(view.match_id, budgetKey);
        wave.push({ view, ref });
      }
      report();
      await submitWave(wave);
      await drainBatches();
      if (budgetFull) stats.stopAtBudget((budget as NonNullable<typeof budget>).describe());
      // A wave of trials all in flight already (a killed run's) is not the last under adaptive stopping.
      if (complete || dealt.size === dealtBefore || !stats.takesNewTrials) break;
    }
  } catch (error) {
    if (!(error instanceof StopSignal)) throw error;
  } finally {
    options.interrupt?.removeEventListener("abort", onInterrupt);
    await seat.connection.close();
  }
  return {
    stats,
    total,
    complete: studyComplete(complete, total, stats),
    leftOpen: leftOpen.size,
    interrupted: stats.interrupted,
    spent: budget?.describe() ?? null,
    spentBefore: options.budget?.describeBefore() ?? null,
    stoppedEarly: total.stoppedEarly,
  };

  /** The wave's cached trials are played at once; the others' requests go to the provider in chunks. */
  async function submitWave(wave: readonly BatchTrial[]): Promise<void> {
    const toSubmit: { trial: BatchTrial; request: BatchRequest; sampleIndex: number }[] = [];
    const cachedTrials: Promise<void>[] = [];
    for (const trial of wave) {
      const request: ChatRequest = {
        system: seat.system,
        messages: [{ role: "user", content: trial.view.prompt }],
      };
      const hits = Array.from({ length: seat.samples }, (_, i) =>
        fromCache(seat.settings, request, trial.ref, i),
      );
      if (hits.every((h) => h.hit !== null)) {
        const answers = hits.map((h) => h.hit as { reply: ModelReply; record: ModelCall });
        cachedTrials.push(
          finishTrial(
            trial,
            answers.map((a) => a.record),
            answers.map((a) => a.reply),
            () => {},
          ),
        );
        continue;
      }
      // A trial is submitted whole (all its samples): a partly cached trial is asked again in full. Each
      // request is reserved as a direct call is (at the batch price) and held until its result is charged,
      // so the direct calls made meanwhile count what the wave may still cost.
      const customIds = Array.from(
        { length: seat.samples },
        (_, i) => `trial-${trial.ref.trialIndex}-sample-${i}`,
      );
      if (budget) {
        for (const customId of customIds) {
          const ticket = budget.reserveCall(requestEstimate(seat.settings, request, true));
          if (ticket === null) break;
          reservations.set(customId, ticket);
        }
        if (customIds.some((customId) => !reservations.has(customId))) {
          for (const customId of customIds) endReservation(customId);
          // Dealt but not submitted: it stays open, and a run with a larger budget resumes it.
          leftOpen.add(trial.view.match_id);
          budget.release(trial.ref.budgetKey, false);
          budgetFull = true;
          continue;
        }
      }
      customIds.forEach((customId, i) => {
        toSubmit.push({ trial, request: { customId, request }, sampleIndex: i });
      });
    }
    await Promise.all(cachedTrials);
    const limits = BATCH_LIMITS[endpoint.provider];
    const maxRequests = Math.min(batch.size, limits.requests);
    let chunk: typeof toSubmit = [];
    let bytes = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      stats.checkStopped();
      const requests = chunk;
      chunk = [];
      bytes = 0;
      const batchId = await retried(() => api.submit(requests.map((r) => r.request)));
      ledger.insertRunnerBatch(
        {
          ...ledgerKey,
          batch_id: batchId,
          requests: requests.length,
          submitted_at: ledger.nowIso(),
        },
        requests.map((r) => ({
          batch_id: batchId,
          custom_id: r.request.customId,
          match_id: r.trial.view.match_id,
          trial_index: r.trial.ref.trialIndex,
          sample_index: r.sampleIndex,
          request_json: JSON.stringify(r.request.request),
          view_json: JSON.stringify(r.trial.view),
        })),
      );
      stats.batchesSubmitted++;
      report();
    };
    for (const entry of toSubmit) {
      // A line's size on the wire, with room for the provider's envelope around the request.
      const size = Buffer.byteLength(JSON.stringify(entry.request)) + 512;
      if (chunk.length >= maxRequests || (chunk.length > 0 && bytes + size > limits.bytes)) await flush();
      chunk.push(entry);
      bytes += size;
    }
    await flush();
  }

  /** Waits for every batch of this study, player and endpoint still in flight, mapping each back as it ends. */
  async function drainBatches(): Promise<void> {
    let waitMs = Math.min(batch.firstPollMs ?? DEFAULT_FIRST_POLL_MS, seat.settings.retry.maxDelayMs);
    for (;;) {
      const open = ledger.openRunnerBatches(ledgerKey);
      if (open.length === 0) return;
      let ended = 0;
      for (const { batch_id } of open) {
        stats.checkStopped();
        const status = await retried(() => api.status(batch_id));
        if (!status.ended) continue;
        ended++;
        await mapBack(batch_id);
      }
      if (ended === open.length) continue;
      try {
        await sleep(waitMs, undefined, { signal: stats.interruption });
      } catch {
        stats.checkStopped();
      }
      waitMs = Math.min(waitMs * 1.5, Math.max(seat.settings.retry.maxDelayMs, 1));
    }
  }

  /** An ended batch: each result to its trial by custom_id, each trial submitted once, then the batch closed. */
  async function mapBack(batchId: string): Promise<void> {
    const rows = ledger.runnerBatchRequests(batchId);
    const results = await retried(() => api.results(batchId));
    const known = new Set(rows.map((r) => r.custom_id));
    const byId = new Map<string, BatchResult>();
    for (const result of results) {
      if (!known.has(result.customId)) {
        warn(
          `batch ${batchId} returned a result for "${result.customId}", which none of its requests had: ignored`,
        );
      } else if (byId.has(result.customId)) {
        warn(`batch ${batchId} returned "${result.customId}" twice: the first result is used`);
      } else {
        byId.set(result.customId, result);
      }
    }
    const byMatch = new Map<string, typeof rows>();
    for (const row of rows) byMatch.set(row.match_id, [...(byMatch.get(row.match_id) ?? []), row]);
    const trials = [...byMatch.values()].filter((trialRows) =>
      trialRows.every((r) => r.recorded_at === null),
    );
    const queue = [...trials];
    const worker = async () => {
      for (let trialRows = queue.shift(); trialRows; trialRows = queue.shift()) {
        if (stats.stopReason !== null) return;
        await mapTrial(batchId, trialRows, byId);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    stats.checkStopped();
    ledger.endRunnerBatch(batchId, ledger.nowIso());
  }

  /** One trial's results: its replies (a request the batch did not answer is made again directly), submitted once. */
  async function mapTrial(
    batchId: string,
    rows: ReturnType<Store["runnerBatchRequests"]>,
    results: ReadonlyMap<string, BatchResult>,
  ): Promise<void> {
    const first = rows[0] as (typeof rows)[number];
    const view = JSON.parse(first.view_json) as TrialView;
    const submitted = () => ledger.markBatchRequestsRecorded(batchId, view.match_id, ledger.nowIso());
    const endReservations = () => {
      for (const row of rows) endReservation(row.custom_id);
    };
    // Submitted before the kill of an earlier run, and not marked then: its trial is already recorded.
    if (ledger.matchStatus(view.match_id) !== "open") {
      endReservations();
      return submitted();
    }
    // A trial of this run's wave was admitted then; one of a killed run's batch is admitted now (it is paid for).
    let budgetKey = budgetKeys.get(view.match_id);
    if (budgetKey === undefined) {
      budgetKey = `batch ${batchId} ${view.match_id}`;
      budget?.admitNow(budgetKey);
    }
    const ref: TrialRef = {
      matchId: view.match_id,
      player: seat.connection.player,
      trialIndex: first.trial_index,
      budgetKey,
    };
    const calls: ModelCall[] = [];
    const replies: ModelReply[] = [];
    try {
      for (const row of [...rows].sort((a, b) => a.sample_index - b.sample_index)) {
        const request = JSON.parse(row.request_json) as ChatRequest;
        const result = results.get(row.custom_id);
        // The batch's reply is charged in place of its reservation; a request it did not answer is reserved anew.
        endReservation(row.custom_id, result?.ok ? result.reply : undefined);
        const answer = result?.ok
          ? answeredCall(seat.settings, ref, result.reply, {
              key: seat.settings.cache ? replyKey(endpoint, request, row.sample_index, ref) : null,
              sampleIndex: row.sample_index,
              calledAt: new Date().toISOString(),
              latency: 0,
              retries: 0,
              batchId,
              estimate: requestEstimate(seat.settings, request, true),
            })
          : await retriedDirectly(request, ref, row.sample_index);
        calls.push(answer.record);
        replies.push(answer.reply);
      }
    } catch (error) {
      endReservations();
      leftOpen.add(view.match_id);
      budget?.release(budgetKey, false);
      if (error instanceof StopSignal) return;
      stats.failedTrials++;
      options.onTrialError?.(view.match_id, error instanceof Error ? error.message : String(error));
      return;
    }
    await finishTrial({ view, ref }, calls, replies, submitted);
  }

  /** A request its batch did not answer: made again directly, with the run's retries. */
  function retriedDirectly(request: ChatRequest, ref: TrialRef, sampleIndex: number) {
    stats.batchFailures++;
    return callModel(seat.settings, request, ref, sampleIndex);
  }
}
