"use client";

import { useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import { TAX_ID_TYPES, ZBillingInfoInput, type TBillingInfo } from "@/lib/schemas/billing";
import { Field, SaveBar, Section, fieldAria, useForm } from "@/components/ui/form";
import styles from "./settings.module.css";

const TAX_ID_LABELS: Record<(typeof TAX_ID_TYPES)[number], string> = {
  eu_vat: "EU VAT number",
  gb_vat: "UK VAT number",
  us_ein: "US EIN",
  ch_vat: "Swiss VAT (UID)",
  au_abn: "Australian ABN",
  ca_bn: "Canadian BN",
  no_vat: "Norwegian VAT",
  in_gst: "Indian GSTIN",
};

type Form = { name: string; email: string; line1: string; line2: string; city: string; postalCode: string; state: string; country: string; taxType: string; taxValue: string };

const EMPTY: Form = { name: "", email: "", line1: "", line2: "", city: "", postalCode: "", state: "", country: "", taxType: "", taxValue: "" };

function formFrom(b: TBillingInfo): Form {
  return {
    name: b.name,
    email: b.email ?? "",
    line1: b.address.line1,
    line2: b.address.line2 ?? "",
    city: b.address.city,
    postalCode: b.address.postalCode,
    state: b.address.state ?? "",
    country: b.address.country,
    taxType: b.taxId?.type ?? "",
    taxValue: b.taxId?.value ?? "",
  };
}

/** settings_updateBillingInfo: a PUT of the whole billing information (there is no read operation). */
export function BillingInfoForm() {
  const [form, setForm] = useState<Form>(EMPTY);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const { status, errors, alert, submit, edited } = useForm();

  const set = (k: keyof Form) => (e: { target: { value: string } }) => {
    edited();
    setForm((f) => ({ ...f, [k]: k === "country" ? e.target.value.toUpperCase() : e.target.value }));
  };

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    const parsed = ZBillingInfoInput.safeParse({
      name: form.name,
      email: form.email.trim() || undefined,
      address: {
        line1: form.line1,
        line2: form.line2.trim() || undefined,
        city: form.city,
        postalCode: form.postalCode,
        state: form.state.trim() || undefined,
        country: form.country.trim(),
      },
      taxId: form.taxType ? { type: form.taxType, value: form.taxValue } : undefined,
    });
    await submit(e, parsed, async (body) => {
      const res = await call("settings_updateBillingInfo", { body });
      setForm(formFrom(res.billingInfo));
      setSavedAt(res.billingInfo.updatedAt);
    });
  }

  const text = (k: keyof Form, id: string, label: string, errorKey: string, opts: { hint?: string; autoComplete?: string; maxLength?: number } = {}) => (
    <Field id={id} label={label} error={errors[errorKey]} hint={opts.hint}>
      <input
        type="text"
        className={styles.control}
        value={form[k]}
        onChange={set(k)}
        autoComplete={opts.autoComplete}
        maxLength={opts.maxLength}
        {...fieldAria(id, errors[errorKey], opts.hint)}
      />
    </Field>
  );

  return (
    <Section
      id="billing"
      title="Billing information"
      description="Name, address and tax id printed on your invoices. Saving replaces what is stored; the service does not send it back, so this form starts empty each visit."
    >
      <form onSubmit={onSubmit} noValidate>
        <div className={`${styles.grid} ${styles.wideGrid}`}>
          {text("name", "billing-name", "Name on invoices", "name", { autoComplete: "organization" })}
          {text("email", "billing-email", "Invoice email (optional)", "email", { autoComplete: "email" })}
          {text("line1", "billing-line1", "Address line 1", "address.line1", { autoComplete: "address-line1" })}
          {text("line2", "billing-line2", "Address line 2 (optional)", "address.line2", { autoComplete: "address-line2" })}
          {text("city", "billing-city", "City", "address.city", { autoComplete: "address-level2" })}
          {text("postalCode", "billing-postal", "Postal code", "address.postalCode", { autoComplete: "postal-code" })}
          {text("state", "billing-state", "State or region (optional)", "address.state", { autoComplete: "address-level1" })}
          {text("country", "billing-country", "Country code", "address.country", { hint: "Two letters, e.g. DE, US, GB", autoComplete: "country", maxLength: 2 })}
          <Field id="billing-tax-type" label="Tax id type" error={errors["taxId.type"]}>
            <select className={styles.control} value={form.taxType} onChange={set("taxType")} {...fieldAria("billing-tax-type", errors["taxId.type"])}>
              <option value="">No tax id</option>
              {TAX_ID_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TAX_ID_LABELS[t]}
                </option>
              ))}
            </select>
          </Field>
          {form.taxType ? text("taxValue", "billing-tax-value", "Tax id", "taxId.value") : null}
        </div>
        <SaveBar status={status} alert={alert} label="Save billing information" />
        {savedAt ? <p className={styles.hint}>Stored {new Date(savedAt).toLocaleString()}</p> : null}
      </form>
    </Section>
  );
}
