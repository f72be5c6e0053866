// Payments, refunds and disputes pages of the merchant dashboard: a placeholder (another part of issue 23 fills it).
import { Router } from 'express';
import { ROUTING } from '../scope.ts';
import type { DashboardContext } from './context.ts';

export function paymentPages(_ctx: DashboardContext): Router {
  return Router(ROUTING);
}
