// What a flow knows of where it runs: the runtime hands every call its Session (types.ts): the provider's base URL,
// the sandbox's address, the manifest's further settings, and our notification address for the job's account. A
// connector reads these, never lib/config.ts or process.env, so it is pure and its tests say what it is given.
import type { Environment, Session } from '../types.ts';

export type { Environment, Session };

/** Our gateway's address for the provider's notifications about this job's account (Session.notification_url). */
export function notificationUrl(session: Session | undefined): string {
  if (!session?.notification_url) throw new Error('no notification_url in the session: the runtime gives one to every call');
  return session.notification_url;
}

/** The environment the runtime resolved for this call (base URL, sandbox address, settings). */
export function environment(session: Partial<Environment> | undefined): Environment {
  if (!session?.base_url || session.sandbox_url === undefined) throw new Error('no environment in the session: the runtime gives one to every call');
  return { base_url: session.base_url, sandbox_url: session.sandbox_url, settings: session.settings ?? {} };
}

/** Whether the call goes to the provider sandbox (our imitation) rather than the provider. */
export const inSandbox = (env: Partial<Environment> | undefined) =>
  !!env?.base_url && !!env.sandbox_url && (env.base_url === env.sandbox_url || env.base_url.startsWith(`${env.sandbox_url}/`));
