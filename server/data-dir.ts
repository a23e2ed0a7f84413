import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/** DATA_DIR holds sign-in links (outbox), the auth secret, the control token and the embedded database. */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/**
 * Makes DATA_DIR private to this OS user: the process umask becomes 077, so every file created
 * later (PGlite's, the outbox's) is 0600 and every directory 0700, and what already exists is
 * brought there (a data dir written by an older version or copied with other modes). Call it
 * first thing in every process that writes there.
 */
export function secureDataDir(dir: string): void {
  process.umask(0o077);
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  restrictTree(dir);
}

/**
 * Directories 0700, files 0600, below and including `p`. Also for what a library creates with
 * explicit modes the umask cannot narrow (PGlite unpacks its initial database 0666).
 */
export function restrictTree(p: string): void {
  const st = lstatSync(p, { throwIfNoEntry: false });
  // Symlinks are not followed: their targets are not ours to change.
  if (!st || st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    if ((st.mode & 0o777) !== DIR_MODE) chmodSync(p, DIR_MODE);
    for (const name of readdirSync(p)) restrictTree(path.join(p, name));
  } else if (st.isFile() && (st.mode & 0o777) !== FILE_MODE) {
    chmodSync(p, FILE_MODE);
  }
}
