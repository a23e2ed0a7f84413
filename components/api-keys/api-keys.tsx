"use client";

import { useRef, useState } from "react";
import { apiFetch } from "@/lib/api-client";
import { errorMessage } from "@/lib/ui/form-issues";
import type { TApiKey } from "@/lib/schemas/api-keys";
import { LoadError, Loading, useLoad } from "@/components/settings/load-state";
import { Section } from "@/components/settings/form-parts";
import { ErrorAlert } from "@/components/common/error-alert";
import { CreateKeyForm } from "./create-key-form";
import { DeleteKeyDialog } from "./delete-key-dialog";
import { KeyList } from "./key-list";
import { NewKeyPanel } from "./new-key-panel";
import settingsStyles from "@/components/settings/settings.module.css";
import styles from "./api-keys.module.css";

const listKeys = () => apiFetch<TApiKey[]>("/apikeys");
const keyPath = (name: string) => `/apikeys/${encodeURIComponent(name)}`;

export function ApiKeys() {
  const [state, retry] = useLoad(listKeys);
  // After a change the list is fetched again; until the first change the loaded list is shown.
  const [keys, setKeys] = useState<TApiKey[] | null>(null);
  const [created, setCreated] = useState<TApiKey | null>(null);
  const [pendingDelete, setPendingDelete] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [listError, setListError] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);

  async function refresh() {
    setKeys(await listKeys());
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
      await apiFetch<null>(`${keyPath(name)}/default`, { method: "PUT", body: { name } });
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
      await apiFetch<null>(keyPath(name), { method: "DELETE", body: { name } });
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

  const shown = keys ?? (state.kind === "ready" ? state.data : null);

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
        <ErrorAlert message={listError} />
        {shown ? (
          <KeyList keys={shown} busyName={busy} onMakeDefault={makeDefault} onDelete={askDelete} />
        ) : state.kind === "error" ? (
          <LoadError what="your API keys" message={state.message} onRetry={retry} inline />
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
