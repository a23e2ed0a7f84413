/** What a connected socket carries (`socket.data`): who it is, by which credential, and its scope. */
export type SocketData = { userId: string; credential: string; deviceId?: string | null; todoScope?: string | null };
