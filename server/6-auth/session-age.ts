/** How long a dashboard session lasts: SESSION_MAX_AGE_SECONDS, default 30 days (next-auth's and SSO's alike). */
export const sessionMaxAge = (env: NodeJS.ProcessEnv = process.env) =>
  Number(env.SESSION_MAX_AGE_SECONDS) || 30 * 24 * 3600;
