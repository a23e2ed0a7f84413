"use client";

// The UI's one data layer: SWR, keyed by operation. A key is `[operationId, input]`, so every page
// reading `project_list` shares one cache entry, and Socket.IO events revalidate entries by
// operation (useLiveOperations). Writes go through `call` and then revalidate what they changed.
import { useEffect, useRef } from "react";
import useSWR, { mutate as mutateCache, unstable_serialize, type KeyedMutator, type SWRConfiguration, type SWRResponse } from "swr";
import { realtimeSocket, type RealtimeEvent } from "@/lib/realtime-client";
import { SUBSCRIPTION_EVENT } from "@/lib/realtime-subscriptions";
import { ApiClientError, call } from "./client";
import type { InputArgs, OperationId, OperationInput, OperationResult } from "./types";

export type OperationKey<Id extends OperationId = OperationId> = readonly [Id, OperationInput<Id>];

/** The cache key of one operation call. */
export function operationKey<Id extends OperationId>(id: Id, input: OperationInput<Id>): OperationKey<Id> {
  return [id, input];
}

async function fetchOperation([id, input]: OperationKey): Promise<unknown> {
  return call(id, ...([input] as InputArgs<typeof id>));
}

/** Pages show their own error state with a "Try again" button, so failed reads are not retried behind it. */
const DEFAULTS: SWRConfiguration = { shouldRetryOnError: false, revalidateOnFocus: false };

/**
 * Reads an operation through the cache. `input` null skips the request (e.g. until an id is known).
 * `error` is the API's error (ApiClientError: message, code, status, data).
 */
export function useOperation<Id extends OperationId>(
  id: Id,
  input: OperationInput<Id> | null,
  config?: SWRConfiguration<OperationResult<Id>, ApiClientError>,
): SWRResponse<OperationResult<Id>, ApiClientError> {
  return useSWR<OperationResult<Id>, ApiClientError>(input === null ? null : operationKey(id, input), fetchOperation as never, { ...DEFAULTS, ...config });
}

/**
 * For a page that folds every answer into its own state (a reducer with merge rules: the todo
 * chat, the project's todo feed): each answer is a new `data` object, even one equal to the last,
 * so the page sees each answer once. Pass as `config` to useOperation.
 */
export const EVERY_ANSWER: SWRConfiguration = { compare: (a: unknown, b: unknown) => a === b };

/**
 * Marks the answers in flight for this cache entry as stale: they left before a change the page
 * knows of (a live event, its own write), so they are dropped when they arrive; the entry keeps its
 * data. (SWR drops an answer whose request started before the entry's last mutation.)
 */
export function dropInFlight<T>(mutate: KeyedMutator<T>): Promise<T | undefined> {
  return mutate((data) => data, { revalidate: false });
}

type Flight = { done: Promise<unknown>; queued: Promise<unknown> | null };
const flights = new Map<string, Flight>();
const ignore = () => undefined;

function fly(name: string, key: OperationKey): Flight {
  const flight: Flight = { done: mutateCache(key, fetchOperation(key), { revalidate: false }), queued: null };
  flights.set(name, flight);
  void flight.done.then(ignore, ignore).then(() => {
    if (flights.get(name) === flight && !flight.queued) flights.delete(name);
  });
  return flight;
}

/**
 * Fetches an operation into the cache, one request per key at a time: calls while one is in flight
 * share one more request after it (which sees every change before them), so a burst of events
 * costs at most two. Resolves with the answer that covers this call.
 */
export function refreshOperation<Id extends OperationId>(id: Id, input: OperationInput<Id>): Promise<OperationResult<Id>> {
  const key = operationKey(id, input) as OperationKey;
  const name = unstable_serialize(key);
  const flight = flights.get(name);
  if (!flight) return fly(name, key).done as Promise<OperationResult<Id>>;
  flight.queued ??= flight.done.then(ignore, ignore).then(() => fly(name, key).done);
  return flight.queued as Promise<OperationResult<Id>>;
}

/** Whether a cache key belongs to one of these operations (and, optionally, matches its input). */
export function keyMatches(key: unknown, ids: readonly OperationId[], where?: (input: Record<string, unknown>) => boolean): boolean {
  if (!Array.isArray(key) || key.length !== 2 || !ids.includes(key[0] as OperationId)) return false;
  return where ? where((key[1] ?? {}) as Record<string, unknown>) : true;
}

/** Fetches again every cached call of these operations (those on screen re-render with the answer). */
export function revalidateOperations(ids: readonly OperationId[], where?: (input: Record<string, unknown>) => boolean): Promise<unknown> {
  return mutateCache((key) => keyMatches(key, ids, where));
}

/**
 * Drops every cached answer and reads afresh: what is on screen (the shell's lists) fetches again
 * at once, what mounts next fetches as it mounts. For a page that broke on what it was given (the
 * error page's Try again), so it does not break on it again. Dropping without fetching left what
 * stayed mounted (the sidebar's projects) loading for good.
 */
export function forgetAnswers(): Promise<unknown> {
  return mutateCache(() => true, undefined, { revalidate: true });
}

/**
 * Keeps the cache in step with the browser's Socket.IO connection: for each event, `affected`
 * names the operations whose cached answers it changes, and those are fetched again (coalesced
 * over `delayMs`, as several events often arrive together). After each (re)connect, `onConnect`
 * operations are fetched again, since events may have been missed while offline.
 */
export function useLiveOperations(affected: (event: RealtimeEvent) => readonly OperationId[], onConnect: readonly OperationId[] = [], delayMs = 50): void {
  const handlers = useRef({ affected, onConnect });
  useEffect(() => {
    handlers.current = { affected, onConnect };
  });
  useEffect(() => {
    const socket = realtimeSocket();
    const pending = new Set<OperationId>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = (ids: readonly OperationId[]) => {
      ids.forEach((id) => pending.add(id));
      if (timer || pending.size === 0) return;
      timer = setTimeout(() => {
        timer = null;
        const ids = [...pending];
        pending.clear();
        void revalidateOperations(ids);
      }, delayMs);
    };
    const onAny = (name: string, event: RealtimeEvent) => {
      if (name !== SUBSCRIPTION_EVENT && event && typeof event === "object") schedule(handlers.current.affected(event));
    };
    const connected = () => schedule(handlers.current.onConnect);
    socket.onAny(onAny);
    socket.on("connect", connected);
    return () => {
      if (timer) clearTimeout(timer);
      socket.offAny(onAny);
      socket.off("connect", connected);
    };
  }, [delayMs]);
}
