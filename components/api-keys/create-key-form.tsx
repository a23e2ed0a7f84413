"use client";

import { useState, type FormEvent, type RefObject } from "react";
import { call } from "@/lib/api/client";
import { ZApiKeyNameInput, type TApiKey } from "@/lib/schemas/api-keys";
import { Field, SaveBar, fieldAria, useForm } from "@/components/ui/form";
import settingsStyles from "@/components/settings/settings.module.css";
import styles from "./api-keys.module.css";

const HINT = "Up to 64 letters, digits, spaces, _ . or -, e.g. “ci runner”";

export function CreateKeyForm({ onCreated, inputRef }: { onCreated: (key: TApiKey) => void; inputRef: RefObject<HTMLInputElement | null> }) {
  const [name, setName] = useState("");
  const { status, errors, alert, submit, edited } = useForm();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    const ok = await submit(e, ZApiKeyNameInput.safeParse({ name }), async (body) => {
      onCreated(await call("apiKey_create", { body }));
    });
    if (ok) setName("");
  }

  return (
    <form onSubmit={onSubmit} noValidate className={styles.createForm}>
      <Field id="new-key-name" label="Key name" error={errors.name} hint={HINT}>
        <input
          ref={inputRef}
          type="text"
          className={settingsStyles.control}
          value={name}
          autoComplete="off"
          onChange={(e) => {
            edited();
            setName(e.target.value);
          }}
          {...fieldAria("new-key-name", errors.name, true)}
        />
      </Field>
      <SaveBar status={status === "saved" ? "idle" : status} alert={alert} label="Create key" />
    </form>
  );
}
