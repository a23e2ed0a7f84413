import { ApiReference } from "@/components/reference/api-reference";

export const metadata = { title: "API reference · Todo Service" };

export default function ReferencePage() {
  return (
    <>
      <h1>API reference</h1>
      <p className="muted">
        Generated from the operation registry; the raw document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1). To try an
        operation, open it, choose <strong>Test Request</strong> and paste an API key (Settings → API keys).
      </p>
      <ApiReference />
    </>
  );
}
