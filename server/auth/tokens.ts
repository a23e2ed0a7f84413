import { createHash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 string from the CSPRNG (rejection sampling avoids modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export const API_KEY_PREFIX = "tsk_";
export const DEVICE_TOKEN_PREFIX = "dst_";
export const API_KEY_PATTERN = /^tsk_[0-9A-Za-z]{40}$/;
export const DEVICE_TOKEN_PATTERN = /^dst_[0-9A-Za-z]{40}$/;

export function newApiKey(): string {
  return API_KEY_PREFIX + randomBase62(40);
}

export function newDeviceToken(): string {
  return DEVICE_TOKEN_PREFIX + randomBase62(40);
}

/** How a stored key is shown after creation: the prefix, an ellipsis and its last four characters. */
export function maskKey(last4: string, prefix = API_KEY_PREFIX): string {
  return `${prefix}…${last4}`;
}
