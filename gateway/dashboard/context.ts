// What every group of dashboard pages is built with (router.ts hands it to each).
import type { RequestHandler } from 'express';
import type { Db } from 'mongodb';
import type { MerchantStore } from '../../lib/merchant-store.ts';
import type { Deps } from '../operations.ts';
import type { SetupChanged } from '../routes/accounts.ts';
import type { DashboardSessions } from './session.ts';

export interface DashboardContext {
  db: Db;
  deps: Deps;
  setup: MerchantStore;
  sessions: DashboardSessions;
  /** requireSession for this dashboard: res.locals.dashboard, or a redirect to the sign-in page. */
  signedIn: RequestHandler;
  /** Drops cached snapshots of the merchant's setup after a change (as the admin API's routes do). */
  changed: SetupChanged;
}
