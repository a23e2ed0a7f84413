// The baseline of bench/fanout.ts: a bare Socket.IO server (no auth, no database, no Next) on one
// port that broadcasts each POST /emit body, as is, to every client of room "todo:bench". Every
// connection joins the room at once. PORT from the environment; prints "ready" when listening.
import { createServer } from "node:http";
import { Server } from "socket.io";

const server = createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/emit") {
    res.writeHead(404).end();
    return;
  }
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    io.to("todo:bench").emit("todo.updated", JSON.parse(body));
    res.writeHead(200, { "content-type": "application/json" }).end("null");
  });
});
const io = new Server(server, { path: "/socket.io", serveClient: false });
io.on("connection", (socket) => void socket.join("todo:bench"));
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready"));
// A normal exit on SIGTERM, so that --cpu-prof (bench/fanout.ts --cpu-prof) writes its profile.
process.on("SIGTERM", () => process.exit(0));
