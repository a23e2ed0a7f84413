import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { canonicalTaxId, isCountryCode, TAX_ID_TYPES, taxIdExpectation, ZBillingInfoInput, type TaxIdType } from "./billing.ts";

const address = { line1: "Main St 1", city: "Berlin", postalCode: "10115", country: "DE" };

describe("canonicalTaxId", () => {
  const valid: [TaxIdType, string, string][] = [
    ["eu_vat", "DE123456789", "DE123456789"],
    ["eu_vat", "de 123 456 789", "DE123456789"],
    ["eu_vat", "ATU12345678", "ATU12345678"],
    ["eu_vat", "NL123456789B01", "NL123456789B01"],
    ["eu_vat", "BE 0123.456.789", "BE0123456789"],
    ["eu_vat", "EL123456789", "EL123456789"],
    ["eu_vat", "FRAB123456789", "FRAB123456789"],
    ["eu_vat", "XI123456789", "XI123456789"],
    ["gb_vat", "GB123456789", "GB123456789"],
    ["gb_vat", "GB 123 4567 89", "GB123456789"],
    ["gb_vat", "GB123456789012", "GB123456789012"],
    ["us_ein", "12-3456789", "12-3456789"],
    ["us_ein", " 12-3456789 ", "12-3456789"],
    ["ch_vat", "CHE-123.456.789 MWST", "CHE-123.456.789 MWST"],
    ["ch_vat", "che123456789", "CHE-123.456.789"],
    ["ch_vat", "CHE-123.456.789 TVA", "CHE-123.456.789 TVA"],
    ["au_abn", "51 824 753 556", "51824753556"],
    ["ca_bn", "123456789", "123456789"],
    ["no_vat", "123456789MVA", "123456789MVA"],
    ["no_vat", "NO 123 456 789 MVA", "123456789MVA"],
    ["in_gst", "22AAAAA0000A1Z5", "22AAAAA0000A1Z5"],
    ["in_gst", "12abcde3456fgzh", "12ABCDE3456FGZH"],
  ];
  for (const [type, value, stored] of valid)
    test(`${type} ${JSON.stringify(value)} → ${stored}`, () => assert.equal(canonicalTaxId(type, value), stored));

  const invalid: [TaxIdType, string][] = [
    ["eu_vat", "123456789"], // no prefix
    ["eu_vat", "US123456789"], // not an EU prefix
    ["eu_vat", "GR123456789"], // Greece is EL
    ["eu_vat", "DE1234567"], // 7 characters
    ["eu_vat", "DE1234567890123"], // 13 characters
    ["eu_vat", "DE12345678_9"],
    ["gb_vat", "123456789"],
    ["gb_vat", "GB12345678"],
    ["gb_vat", "GB1234567890"], // 10 digits
    ["gb_vat", "GBABCDEFGHI"],
    ["us_ein", "123456789"], // needs the hyphen
    ["us_ein", "12-345678"],
    ["us_ein", "AB-1234567"],
    ["ch_vat", "CHE-123.456.78"],
    ["ch_vat", "123.456.789"],
    ["ch_vat", "CHE-123.456.789 VAT"],
    ["au_abn", "1234567891"],
    ["au_abn", "123456789123"],
    ["ca_bn", "12345678"],
    ["ca_bn", "123456789RT0001"],
    ["no_vat", "123456789"],
    ["no_vat", "12345678MVA"],
    ["in_gst", "22AAAAA0000A1Z"],
    ["in_gst", "22AAAAA0000A1X5"],
    ["in_gst", "2AAAAAA0000A1Z5"],
  ];
  for (const [type, value] of invalid) test(`${type} ${JSON.stringify(value)} is refused`, () => assert.equal(canonicalTaxId(type, value), null));

  test("every type has a rule and an explanation", () => {
    for (const type of TAX_ID_TYPES) {
      assert.equal(canonicalTaxId(type, "x"), null);
      assert.ok(taxIdExpectation(type).length > 10, type);
    }
  });
});

describe("ZBillingInfoInput", () => {
  test("a valid body parses; the tax id is stored canonical, strings trimmed", () => {
    const r = ZBillingInfoInput.parse({ name: "  ACME GmbH ", email: " billing@acme.example ", address, taxId: { type: "eu_vat", value: "de 123 456 789" } });
    assert.deepEqual(r, { name: "ACME GmbH", email: "billing@acme.example", address, taxId: { type: "eu_vat", value: "DE123456789" } });
  });

  test("a tax id of the wrong shape is one issue at taxId.value naming the expected form", () => {
    const r = ZBillingInfoInput.safeParse({ name: "ACME", address, taxId: { type: "us_ein", value: "123456789" } });
    assert.ok(!r.success);
    assert.deepEqual(r.error.issues.map((i) => i.path.join(".")), ["taxId.value"]);
    assert.match(r.error.issues[0]!.message, /NN-NNNNNNN/);
  });

  test("an unknown tax id type is an issue at taxId.type", () => {
    const r = ZBillingInfoInput.safeParse({ name: "ACME", address, taxId: { type: "xx_vat", value: "1" } });
    assert.ok(!r.success);
    assert.deepEqual(r.error.issues.map((i) => i.path.join(".")), ["taxId.type"]);
  });

  test("country: ISO 3166-1 alpha-2 in upper case only", () => {
    for (const country of ["de", "DEU", "ZZ", "", "D1"]) {
      const r = ZBillingInfoInput.safeParse({ name: "ACME", address: { ...address, country } });
      assert.ok(!r.success, country);
      assert.deepEqual(r.error.issues.map((i) => i.path.join(".")), ["address.country"], country);
    }
    assert.ok(isCountryCode("CH") && isCountryCode("XK") && !isCountryCode("UK"));
  });

  test("required fields and a bad email are reported by path", () => {
    const r = ZBillingInfoInput.safeParse({ name: " ", email: "nope", address: { line1: "", city: "X", country: "DE" } });
    assert.ok(!r.success);
    assert.deepEqual(r.error.issues.map((i) => i.path.join(".")).sort(), ["address.line1", "address.postalCode", "email", "name"]);
  });
});
