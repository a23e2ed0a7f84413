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

/** A device's durable secret (traded for dst_ tokens); only its hash is stored. */
export const DEVICE_SECRET_PREFIX = "dsk_";
export const DEVICE_SECRET_PATTERN = /^dsk_[0-9A-Za-z]{40}$/;
export function newDeviceSecret(): string {
  return DEVICE_SECRET_PREFIX + randomBase62(40);
}

/** RFC 8628 device code: secret, polled with; only its hash is stored. */
export function newDeviceCode(): string {
  return "dc_" + randomBase62(40);
}

// RFC 8628 §6.1: consonants only (no vowels, so no words), case-insensitive, 20^8 ≈ 2.6e10 codes.
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

/** Eight letters of USER_CODE_ALPHABET, stored without the dash and shown as XXXX-XXXX. */
export function newUserCode(): string {
  let out = "";
  while (out.length < 8) {
    for (const byte of randomBytes(16)) {
      if (byte < 240) out += USER_CODE_ALPHABET[byte % 20];
      if (out.length === 8) break;
    }
  }
  return out;
}

export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
