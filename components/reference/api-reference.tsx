"use client";

import { useEffect, useMemo, useState } from "react";

type Schema = { $ref?: string; type?: string | string[]; items?: Schema; properties?: Record<string, Schema>; required?: string[]; description?: string; enum?: unknown[] };
type Param = { name: string; in: string; required: boolean; description?: string; schema: Schema };
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  servers: { url: string }[];
  security: Record<string, string[]>[];
  parameters: Param[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
  responses: Record<string, { content?: { "application/json": { schema: Schema } }; $ref?: string }>;
};
type Doc = { info: { title: string; version: string; description: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

function schemaLabel(s: Schema | undefined): string {
  if (!s) return "—";
  if (s.$ref) return s.$ref.split("/").pop() ?? "?";
  if (s.type === "array") return `array of ${schemaLabel(s.items)}`;
  if (s.type === "null") return "null";
  if (s.enum) return s.enum.map(String).join(" | ");
  return Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "object");
}

function Fields({ schema, schemas }: { schema: Schema | undefined; schemas: Record<string, Schema> }) {
  const resolved = schema?.$ref ? schemas[schema.$ref.split("/").pop()!] : schema;
  if (!resolved?.properties) return null;
  const required = new Set(resolved.required ?? []);
  return (
    <ul>
      {Object.entries(resolved.properties).map(([name, s]) => (
        <li key={name}>
          <code>{name}</code>
          {required.has(name) ? "" : "?"}: {schemaLabel(s)} {s.description ? <span className="muted">— {s.description}</span> : null}
        </li>
      ))}
    </ul>
  );
}

export function ApiReference() {
  const [doc, setDoc] = useState<Doc | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetch("/api/v1/openapi.json")
      .then(async (r) => (r.ok ? setDoc((await r.json()) as Doc) : setError(`HTTP ${r.status}`)))
      .catch((e: Error) => setError(e.message));
  }, []);
  const byTag = useMemo(() => {
    const groups = new Map<string, { method: string; path: string; op: Operation }[]>();
    for (const [path, methods] of Object.entries(doc?.paths ?? {}))
      for (const [method, op] of Object.entries(methods)) {
        const tag = op.tags[0] ?? "Other";
        groups.set(tag, [...(groups.get(tag) ?? []), { method: method.toUpperCase(), path, op }]);
      }
    return [...groups.entries()];
  }, [doc]);

  if (error) return <p className="error" role="alert">Could not load the API document: {error}</p>;
  if (!doc) return <p className="muted">Loading the API document…</p>;
  return (
    <div data-testid="api-reference">
      <section className="card">
        <p>{doc.info.description}</p>
        <p className="muted">Version {doc.info.version}</p>
      </section>
      {byTag.map(([tag, ops]) => (
        <section className="card" key={tag}>
          <h2>{tag}</h2>
          {ops.map(({ method, path, op }) => (
            <article className="op" key={op.operationId} id={op.operationId}>
              <h3>
                <span className="method">{method}</span> <code>{path}</code>
              </h3>
              <p>
                <strong>{op.summary}</strong> <span className="muted">({op.operationId})</span>
              </p>
              {op.description ? <p>{op.description}</p> : null}
              <p className="muted">
                {/* Server URLs are relative to the document's origin (absolute ones are read the same way). */}
                Served at: {op.servers.map((s) => new URL(s.url, window.location.origin).pathname).join(", ")}
                {op.security.length === 0 ? " · no credential" : ""}
              </p>
              <p className="muted">Statuses: {Object.keys(op.responses).join(", ")}</p>
              {op.parameters.length ? (
                <>
                  <h4>Parameters</h4>
                  <ul>
                    {op.parameters.map((p) => (
                      <li key={`${p.in}:${p.name}`}>
                        <code>{p.name}</code> ({p.in}
                        {p.required ? ", required" : ""}): {schemaLabel(p.schema)} {p.description ? <span className="muted">— {p.description}</span> : null}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              {op.requestBody ? (
                <>
                  <h4>Body: {schemaLabel(op.requestBody.content["application/json"].schema)}</h4>
                  <Fields schema={op.requestBody.content["application/json"].schema} schemas={doc.components.schemas} />
                </>
              ) : null}
              <h4>Response: {schemaLabel(op.responses["200"]?.content?.["application/json"].schema)}</h4>
              <Fields schema={op.responses["200"]?.content?.["application/json"].schema} schemas={doc.components.schemas} />
            </article>
          ))}
        </section>
      ))}
    </div>
  );
}
