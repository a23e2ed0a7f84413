// A success body written as it is produced (user_exportData): an operation's handler returns a
// StreamedJson instead of a value, and the pipeline sends its stream with status 200 and the
// operation's usual headers. The operation's `response` schema still documents the JSON the stream
// adds up to (the OpenAPI document), but the pipeline cannot check a stream against it, so the
// producer must build exactly that shape (its tests parse the whole body with the schema).
export class StreamedJson {
  constructor(
    readonly body: ReadableStream<Uint8Array>,
    /** Extra headers, e.g. `content-disposition` for a download. */
    readonly headers: Record<string, string> = {},
  ) {}
}

export function streamedJsonResponse(answer: StreamedJson, headers: Record<string, string>): Response {
  return new Response(answer.body, {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...answer.headers, ...headers },
  });
}
