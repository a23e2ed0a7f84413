import { headers } from "next/headers";
import { call, type OperationId, type OperationInput, type OperationResponse } from "@/server/http/bridge";

/** An operation on the cookie base, in-process through the custom server's pipeline, as the signed-in browser; null unless it answers 2xx. */
export async function cookieGet<Id extends OperationId>(operationId: Id, input: OperationInput<Id>): Promise<OperationResponse<Id> | null> {
  const res = await call("cookie", operationId, input, { cookie: (await headers()).get("cookie") ?? "" });
  return res?.ok ? res.data : null;
}
