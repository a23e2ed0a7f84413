// Test support for HTTP-level unit tests.

/** Reads a Response's text and JSON (undefined when the body is not JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests index freely into parsed bodies
export async function readResponse(res: Response): Promise<{ status: number; text: string; json: any }> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}
