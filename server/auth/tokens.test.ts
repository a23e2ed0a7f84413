import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  DEVICE_TOKEN_PATTERN,
  DEVICE_TOKEN_PREFIX,
  maskKey,
  newApiKey,
  newDeviceToken,
  randomBase62,
  sha256,
} from "./tokens.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("API keys and device tokens", () => {
  test("an API key is tsk_ followed by 40 base62 characters", () => {
    for (let i = 0; i < 200; i++) {
      const key = newApiKey();
      assert.equal(key.length, 44);
      assert.ok(key.startsWith("tsk_"), key);
      assert.match(key, /^tsk_[0-9A-Za-z]{40}$/);
      assert.ok(API_KEY_PATTERN.test(key));
      assert.ok(!DEVICE_TOKEN_PATTERN.test(key));
    }
    assert.equal(API_KEY_PREFIX, "tsk_");
  });

  test("a device token is dst_ followed by 40 base62 characters", () => {
    for (let i = 0; i < 200; i++) {
      const token = newDeviceToken();
      assert.match(token, /^dst_[0-9A-Za-z]{40}$/);
      assert.ok(DEVICE_TOKEN_PATTERN.test(token));
      assert.ok(!API_KEY_PATTERN.test(token));
    }
    assert.equal(DEVICE_TOKEN_PREFIX, "dst_");
  });

  test("the patterns reject wrong lengths, characters, prefixes and surrounding text", () => {
    const body = "A".repeat(40);
    assert.ok(API_KEY_PATTERN.test(`tsk_${body}`));
    for (const bad of [
      `tsk_${"A".repeat(39)}`,
      `tsk_${"A".repeat(41)}`,
      `TSK_${body}`,
      `tsk-${body}`,
      `tsk_${"A".repeat(39)}-`,
      `tsk_${"A".repeat(39)}_`,
      `tsk_${"A".repeat(39)}é`,
      ` tsk_${body}`,
      `tsk_${body}\n`,
      `xtsk_${body}`,
      "",
    ]) {
      assert.ok(!API_KEY_PATTERN.test(bad), JSON.stringify(bad));
      assert.ok(!DEVICE_TOKEN_PATTERN.test(bad.replace("tsk", "dst")), JSON.stringify(bad));
    }
  });

  test("keys are unique over many draws", () => {
    const n = 5000;
    const keys = new Set(Array.from({ length: n }, newApiKey));
    const tokens = new Set(Array.from({ length: n }, newDeviceToken));
    assert.equal(keys.size, n);
    assert.equal(tokens.size, n);
    // The last four characters (what the UI shows) are not a fixed suffix either.
    assert.ok(new Set([...keys].map((k) => k.slice(-4))).size > n * 0.9);
  });
});

describe("randomBase62", () => {
  test("returns exactly the requested length, from the base62 alphabet", () => {
    for (const n of [0, 1, 2, 39, 40, 41, 100, 1000]) {
      const s = randomBase62(n);
      assert.equal(s.length, n);
      for (const c of s) assert.ok(BASE62.includes(c), `unexpected ${JSON.stringify(c)}`);
    }
  });

  test("every character is (about) equally likely: no modulo bias", () => {
    const per = 4000;
    const s = randomBase62(62 * per);
    const counts = new Map<string, number>();
    for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
    assert.equal(counts.size, 62, "every base62 character occurs");
    // σ ≈ 62 per character; ±10 % is over 6σ. A plain `byte % 62` would give '0'…'7' about +21 %.
    for (const [c, n] of counts) assert.ok(Math.abs(n - per) < per * 0.1, `${c}: ${n} (expected ≈${per})`);
  });
});

describe("sha256", () => {
  test("is the lowercase hex SHA-256 of the UTF-8 string", () => {
    assert.equal(sha256(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert.equal(sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert.equal(sha256("The quick brown fox jumps over the lazy dog"), "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
    assert.equal(sha256("\u00e9"), "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"); // UTF-8 c3 a9
    const key = newApiKey();
    assert.match(sha256(key), /^[0-9a-f]{64}$/);
    assert.equal(sha256(key), sha256(key));
    assert.notEqual(sha256(key), sha256(key.slice(0, -1) + (key.endsWith("A") ? "B" : "A")));
  });
});

describe("maskKey", () => {
  test("shows the prefix, an ellipsis and the last four characters", () => {
    const key = newApiKey();
    const masked = maskKey(key.slice(-4));
    assert.equal(masked, `tsk_\u2026${key.slice(-4)}`);
    assert.ok(!masked.includes(key.slice(4, -4)));
    assert.equal(maskKey("Ab3z"), "tsk_…Ab3z");
    assert.equal(maskKey("Ab3z", "dst_"), "dst_…Ab3z");
    assert.ok(!API_KEY_PATTERN.test(masked), "a masked key can never be mistaken for a key");
  });
});
