import { request as httpRequest } from "node:http";
import { connect as netConnect } from "node:net";
import { gzipSync } from "node:zlib";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { bearer, createUser, dataDirOf, firstLink, randomEmail, readOutbox } from "../support/users";

// What every request meets before (or besides) the API: methods nothing serves, security headers,
// cross-site checks that hold for GETs that write and for forged proxy headers, private files.

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A raw request: fetch-based clients refuse TRACE themselves, so node:http it is. */
function raw(baseURL: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, baseURL), { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Bytes on a bare TCP connection, for what no HTTP client will send. */
function rawSocket(baseURL: string, text: string): Promise<string> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = netConnect(Number(port), hostname === "localhost" ? "127.0.0.1" : hostname, () => socket.write(text));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (answer += c));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const PATHS = ["/api/v1/projects", "/cookie/v1/projects", "/dst/v1/projects", "/api/v1/openapi.json", "/", "/signin", "/share/whatever", "/no/such/page"];

test.describe("methods nothing serves", () => {
  for (const method of ["TRACE", "PROPFIND", "PURGE"]) {
    test(`${method} on pages and every base is 405 in the error shape, with Allow and x-request-id`, async ({ baseURL }) => {
      for (const p of PATHS) {
        const res = await raw(baseURL!, method, p);
        expect(res.status, `${method} ${p}: ${res.body}`).toBe(405);
        expect(res.headers["content-type"]).toMatch(/^application\/json/);
        const body = JSON.parse(res.body) as { code: string; message: string; data: { allow: string[] } };
        expect(body.code).toBe("METHOD_NOT_SUPPORTED");
        expect(typeof body.message).toBe("string");
        expect(body.data.allow).toEqual(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
        expect(res.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
        expect(res.headers["x-request-id"]).toBeTruthy();
      }
    });
  }

  test("the caller's x-request-id is echoed on a 405", async ({ baseURL }) => {
    const res = await raw(baseURL!, "TRACE", "/api/v1/projects", { "x-request-id": "trace-probe-1" });
    expect(res.headers["x-request-id"]).toBe("trace-probe-1");
  });

  test("CONNECT, and methods Node cannot even parse, are answered 405 too, not dropped", async ({ baseURL }) => {
    for (const head of ["CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443", "BREW /api/v1/projects HTTP/1.1\r\nHost: localhost", "get / HTTP/1.1\r\nHost: localhost"]) {
      const answer = await rawSocket(baseURL!, `${head}\r\n\r\n`);
      expect(answer, head).toMatch(/^HTTP\/1\.1 405 /);
      expect(answer, head).toMatch(/\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
      expect(answer, head).toMatch(/\r\nx-request-id: \S+\r\n/i);
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)), head).toMatchObject({ code: "METHOD_NOT_SUPPORTED" });
    }
  });

  test("a request Node cannot parse gets Node's status in the error shape", async ({ baseURL }) => {
    const answer = await rawSocket(baseURL!, "GET / HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: "BAD_REQUEST" });
  });

  test("a served path asked with a method its route does not serve (the Stripe webhook's GET) is 405 in the error shape with Allow", async ({ baseURL }) => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await raw(baseURL!, method, "/webhooks/stripe", { "x-request-id": `webhook-${method}` });
      expect(res.status, `${method}: ${res.body}`).toBe(405);
      expect(JSON.parse(res.body)).toEqual({ message: `${method} is not supported at /webhooks/stripe`, code: "METHOD_NOT_SUPPORTED", data: { allow: ["POST"] } });
      expect(res.headers.allow).toBe("POST");
      expect(res.headers["x-request-id"]).toBe(`webhook-${method}`);
    }
  });

  test("request bodies: a UTF-8 byte order mark is ignored; gzip is refused by name; a body that is not UTF-8 is 400", async ({ baseURL }, info) => {
    const user = await createUser(info);
    const auth = { ...bearer(user.apiKey), "content-type": "application/json" };
    const post = (body: Buffer, headers: Record<string, string> = {}) =>
      fetch(new URL("/api/v1/projects", baseURL), { method: "POST", headers: { ...auth, ...headers }, body: new Uint8Array(body) });
    const bom = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"From a BOM editor"}')]));
    expect(bom.status, await bom.clone().text()).toBe(200);
    expect(((await bom.json()) as { name: string }).name).toBe("From a BOM editor");
    const gz = await post(gzipSync('{"name":"Zipped"}'), { "content-encoding": "gzip" });
    expect(gz.status).toBe(400);
    expect(((await gz.json()) as { data: { issues: { path: string }[] } }).data.issues[0]!.path).toBe("header.content-encoding");
    const latin1 = await post(Buffer.from('{"name":"Caf\xe9"}', "latin1"));
    expect(latin1.status).toBe(400);
    expect(((await latin1.json()) as { data: { issues: { message: string }[] } }).data.issues[0]!.message).toBe("not valid UTF-8");
    const list = (await (await fetch(new URL("/api/v1/projects", baseURL), { headers: bearer(user.apiKey) })).json()) as { name: string }[];
    const names = list.map((p) => p.name);
    expect(names).not.toContain("Zipped");
    expect(names.some((n) => n.startsWith("Caf"))).toBe(false);
  });

  test("the methods we serve still work (HEAD and OPTIONS included)", async ({ baseURL }) => {
    expect((await raw(baseURL!, "GET", "/api/v1/openapi.json")).status).toBe(200);
    expect((await raw(baseURL!, "HEAD", "/signin")).status).toBe(200);
    expect((await raw(baseURL!, "OPTIONS", "/api/v1/projects")).status).not.toBe(500);
  });
});

