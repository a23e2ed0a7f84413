/** @type {import('next').NextConfig} */
const nextConfig = {
  // The API lives in the custom server's module graph (server/http/bridge.ts); route handlers
  // only forward to it, so nothing server-only needs bundling.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "pg", "socket.io", "redis"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
