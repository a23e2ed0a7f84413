"use client";

import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { useOperation } from "@/lib/api/swr";
import { useRealtime, type RealtimeEvent } from "@/lib/realtime-client";
import { useCoalesced } from "@/lib/ui/use-coalesced";
import { chatReducer, eventNeedsRefetch, initialChatState, type ChatState } from "@/lib/ui/todo-chat-state";
import { ZPublicMessage, type TPublicTodo } from "@/lib/schemas/todos";
import { NotPublic } from "./not-public";
import { PublicTodo } from "./public-todo";
import { asMessageView, asTodoView } from "./public-view";

const loadedState = (todo: TPublicTodo): ChatState => chatReducer(initialChatState, { type: "loaded", todo: asTodoView(todo) });

/**
 * The share page, live: rendered first from the server's read (load-public-todo.ts), it then
 * follows the todo's public room (a public subscription, no credential: docs/api.md "Real-time").
 * Its messages (as PublicMessage) and the agent's reply as it streams (`message.delta`) are folded
 * in by the todo chat's own merge rules (lib/ui/todo-chat-state.ts), so the reply appears word by
 * word as in the owner's chat, with no read per delta; any other change (`publicTodo.changed`)
 * reads todo_getPublic again, which alone decides what is public, so the page never shows more.
 * Made private or deleted while open, the read is 404 and the page says so.
 */
export function LivePublicTodo({ initial, before }: { initial: TPublicTodo; before?: string }) {
  const todoId = initial.id;
  const read = useOperation("todo_getPublic", { params: { todoId }, query: { before } }, { fallbackData: initial, revalidateOnMount: false });
  const [state, dispatch] = useReducer(chatReducer, initial, loadedState);
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });
  // Each answer is merged once, as it arrives (in render, so the page never shows an answer unmerged).
  const [merged, setMerged] = useState<TPublicTodo | undefined>(initial);
  if (read.data !== merged) {
    setMerged(read.data);
    if (read.data) dispatch({ type: "loaded", todo: asTodoView(read.data) });
  }

  const { mutate } = read;
  const fetchNow = useCallback(() => void mutate(), [mutate]);
  // A burst of changes (a reply's blocks and status) needs one read.
  const refetch = useCoalesced(fetchNow, 150);
  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      if (event.todoId !== todoId) return;
      if (event.type === "publicTodo.changed") return refetch();
      const isMessage = event.type === "message.created" || event.type === "message.updated";
      if (!isMessage && event.type !== "message.delta") return;
      // A page of older messages takes no new ones and no stream; an edit of one of its messages is read again.
      if (before) return event.type === "message.updated" ? refetch() : undefined;
      let folded = event;
      if (isMessage) {
        const message = ZPublicMessage.safeParse(event.data);
        if (!message.success) return refetch();
        folded = { ...event, data: asMessageView(todoId, message.data) };
      }
      const needs = eventNeedsRefetch(stateRef.current, folded);
      dispatch({ type: "event", event: folded });
      if (needs) refetch();
    },
    [todoId, before, refetch],
  );
  // After every (re)subscribe, read again: what changed while offline is not replayed.
  const live = useRealtime({ kind: "publicTodo", id: todoId }, onEvent, fetchNow);
  if (read.error?.status === 404) return <NotPublic />;
  const todo = read.data ?? initial;
  // The header's status follows the newest read (the public room sends no status of its own).
  return <PublicTodo todo={todo} messages={state.messages} before={before} live={live} />;
}