test.describe("security headers", () => {
  test("every page and API response forbids framing and sniffing and limits the referrer", async ({ baseURL }, info) => {
    const u = await createUser(info);
    const todoPath = await (async () => {
      const h = bearer(u.apiKey);
      const p = (await (await u.session.post("/api/v1/projects", { headers: h, data: { name: "Headers" } })).json()) as { id: string };
      const t = (await (await u.session.post(`/api/v1/projects/${p.id}/todos`, { headers: h, data: { content: "shared" } })).json()) as { id: string };
      await u.session.put(`/api/v1/todos/${t.id}`, { headers: h, data: { isPublic: true } });
      return `/share/${t.id}`;
    })();
    const responses: [string, Raw][] = [];
    for (const p of ["/signin", "/reference", todoPath, "/api/v1/openapi.json", "/api/v1/projects", "/api/v1/no-such-thing", "/no/such/page"])
      responses.push([p, await raw(baseURL!, "GET", p)]);
    responses.push(["TRACE /", await raw(baseURL!, "TRACE", "/")]);
    for (const [p, res] of responses) {
      expect(res.status, p).toBeLessThan(500);
      const csp = String(res.headers["content-security-policy"] ?? "");
      expect(csp, p).toContain("frame-ancestors 'none'");
      expect(csp, p).toContain("default-src 'self'");
      expect(csp, p).toContain("object-src 'none'");
      expect(res.headers["x-content-type-options"], p).toBe("nosniff");
      expect(res.headers["referrer-policy"], p).toBe("strict-origin-when-cross-origin");
      expect(res.headers["x-frame-options"], p).toBe("DENY");
    }
    expect(responses.find(([p]) => p === todoPath)![1].status).toBe(200);
  });
});

test.describe("compression", () => {
  test("a small JSON answer is sent as it is, a large one gzipped, to a client that accepts gzip", async ({ baseURL }, info) => {
    const u = await createUser(info);
    const h = bearer(u.apiKey);
    const p = (await (await u.session.post("/api/v1/projects", { headers: h, data: { name: "Sizes" } })).json()) as { id: string };
    const gzip = { "accept-encoding": "gzip, deflate, br", "x-api-key": u.apiKey };
    const small = await raw(baseURL!, "GET", `/api/v1/projects/${p.id}`, gzip);
    expect(small.status).toBe(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers["cache-control"]).toBe("no-store, no-transform");
    expect((JSON.parse(small.body) as { id: string }).id).toBe(p.id);
    const nothing = await raw(baseURL!, "PUT", `/api/v1/projects/${p.id}`, { ...gzip, "content-type": "application/json" }, JSON.stringify({ description: "d" }));
    expect([nothing.status, nothing.body, nothing.headers["content-encoding"]]).toEqual([200, "null", undefined]);
    // Enough todos for a list well over 1 KB.
    for (let i = 0; i < 8; i++) {
      const created = await u.session.post(`/api/v1/projects/${p.id}/todos`, { headers: h, data: { content: `todo ${i} ${"text ".repeat(30)}`, startProcessing: false } });
      expect(created.status()).toBe(200);
    }
    const large = await raw(baseURL!, "GET", `/api/v1/projects/${p.id}/todos`, gzip);
    expect(large.status).toBe(200);
    expect(large.headers["content-encoding"]).toBe("gzip");
    expect(large.headers["cache-control"]).toBe("no-store");
    const plain = await raw(baseURL!, "GET", `/api/v1/projects/${p.id}/todos`, { "x-api-key": u.apiKey });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect((JSON.parse(plain.body) as { items: unknown[] }).items).toHaveLength(8);
  });
});

