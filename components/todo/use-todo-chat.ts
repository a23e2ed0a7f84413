"use client";

import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { call } from "@/lib/api/client";
import { EVERY_ANSWER, useOperation } from "@/lib/api/swr";
import { errorMessage } from "@/lib/ui/form-issues";
import { useCoalesced } from "@/lib/ui/use-coalesced";
import { useRealtime, type RealtimeEvent, type RealtimeStatus } from "@/lib/realtime-client";
import type { TMessage, TTodo } from "@/lib/schemas/todos";
import { accessMayHaveChanged, chatReducer, eventNeedsRefetch, initialChatState, type ChatState } from "@/lib/ui/todo-chat-state";

// The todo chat's data: the todo and its newest messages are read through the data layer
// (lib/api/swr.ts, `todo_get` keyed by operation), so SWR fetches, keeps only the newest of
// overlapping requests and shows a cached answer at once on the way back; every answer is then
// folded into the page's state by the pure merge rules of lib/ui/todo-chat-state.ts, with the live
// events of the todo's room. A load that left before a live event cannot undo it (the newer row
// wins), a reload during a stream is exact, and older pages stay.

/** Messages per load: the first via todo_get `messageLimit`, older ones via todo_getMessages `before`. */
export const MESSAGE_PAGE = 30;

export type LoadState = { kind: "loading" } | { kind: "ready" } | { kind: "notfound" } | { kind: "error"; message: string; status?: number };

export type TodoChat = {
  state: ChatState;
  load: LoadState;
  live: RealtimeStatus;
  /** A refresh after the first load failed (the page stays usable). */
  refreshError: string | null;
  refetch: () => void;
  loadOlder: () => Promise<void>;
  olderError: string | null;
  loadingOlder: boolean;
  upsertMessage: (message: TMessage) => void;
  setBlockChecked: (messageId: string, blockId: string, checked: boolean) => void;
};

export function useTodoChat(todoId: string): TodoChat {
  const [state, dispatch] = useReducer(chatReducer, initialChatState);
  const [olderError, setOlderError] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });

  const todo = useOperation("todo_get", { params: { todoId }, query: { messageLimit: MESSAGE_PAGE } }, EVERY_ANSWER);
  // Each answer is merged once, as it arrives (in render, so the page never shows an answer unmerged).
  const [merged, setMerged] = useState<TTodo | undefined>(undefined);
  if (todo.data !== merged) {
    setMerged(todo.data);
    if (todo.data) dispatch({ type: "loaded", todo: todo.data });
  }

  const err = todo.error;
  const load: LoadState =
    err?.status === 404
      ? { kind: "notfound" }
      : state.todo
        ? { kind: "ready" }
        : err
          ? { kind: "error", message: errorMessage(err), status: err.status }
          : { kind: "loading" };
  const refreshError = state.todo && err && err.status !== 404 ? errorMessage(err) : null;

  // A request now (SWR drops the answer of any older one still in flight).
  const { mutate } = todo;
  const fetchNow = useCallback(() => void mutate(), [mutate]);
  /** Coalesces the refetches that a burst of events asks for into one. */
  const refetch = useCoalesced(fetchNow, 100);

  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      // project.deleted names no todo: the reducer matches it against the todo's project; a
      // change of access to that project (project.updated) asks for the todo again.
      if (event.todoId !== todoId && event.type !== "project.deleted" && !accessMayHaveChanged(stateRef.current, event)) return;
      const needs = eventNeedsRefetch(stateRef.current, event);
      dispatch({ type: "event", event });
      if (needs) refetch();
    },
    [todoId, refetch],
  );

  // After every (re)subscribe, reload: events sent while the connection was away are not replayed.
  const live = useRealtime({ kind: "todo", id: todoId }, onEvent, fetchNow);
  const loadOlder = useCallback(async () => {
    const oldest = stateRef.current.messages[0];
    if (!oldest) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await call("todo_getMessages", { params: { todoId }, query: { before: oldest.messageId, limit: MESSAGE_PAGE } });
      dispatch({ type: "older", items: page.items, nextCursor: page.nextCursor });
    } catch (err) {
      setOlderError(errorMessage(err));
    } finally {
      setLoadingOlder(false);
    }
  }, [todoId]);

  const upsertMessage = useCallback((message: TMessage) => dispatch({ type: "message", message }), []);
  const setBlockChecked = useCallback((messageId: string, blockId: string, checked: boolean) => dispatch({ type: "blockChecked", messageId, blockId, checked }), []);

  return { state, load, live, refreshError, refetch, loadOlder, olderError, loadingOlder, upsertMessage, setBlockChecked };
}
