import type { MetadataRoute } from "next";

/** The web app manifest: name, colours and icon, so the app can be installed and its tab is recognisable. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Todo Service",
    short_name: "Todos",
    description: "Todos in projects, each a conversation with an AI agent.",
    start_url: "/",
    display: "standalone",
    background_color: "#fafafa",
    theme_color: "#3a5ccc",
    icons: [{ src: "/icon.svg", sizes: "any", type: "image/svg+xml" }],
  };
}
