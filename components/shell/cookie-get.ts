import { headers } from "next/headers";
import { pipelineGet } from "@/server/http/bridge";

/** A GET on the cookie base, in-process through the custom server's pipeline, as the signed-in browser. */
export async function cookieGet<T>(path: string): Promise<T | null> {
  const res = await pipelineGet("cookie", path, { cookie: (await headers()).get("cookie") ?? "" });
  if (!res?.ok) return null;
  return (await res.json()) as T;
}
