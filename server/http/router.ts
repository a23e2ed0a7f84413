import type { AnyOperation, HttpMethod } from "./define.ts";

type Route = { op: AnyOperation; segments: string[]; paramNames: (string | null)[]; staticRank: string };

export type RouteMatch =
  | { kind: "found"; op: AnyOperation; params: Record<string, string> }
  | { kind: "method"; allow: HttpMethod[] }
  | { kind: "none" };

function split(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/**
 * Matches `/projects/{projectId}` style templates. A static segment beats a parameter at the same
 * position, so `/apikeys/default` wins over `/apikeys/{name}` whatever the registration order.
 */
export class Router {
  private readonly routes: Route[] = [];

  constructor(readonly operations: readonly AnyOperation[]) {
    const ops = operations;
    const seen = new Set<string>();
    for (const op of ops) {
      const key = `${op.method} ${op.path.replace(/\{[^}]+\}/g, "{}")}`;
      if (seen.has(key)) throw new Error(`Two operations claim ${key} (${op.id})`);
      seen.add(key);
      const segments = split(op.path);
      const paramNames = segments.map((s) => (s.startsWith("{") && s.endsWith("}") ? s.slice(1, -1) : null));
      // "1" for a static segment sorts before "0" for a parameter.
      const staticRank = paramNames.map((p) => (p === null ? "1" : "0")).join("");
      this.routes.push({ op, segments, paramNames, staticRank });
    }
    this.routes.sort((a, b) => (a.staticRank < b.staticRank ? 1 : a.staticRank > b.staticRank ? -1 : 0));
  }

  match(method: string, path: string): RouteMatch {
    const parts = split(path);
    let allow: HttpMethod[] = [];
    for (const route of this.routes) {
      const params = this.tryMatch(route, parts);
      if (!params) continue;
      if (route.op.method === method) return { kind: "found", op: route.op, params };
      allow.push(route.op.method);
    }
    if (method === "HEAD") {
      const get = this.match("GET", path);
      if (get.kind === "found") return get;
    }
    allow = [...new Set(allow)];
    return allow.length ? { kind: "method", allow } : { kind: "none" };
  }

  private tryMatch(route: Route, parts: string[]): Record<string, string> | null {
    if (route.segments.length !== parts.length) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const name = route.paramNames[i];
      if (name === null) {
        if (route.segments[i] !== parts[i]) return null;
        continue;
      }
      let value: string;
      try {
        value = decodeURIComponent(parts[i]!);
      } catch {
        return null;
      }
      params[name] = value;
    }
    return params;
  }
}
