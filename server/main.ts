import { createServer } from "node:http";
import next from "next";
import { createApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { secureDataDir } from "./data-dir.ts";
import { writeControlFile, handleControl } from "./control.ts";
import { setBridge } from "./http/bridge.ts";
import { operations } from "./operations/index.ts";
import { answerClientError, frontDoor, refuseConnect } from "./http/front-door.ts";
import { answerMalformedApiUrl } from "./http/malformed-url.ts";
import { answerHealth, type HealthProbe } from "./http/health.ts";
import { ensureAuthSecret } from "./auth/secret.ts";
import { enableCredentialCache } from "./auth/credential-cache.ts";
import { log, setLogLevel } from "./log.ts";
import { attachSockets } from "./realtime/sockets.ts";
import { releaseLeases, startScheduler } from "./agent/scheduler.ts";
import { createStripeGateway } from "./services/billing/stripe.ts";
import { receiveWebhook } from "./services/billing/webhooks.ts";
import { queueEmbeddingBackfill } from "./services/search/backfill-job.ts";
import { errorResponse, jsonResponse, toApiError } from "./http/errors.ts";

/**
 * A raw route's handler run in this module graph answers its own ApiErrors as responses: the
 * route's copy of ApiError (in Next's bundle) is another class, which would make them 500s.
 */
async function answered(fn: () => Promise<unknown>): Promise<Response> {
  try {
    return jsonResponse(await fn());
  } catch (err) {
    const { error, unexpected } = toApiError(err);
    if (unexpected) throw err;
    return errorResponse(error);
  }
}

// The custom server: Next (pages and route handlers) and Socket.IO on one port.
async function main() {
  const loaded = loadConfig();
  secureDataDir(loaded.dataDir);
  const config = ensureAuthSecret(loaded);
  // Auth.js builds the sign-in page's links from the request's Host unless AUTH_URL is set: a
  // script could get a victim mailed a link to its own host. Our links name APP_URL, always.
  process.env.AUTH_URL = config.appUrl;
  setLogLevel(config.logLevel);
  const dev = config.env !== "production";
  const app = await createApp(config);
  // Point reads resolve credentials from memory; revocations drop them everywhere (server/auth/credential-cache.ts).
  enableCredentialCache();
  // Stripe, or (without STRIPE_SECRET_KEY) the local stand-in, whose webhooks come back to this server.
  app.runtime.stripe = await createStripeGateway(config, { webhookUrl: `http://127.0.0.1:${config.port}/webhooks/stripe` });
  setBridge({ handle: app.handle, runtime: app.runtime, operations, rawRoutes: { stripe_webhook: (rawBody, request) => answered(() => receiveWebhook(rawBody, request.headers.get("stripe-signature"))) } });

  // Next adds its own `upgrade` listener to the server of the first request it handles and resolves
  // routes for every upgrade, each Socket.IO connection's too, although it serves no websocket
  // here (dev's hot reload is wired below). Pointed at a server that never listens, it stays off.
  const nextApp = next({ dev, hostname: "localhost", port: config.port, httpServer: createServer() });
  const handleNext = nextApp.getRequestHandler();
  await nextApp.prepare();

  // Next's handler first: Socket.IO wraps the existing listener and takes only /socket.io.
  const control = config.databaseUrl ? null : writeControlFile(config.dataDir, config.port);
  let closing = false;
  const health: HealthProbe = { draining: () => closing, database: () => app.runtime.prisma.$queryRawUnsafe("SELECT 1"), redis: () => sockets.redisUp() }; // (asked once listening)
  const httpServer = createServer((req, res) => {
    if (answerHealth(req, res, health)) return;
    if (frontDoor(req, res, { dev, trustProxy: config.trustProxy })) return;
    if (control && handleControl(req, res, control.token)) return;
    if (answerMalformedApiUrl(req, res)) return;
    handleNext(req, res).catch((err: unknown) => {
      log.error("request failed", { url: req.url, error: String(err) });
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Internal server error", code: "INTERNAL_SERVER_ERROR" }));
    });
  });
  // Keep idle connections longer than clients and proxies do (Node's agents: 5 s), so the server
  // never closes a connection at the moment a client reuses it (an ECONNRESET on a good request).
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  httpServer.on("connect", refuseConnect);
  httpServer.on("clientError", answerClientError);
  const upgrade = nextApp.getUpgradeHandler?.();
  const sockets = await attachSockets(httpServer, app.runtime.bus, {
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    appUrl: config.appUrl,
    trustProxy: config.trustProxy,
    limits: app.runtime.limits,
  });
  app.runtime.io = sockets.io;
  if (dev && upgrade) {
    // Hot reload's websocket; Socket.IO's own upgrades never reach here.
    httpServer.on("upgrade", (req, socket, head) => {
      if (!req.url?.startsWith("/socket.io")) void upgrade(req, socket, head);
    });
  }

  if (!config.databaseUrl) await releaseLeases();
  await app.runtime.jobs?.start();
  await queueEmbeddingBackfill();
  const scheduler = startScheduler();
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(config.port, config.hostname, resolve);
  });
  log.info(`Todo Service ready on ${config.appUrl} (${dev ? "development" : "production"}, ${config.databaseUrl ? "PostgreSQL" : "embedded database"}${config.redisUrl ? ", Redis adapter" : ""})`);

  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    scheduler.stop();
    // Turns stop now (their replies kept, their jobs back in the queue without using an attempt:
    // the next process resumes them); no new job runs, and the ones in flight finish while requests
    // drain (or resume after the restart).
    const agentStopped = app.runtime.agent.stop().catch(() => undefined);
    const jobsClosed = app.runtime.jobs?.close().catch(() => undefined);
    // Stop accepting, let requests in flight finish (idle keep-alive connections close now), and
    // only then close the database they may still be using.
    const drained = new Promise<void>((resolve) => httpServer.close(() => resolve()));
    httpServer.closeIdleConnections();
    await sockets.close().catch(() => undefined);
    await Promise.race([drained, new Promise((r) => setTimeout(r, 5_000))]);
    httpServer.closeAllConnections();
    await Promise.all([agentStopped, jobsClosed]);
    await nextApp.close?.().catch(() => undefined);
    await app.close().catch(() => undefined);
    await app.runtime.stripe?.close().catch(() => undefined);
    control?.remove();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error("Failed to start:", err instanceof Error ? err.message : err);
  if (!(err instanceof ConfigError) && err instanceof Error && process.env.LOG_LEVEL === "debug") console.error(err.stack);
  process.exit(1);
});
