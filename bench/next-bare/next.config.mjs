// The bare Next.js app of `npm run bench` (bench/project-get.ts): one route handler returning
// constant JSON, nothing of ours. Built on demand into bench/next-bare/.next (gitignored).
const config = { poweredByHeader: false };
export default config;
