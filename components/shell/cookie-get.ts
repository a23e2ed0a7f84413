import { cache } from "react";
import { headers } from "next/headers";
import { call, type CallResult, type OperationId, type OperationInput, type OperationResponse } from "@/server/http/bridge";

/**
 * An operation on the cookie base, in-process through the custom server's pipeline, as the signed-in
 * browser; null without the custom server. Once per request for the same operation and input, so a
 * page and its metadata share one read.
 */
export async function cookieCall<Id extends OperationId>(operationId: Id, input: OperationInput<Id>): Promise<CallResult<OperationResponse<Id>> | null> {
  return callOnce(operationId, JSON.stringify(input)) as Promise<CallResult<OperationResponse<Id>> | null>;
}

// React's cache compares arguments by identity: the input goes in as its JSON.
const callOnce = cache(async (operationId: OperationId, input: string) =>
  call("cookie", operationId, JSON.parse(input) as never, { cookie: (await headers()).get("cookie") ?? "" }),
);

/** cookieCall's data; null unless it answers 2xx. */
export async function cookieGet<Id extends OperationId>(operationId: Id, input: OperationInput<Id>): Promise<OperationResponse<Id> | null> {
  const res = await cookieCall(operationId, input);
  return res?.ok ? res.data : null;
}
