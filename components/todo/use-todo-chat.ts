"use client";

import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { ApiClientError, call } from "@/lib/api/client";
import { errorMessage } from "@/lib/ui/form-issues";
import { useRealtime, type RealtimeEvent, type RealtimeStatus } from "@/lib/realtime-client";
import type { TMessage } from "@/lib/schemas/todos";
import { chatReducer, eventNeedsRefetch, initialChatState, type ChatState } from "@/lib/ui/todo-chat-state";

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
  const [load, setLoad] = useState<LoadState>({ kind: "loading" });
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const [olderError, setOlderError] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const stateRef = useRef(state);
  const loadedOnce = useRef(false);
  const latest = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    stateRef.current = state;
  });

  const fetchTodo = useCallback(() => {
    // The newest answer wins: an older request that returns late is dropped.
    const mine = ++latest.current;
    return call("todo_get", { params: { todoId }, query: { messageLimit: MESSAGE_PAGE } }).then(
      (todo) => {
        if (mine !== latest.current) return;
        loadedOnce.current = true;
        dispatch({ type: "loaded", todo });
        setLoad({ kind: "ready" });
        setRefreshError(null);
      },
      (err: unknown) => {
        if (mine !== latest.current) return;
        const message = errorMessage(err);
        if (err instanceof ApiClientError && err.status === 404) setLoad({ kind: "notfound" });
        else if (loadedOnce.current) setRefreshError(message);
        else setLoad({ kind: "error", message, status: err instanceof ApiClientError ? err.status : undefined });
      },
    );
  }, [todoId]);

  /** Coalesces the refetches that a burst of events asks for. */
  const refetch = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void fetchTodo();
    }, 100);
  }, [fetchTodo]);

  useEffect(() => {
    void fetchTodo();
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [fetchTodo]);

  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      if (event.todoId !== todoId) return;
      const needs = eventNeedsRefetch(stateRef.current, event);
      dispatch({ type: "event", event });
      if (needs) refetch();
    },
    [todoId, refetch],
  );

  // After every (re)subscribe, reload: events sent while the connection was away are not replayed.
  const live = useRealtime({ kind: "todo", id: todoId }, onEvent, () => void fetchTodo());

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