test.describe("cross-site requests", () => {
  test("GET /cookie/v1/apikeys/default creates a key only for the app's own pages", async ({ playwright }, info) => {
    const u = await createUser(info);
    // The user's only key is the default: delete it, so the next apiKey_getDefault would create one.
    expect((await u.session.delete("/cookie/v1/apikeys/e2e")).status()).toBe(200);
    const bare = await playwright.request.newContext({ baseURL: u.baseURL, storageState: await u.session.storageState() });
    try {
      // What an <img src> or a link from another site sends: the cookie, and no Origin or a foreign one.
      const noOrigin = await bare.get("/cookie/v1/apikeys/default");
      expect(noOrigin.status(), await noOrigin.text()).toBe(403);
      expect(((await noOrigin.json()) as { code: string }).code).toBe("FORBIDDEN");
      const foreign = await bare.get("/cookie/v1/apikeys/default", { headers: { referer: "https://evil.example/page" } });
      expect(foreign.status()).toBe(403);
      expect(await (await bare.get("/cookie/v1/apikeys")).json()).toEqual([]);

      const own = await bare.get("/cookie/v1/apikeys/default", { headers: { referer: `${u.baseURL}/settings/api-keys` } });
      expect(own.status(), await own.text()).toBe(200);
      expect(((await own.json()) as { key: string }).key).toMatch(/^tsk_[0-9A-Za-z]{40}$/);
    } finally {
      await bare.dispose();
    }
  });

  test("client-sent X-Forwarded-Host/Proto do not make a foreign Origin same-origin", async ({ playwright }, info) => {
    const u = await createUser(info);
    const bare = await playwright.request.newContext({ baseURL: u.baseURL, storageState: await u.session.storageState() });
    try {
      const forged = await bare.post("/cookie/v1/projects", {
        data: { name: "forged" },
        headers: { origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      });
      expect(forged.status(), await forged.text()).toBe(403);
      const names = ((await (await bare.get("/cookie/v1/projects")).json()) as { name: string }[]).map((p) => p.name);
      expect(names).not.toContain("forged");
    } finally {
      await bare.dispose();
    }
  });
});

test("a sign-in link always points at APP_URL, whatever Host the request claimed (the sign-in page's form too)", async ({ baseURL }, info) => {
  const forged = { host: "evil.example", origin: "http://evil.example" };
  // Through Auth.js's endpoint.
  const viaEndpoint = randomEmail("poisoned");
  const csrf = await raw(baseURL!, "GET", "/api/auth/csrf", forged);
  expect(csrf.status, csrf.body).toBe(200);
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const cookie = ([] as string[]).concat(csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const form = new URLSearchParams({ email: viaEndpoint, csrfToken, callbackUrl: "http://evil.example/" }).toString();
  const start = await raw(baseURL!, "POST", "/api/auth/signin/resend", { ...forged, cookie, "content-type": "application/x-www-form-urlencoded", "content-length": String(form.length) }, form);
  expect(start.status, start.body).toBeLessThan(500);

  // Through the /signin page's form (a server action, which builds the URL from the request's headers).
  const viaPage = randomEmail("poisoned-page");
  const page = await raw(baseURL!, "GET", "/signin");
  const actionField = page.body.match(/name="(\$ACTION_ID_[0-9a-f]+)"/)?.[1];
  expect(actionField, "the sign-in form's server action").toBeTruthy();
  const boundary = "----e2e-boundary";
  const multipart = [
    `--${boundary}\r\nContent-Disposition: form-data; name="${actionField}"\r\n\r\n\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\n${viaPage}\r\n`,
    `--${boundary}--\r\n`,
  ].join("");
  const submitted = await raw(baseURL!, "POST", "/signin", { ...forged, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(Buffer.byteLength(multipart)) }, multipart);
  expect(submitted.status, submitted.body.slice(0, 300)).toBeLessThan(500);

  for (const email of [viaEndpoint, viaPage]) {
    const link = new URL(firstLink((await readOutbox(dataDirOf(info), email)).text));
    expect(link.origin, email).toBe(new URL(baseURL!).origin);
    expect(link.searchParams.get("callbackUrl") ?? "", email).not.toContain("evil.example");
  }
});

test("the server's data directory (outbox mail, database, secrets) is readable by its OS user only", async ({}, info) => {
  // createUser signs in by email: a sign-in link now sits in the outbox.
  await createUser(info);
  const dir = dataDirOf(info);
  const exposed: string[] = [];
  const check = async (p: string) => {
    // Gone since the listing: another test's mail written as *.tmp and renamed into place.
    const st = await lstat(p).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return null;
      throw e;
    });
    if (st && !st.isSymbolicLink() && st.mode & 0o077) exposed.push(`${path.relative(dir, p) || "."} ${(st.mode & 0o777).toString(8)}`);
  };
  await check(dir);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  expect(entries.some((e) => e.parentPath.endsWith("outbox") && e.name.endsWith(".json"))).toBe(true);
  for (const e of entries) await check(path.join(e.parentPath, e.name));
  expect(exposed).toEqual([]);
});
