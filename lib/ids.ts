import { randomBytes, randomUUID } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** n characters from [A-Za-z0-9], uniformly (rejection sampling keeps the bias out). */
export function randomAlnum(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248) out += ALNUM[b % 62];
      if (out.length === n) break;
    }
  }
  return out;
}

export const ids = {
  payment: () => `pay_${randomAlnum(26)}`,
  capture: () => `cap_${randomAlnum(26)}`,
  paymentLink: () => `plink_${randomAlnum(20)}`,
  profile: () => `pro_${randomAlnum(20)}`,
  connectorAccount: () => `mca_${randomAlnum(20)}`,
  hashKey: () => randomBytes(32).toString('hex'),
  operation: () => `op_${randomAlnum(26)}`,
  merchant: () => `merchant_${Date.now()}${randomAlnum(6)}`,
  keyId: () => `dev_${randomAlnum(20)}`,
  secretKey: () => `snd_${randomAlnum(64)}`,
  publishableKey: () => `pk_snd_${randomBytes(16).toString('hex')}`,
  clientSecret: (paymentId: string) => `${paymentId}_secret_${randomAlnum(20)}`,
  uuid: () => randomUUID(),
};
