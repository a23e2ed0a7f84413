import { test } from "node:test";
import assert from "node:assert/strict";
import { CARD_CSP, cardDocument, fillPlaceholders, scriptJson } from "./card-document.ts";

test("placeholders take the data's values, escaped; paths go into objects and arrays; missing ones are empty", () => {
  const data = { title: "Q1 <b>&</b>", rows: [{ label: "Jan" }], n: 0, ok: false, nested: { a: 1 }, empty: null };
  assert.equal(fillPlaceholders("<h1>{{title}}</h1>", data), "<h1>Q1 &lt;b&gt;&amp;&lt;/b&gt;</h1>");
  assert.equal(fillPlaceholders("{{ rows.0.label }}|{{n}}|{{ok}}|{{nested}}|{{empty}}|{{missing.x}}", data), 'Jan|0|false|{&quot;a&quot;:1}||');
  assert.equal(fillPlaceholders('<a title="{{title}}">', { title: `"quoted' text` }), '<a title="&quot;quoted&#39; text">');
  // Not own properties of the data: nothing.
  assert.equal(fillPlaceholders("{{constructor}}{{__proto__}}{{toString}}", {}), "");
  assert.equal(fillPlaceholders("{{ not a path }} {x}", {}), "{{ not a path }} {x}");
});

test("the data in the script cannot end the script", () => {
  const json = scriptJson({ s: "</script><script>alert(1)</script>", line: "a\u2028b" });
  assert.ok(!json.includes("</script"));
  assert.ok(!json.includes("\u2028"));
  assert.deepEqual(JSON.parse(json), { s: "</script><script>alert(1)</script>", line: "a\u2028b" });
  assert.equal(scriptJson(undefined), "null");
});

test("the document has the card's policy, its colour scheme, the data, the height reporter, then the card", () => {
  const doc = cardDocument("<p>{{x}}</p>", { x: 1 }, "dark");
  assert.ok(doc.includes(`<meta http-equiv="Content-Security-Policy" content="${CARD_CSP}">`));
  assert.match(CARD_CSP, /default-src 'none'/);
  assert.ok(doc.includes("color-scheme:dark"));
  assert.ok(doc.includes('window.cardData={"x":1};'));
  assert.ok(doc.includes("cardHeight"));
  assert.ok(doc.indexOf("cardData") < doc.indexOf("<p>1</p>"));
  assert.ok(doc.indexOf("<p>1</p>") < doc.indexOf("cardHeight"), "the height is measured on the card's body");
});
