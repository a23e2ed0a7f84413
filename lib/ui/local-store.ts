/**
 * localStorage that never throws: storage can be blocked (privacy settings, sandboxed frames) or
 * full, and a page must work without it, remembering nothing. Client-side only.
 */
export const localStore = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  /** Stores `value`, or removes the key when it is empty. */
  set(key: string, value: string): void {
    try {
      if (value) localStorage.setItem(key, value);
      else localStorage.removeItem(key);
    } catch {
      // blocked or full: kept only in the page
    }
  },
};
