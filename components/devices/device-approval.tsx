"use client";

import { useEffect, useState, type FormEvent } from "react";
import { ApiClientError, call } from "@/lib/api/client";
import { ErrorAlert } from "@/components/ui/error-alert";

type LoginRequest = { userCode: string; clientName: "cli" | "edge" | "bridge"; name: string | null; status: string; expiresAt: number };

const CLIENT_LABEL: Record<LoginRequest["clientName"], string> = {
  cli: "The todo command-line tool",
  edge: "An edge device",
  bridge: "A bridge (your machine, as a device)",
};

function message(err: unknown): string {
  if (err instanceof ApiClientError) {
    if (err.code === "NOT_FOUND") return "No login is waiting for this code. Check it against your terminal.";
    if (err.code === "TOO_MANY_REQUESTS") return "Too many codes tried. Wait a few minutes and try again.";
    return err.message;
  }
  return "Something went wrong. Try again.";
}

/** Shows which client asks and the code to compare, then Approve or Deny (cli_loginApprove / cli_loginDeny). */
export function DeviceApproval({ initialCode, email }: { initialCode: string; email: string }) {
  const [code, setCode] = useState(initialCode);
  const [request, setRequest] = useState<LoginRequest | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function look(userCode: string) {
    setError(null);
    setBusy(true);
    try {
      setRequest(await call("cli_loginRequest", { query: { userCode } }));
    } catch (err) {
      setRequest(null);
      setError(message(err));
    } finally {
      setBusy(false);
    }
  }

  // The code from the URL is looked up once on arrival (state is set in the callbacks only).
  useEffect(() => {
    if (!initialCode) return;
    let alive = true;
    call("cli_loginRequest", { query: { userCode: initialCode } })
      .then((r) => alive && setRequest(r))
      .catch((err: unknown) => alive && setError(message(err)));
    return () => {
      alive = false;
    };
  }, [initialCode]);

  async function decide(approve: boolean) {
    if (!request) return;
    setError(null);
    setBusy(true);
    try {
      setRequest(await call(approve ? "cli_loginApprove" : "cli_loginDeny", { body: { userCode: request.userCode } }));
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void look(code);
  }

  if (!request)
    return (
      <form onSubmit={onSubmit} noValidate>
        <label htmlFor="user-code">Code shown in your terminal</label>
        <input id="user-code" value={code} onChange={(e) => setCode(e.target.value)} placeholder="XXXX-XXXX" autoComplete="off" />
        <ErrorAlert message={error} />
        <p>
          <button type="submit" disabled={busy || !code.trim()}>
            Continue
          </button>
        </p>
      </form>
    );

  const who = `${CLIENT_LABEL[request.clientName]}${request.name ? ` (“${request.name}”)` : ""}`;
  return (
    <div data-testid="device-approval" data-status={request.status}>
      <p>
        {who} asks to sign in as <strong>{email}</strong>.
      </p>
      <p>
        Check that your terminal shows this code: <code data-testid="user-code">{request.userCode}</code>
      </p>
      {request.status === "pending" ? (
        <p>
          <button type="button" onClick={() => void decide(true)} disabled={busy}>
            Approve
          </button>{" "}
          <button type="button" className="secondary" onClick={() => void decide(false)} disabled={busy}>
            Deny
          </button>
        </p>
      ) : (
        <p role="status">
          {request.status === "expired"
            ? "This code has expired. Start the login again in your terminal."
            : request.status === "denied"
              ? "Denied. The device was not signed in."
              : request.status === "approved"
                ? "Approved. You can return to your terminal."
                : "This code was already used."}
        </p>
      )}
      <ErrorAlert message={error} />
    </div>
  );
}
