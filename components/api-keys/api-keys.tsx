"use client";

import { useRef, useState } from "react";
import { call } from "@/lib/api/client";
import { useLiveOperations, useOperation } from "@/lib/api/swr";
import { errorMessage } from "@/lib/ui/form-issues";
import type { TApiKey } from "@/lib/schemas/api-keys";
import { LoadError, Loading } from "@/components/ui/load-state";
import { Section } from "@/components/ui/form";
import { ErrorAlert } from "@/components/ui/error-alert";
import { CreateKeyForm } from "./create-key-form";
import { DeleteKeyDialog } from "./delete-key-dialog";
import { KeyList } from "./key-list";
import { NewKeyPanel } from "./new-key-panel";
import settingsStyles from "@/components/settings/settings.module.css";
import styles from "./api-keys.module.css";

export function ApiKeys() {
  // The list is read through the data layer; after a change it is fetched again, also a change made
  // elsewhere (another tab, the CLI, a script): apiKey.updated reaches the user's own connections.
  const keys = useOperation("apiKey_list", {});
  useLiveOperations((e) => (e.type === "apiKey.updated" ? ["apiKey_list"] : []), ["apiKey_list"]);
  const [created, setCreated] = useState<TApiKey | null>(null);
  const [pendingDelete, setPendingDelete] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [listError, setListError] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);

  // A failed reload keeps the list shown and puts the API's message in the list's alert.
  async function refresh() {
    await keys.mutate();
  }

  async function onCreated(key: TApiKey) {
    setCreated(key);
    setNotice("");
    await refresh().catch((err: unknown) => setListError(errorMessage(err)));
  }

  async function makeDefault(name: string) {
    setBusy(name);
    setListError(null);
    setNotice("");
    try {
      await call("apiKey_setDefault", { params: { name }, body: { name } });
      await refresh();
      setNotice(`“${name}” is now your default key.`);
    } catch (err) {
      setListError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  function askDelete(name: string) {
    setDeleteError(null);
    setPendingDelete(name);
  }

  async function confirmDelete() {
    if (!pendingDelete) return;
    const name = pendingDelete;
    setBusy(name);
    setDeleteError(null);
    try {
      await call("apiKey_delete", { params: { name }, body: { name } });
      setPendingDelete(null);
      if (created?.name === name) setCreated(null);
      await refresh().catch((err: unknown) => setListError(errorMessage(err)));
      setNotice(`Deleted “${name}”. It no longer works.`);
      listHeadingRef.current?.focus();
    } catch (err) {
      setDeleteError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  const shown = keys.data ?? null;

  return (
    <>
      <Section id="create-key" title="Create a key" description={<>Send a key as <code>x-api-key</code> or <code>Authorization: Bearer</code> to <code>/api/v1</code>.</>}>
        <CreateKeyForm onCreated={onCreated} inputRef={nameRef} />
      </Section>
      {created ? (
        <NewKeyPanel
          apiKey={created}
          onDismiss={() => {
            setCreated(null);
            nameRef.current?.focus();
          }}
        />
      ) : null}
      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading" ref={listHeadingRef} tabIndex={-1} className={settingsStyles.sectionTitle}>
          Your keys
        </h2>
        <p role="status" className={styles.notice}>
          {notice}
        </p>
        <ErrorAlert message={listError ?? (keys.data && keys.error ? keys.error.message : null)} />
        {shown ? (
          <KeyList keys={shown} busyName={busy} onMakeDefault={makeDefault} onDelete={askDelete} />
        ) : keys.error && !keys.isValidating ? (
          <LoadError what="your API keys" message={keys.error.message} onRetry={() => void keys.mutate()} inline />
        ) : (
          <Loading label="Loading your API keys…" inline />
        )}
      </section>
      {pendingDelete ? (
        <DeleteKeyDialog name={pendingDelete} busy={busy === pendingDelete} error={deleteError} onCancel={() => setPendingDelete(null)} onConfirm={confirmDelete} />
      ) : null}
    </>
  );
}
