import { routeHandler } from "@/server/http/bridge";

// Every operation of the registry that accepts this base's credential (server/operations).
export const dynamic = "force-dynamic";

const handle = routeHandler("cookie");
export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as HEAD, handle as OPTIONS };
