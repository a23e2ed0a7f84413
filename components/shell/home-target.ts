import { cookieGet } from "./cookie-get";

/**
 * Where `/` takes a signed-in user: their default project if they can still read it, else their
 * first project, else nowhere (null: the page invites them to create one).
 */
export async function homeProjectId(): Promise<string | null> {
  const [profile, projects] = await Promise.all([cookieGet("user_profile", {}), cookieGet("project_list", {})]);
  if (!projects || projects.length === 0) return null;
  const preferred = profile?.defaultProjectId ? projects.find((p) => p.id === profile.defaultProjectId) : undefined;
  return (preferred ?? projects[0]!).id;
}
