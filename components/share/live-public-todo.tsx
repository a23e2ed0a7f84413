"use client";

import { useCallback } from "react";
import { useOperation } from "@/lib/api/swr";
import { useRealtime, type RealtimeEvent } from "@/lib/realtime-client";
import { useCoalesced } from "@/lib/ui/use-coalesced";
import type { TPublicTodo } from "@/lib/schemas/todos";
import { NotPublic } from "./not-public";
import { PublicTodo } from "./public-todo";

/**
 * The share page, live: rendered first from the server's read (load-public-todo.ts), it then hears
 * the todo's `publicTodo.changed` (a public subscription, no credential: docs/api.md "Real-time")
 * and reads todo_getPublic again, so it shows exactly what the public read returns, never more.
 * Made private or deleted while open, the read is 404 and the page says so.
 */
export function LivePublicTodo({ initial, before }: { initial: TPublicTodo; before?: string }) {
  const todoId = initial.id;
  const read = useOperation("todo_getPublic", { params: { todoId }, query: { before } }, { fallbackData: initial, revalidateOnMount: false });
  const { mutate } = read;
  const fetchNow = useCallback(() => void mutate(), [mutate]);
  // A reply's message, block and status events come together: one read for the burst.
  const refetch = useCoalesced(fetchNow, 150);
  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      if (event.type === "publicTodo.changed" && event.todoId === todoId) refetch();
    },
    [todoId, refetch],
  );
  // After every (re)subscribe, read again: what changed while offline is not replayed.
  const live = useRealtime({ kind: "publicTodo", id: todoId }, onEvent, fetchNow);
  if (read.error?.status === 404) return <NotPublic />;
  return <PublicTodo todo={read.data ?? initial} before={before} live={live} />;
}
