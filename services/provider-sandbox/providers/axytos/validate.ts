// The imitation's checks beyond axytos's published models (published.ts checks those: required fields, types, enums,
// minimums): a basket's totals must be the sum of its positions, to the cent, and net must not exceed gross. axytos
// publishes no such rule (UNVERIFIED); an integrator's basket that does not add up is refused here, naming the field.
import { problem, type Answer } from './published.ts';

type Obj = Record<string, any>;
export const cents = (v: number) => Math.round(v * 100);

/** A basket of precheck, confirm or createInvoice: positions whose totals add up; null: valid. */
export function basket(b: Obj, currency = true): Answer | null {
  if (currency && b.currency !== 'EUR') return problem('Basket.Currency', 'The Currency field must be EUR.');
  if (!Array.isArray(b.positions) || b.positions.length === 0) return problem('Basket.Positions', 'The Positions field must not be empty.');
  let gross = 0;
  let net = 0;
  for (const [i, p] of (b.positions as Obj[]).entries()) {
    if (p.quantity < 1) return problem(`Basket.Positions[${i}].Quantity`, 'Quantity must be a positive integer.');
    if (cents(p.netPositionTotal) > cents(p.grossPositionTotal))
      return problem(`Basket.Positions[${i}].NetPositionTotal`, 'NetPositionTotal must not exceed GrossPositionTotal.');
    gross += cents(p.grossPositionTotal);
    net += cents(p.netPositionTotal);
  }
  if (gross !== cents(b.grossTotal)) return problem('Basket.GrossTotal', `GrossTotal ${b.grossTotal} does not match the positions' sum ${gross / 100}.`);
  if (net !== cents(b.netTotal)) return problem('Basket.NetTotal', `NetTotal ${b.netTotal} does not match the positions' sum ${net / 100}.`);
  return null;
}
