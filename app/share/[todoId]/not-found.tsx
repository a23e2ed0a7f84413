import { NotPublic } from "@/components/share/not-public";

// The API's 404 for a private or missing todo (the two are not told apart), with a 404 status.
export default function NotFound() {
  return <NotPublic />;
}
