/**
 * The custom server (server/main.ts) writes the socket's peer address into this request header,
 * overwriting anything a client sent, so the pipeline and the sign-in route can key limits by IP.
 * Its own module so the app's bundle can read it without the limiter.
 */
export const CLIENT_IP_HEADER = "x-todo-client-ip";
