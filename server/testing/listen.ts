import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Listens (port 0: any free one, on loopback by default) and returns the origin, e.g. http://127.0.0.1:43123. */
export async function listenLocal(server: Server, opts: { port?: number; host?: string } = {}): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return `http://${host}:${port}`;
}
