// A 3DS server with its access control server (ACS), as the sandbox imitates them: what our external 3DS
// authentication (spec 4.6) talks to. The field names are EMV 3DS's (AReq/ARes/CReq), as 3DS servers expose them.
//   POST /three_ds_server/v1/authentications        AReq -> ARes (Idempotency-Key required)
//   GET  /three_ds_server/v1/authentications/:id    the transaction's result now (after a challenge)
//   GET|POST /three_ds_server/acs/challenge         the ACS's challenge page (creq in the query or the form)
//   POST /three_ds_server/acs/challenge/:acsTransID/(complete|fail)
// Auth: "Authorization: Bearer <THREE_DS_SERVER_API_KEY>". Errors: {"error": {code, message}}.
import express, { type Router } from 'express';
import { randomUUID } from 'node:crypto';
import { config } from '../../../../lib/config.ts';
import { keptState, records } from '../../kept.ts';
import { magicTags, type MagicTag } from '../../magic.ts';
import { failWith, idempotent, type IdempotencyStore } from '../../recorder.ts';
import type { Imitation } from '../../provider.ts';
import { setTimeout as sleep } from 'node:timers/promises';

type TransStatus = 'Y' | 'N' | 'U' | 'A' | 'R' | 'C' | 'D' | 'I';
interface Transaction {
  threeDSServerTransID: string;
  acsTransID: string;
  dsTransID: string;
  acsReferenceNumber: string;
  messageVersion: string;
  deviceChannel: '01' | '02';
  transStatus: TransStatus;
  transStatusReason?: string;
  eci?: string;
  authenticationValue?: string;
  acsURL?: string;
  base64EncodedChallengeRequest?: string;
  acsSignedContent?: string;
  threeDSRequestorURL: string | null;
  notificationURL: string | null;
  purchaseAmount: number;
  purchaseCurrency: string;
  decide_at?: number;
}

/** The answer the magic tags ask for, when no challenge comes between. */
const FINAL: [MagicTag, Pick<Transaction, 'transStatus' | 'transStatusReason' | 'eci'>][] = [
  ['3ds_fail', { transStatus: 'N', transStatusReason: '01', eci: '07' }],
  ['3ds_reject', { transStatus: 'R', transStatusReason: '11', eci: '07' }],
  ['3ds_unavailable', { transStatus: 'U', transStatusReason: '08', eci: '07' }],
  ['3ds_attempted', { transStatus: 'A', eci: '06' }],
];
const AUTHENTICATED = { transStatus: 'Y' as const, eci: '05' };
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function threeDsServerRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const transactions = new Map<string, Transaction>();
  const byAcsId = new Map<string, Transaction>();
  const apiKey = process.env.THREE_DS_SERVER_API_KEY || 'sk_sandbox_three_ds_server';

  const view = (t: Transaction) => {
    // A decoupled authentication is decided by the cardholder elsewhere; here, SANDBOX_REVIEW_MS after the AReq.
    if (t.transStatus === 'D' && t.decide_at && Date.now() >= t.decide_at) Object.assign(t, AUTHENTICATED, { authenticationValue: randomUUID() });
    const { decide_at: _d, notificationURL: _n, purchaseAmount: _a, purchaseCurrency: _c, ...out } = t;
    if (t.transStatus === 'C') return out;
    // The challenge's data belongs to the ARes that asked for it, not to the result read afterwards.
    const { acsURL: _u, base64EncodedChallengeRequest: _r, acsSignedContent: _s, ...decided } = out;
    return decided;
  };

  router.use('/v1', (req, res, next) => {
    if (req.header('authorization') !== `Bearer ${apiKey}`) return failWith(res, 401, 'unauthorized', 'Invalid API key');
    next();
  });

  router.post('/v1/authentications', (req, res) =>
    idempotent(idem, req, res, 'three_ds', async () => {
      const b = req.body ?? {};
      const invalid = (message: string) => ({ status: 422, body: { error: { code: 'invalid_areq', message } } });
      if (b.deviceChannel !== '01' && b.deviceChannel !== '02') return invalid('deviceChannel must be 01 (app) or 02 (browser)');
      if (!['Y', 'N', 'U'].includes(b.threeDSCompInd)) return invalid('threeDSCompInd must be Y, N or U');
      if (b.deviceChannel === '01' && !b.sdkInformation?.sdkTransID) return invalid('sdkInformation is required for deviceChannel 01');
      if (b.deviceChannel === '02' && !b.browserInformation?.browserUserAgent)
        return invalid('browserInformation.browserUserAgent is required for deviceChannel 02');
      if (!Number.isInteger(b.purchaseAmount) || b.purchaseAmount < 0) return invalid('purchaseAmount must be an integer in minor units');
      const tags = magicTags(b.cardholder?.email);
      const key = req.header('idempotency-key')!;
      if (tags.has('flaky') && idem.count(`flaky3ds:${key}`) <= 2) {
        return { status: 500, body: { error: { code: 'internal_error', message: 'Temporary failure, please retry' } } };
      }
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const t: Transaction = {
        threeDSServerTransID: randomUUID(),
        acsTransID: randomUUID(),
        dsTransID: randomUUID(),
        acsReferenceNumber: 'SANDBOX-ACS-REF-0001',
        messageVersion: '2.2.0',
        deviceChannel: b.deviceChannel,
        transStatus: 'Y',
        threeDSRequestorURL: b.threeDSRequestorURL ?? null,
        notificationURL: b.notificationURL ?? null,
        purchaseAmount: b.purchaseAmount,
        purchaseCurrency: b.purchaseCurrency,
      };
      const final = FINAL.find(([tag]) => tags.has(tag));
      if (tags.has('3ds_challenge')) {
        t.transStatus = 'C';
        t.acsURL = `${publicUrl()}/three_ds_server/acs/challenge`;
        const creq = {
          threeDSServerTransID: t.threeDSServerTransID,
          acsTransID: t.acsTransID,
          messageType: 'CReq',
          messageVersion: t.messageVersion,
          challengeWindowSize: '05',
        };
        if (t.deviceChannel === '02') t.base64EncodedChallengeRequest = b64url(creq);
        else t.acsSignedContent = `${b64url({ alg: 'ES256' })}.${b64url({ acsURL: t.acsURL, acsTransID: t.acsTransID })}.sandbox-signature`;
      } else if (tags.has('3ds_decoupled')) {
        t.transStatus = 'D';
        t.decide_at = Date.now() + config.sandboxReviewMs;
      } else if (final) {
        Object.assign(t, final[1]);
      } else {
        Object.assign(t, AUTHENTICATED, { authenticationValue: randomUUID() });
      }
      transactions.set(t.threeDSServerTransID, t);
      byAcsId.set(t.acsTransID, t);
      return { status: 201, body: view(t) };
    }),
  );

  router.get('/v1/authentications/:id', (req, res) => {
    const t = transactions.get(req.params.id);
    if (!t) return failWith(res, 404, 'not_found', 'No such transaction');
    res.json(view(t));
  });

  // The ACS: the browser posts the CReq (or opens the page with it in the query) and the cardholder answers.
  const challengePage = (creq: unknown, res: express.Response) => {
    let acsTransID: string | undefined;
    try {
      acsTransID = JSON.parse(Buffer.from(String(creq ?? ''), 'base64url').toString()).acsTransID;
    } catch {
      /* answered below */
    }
    const t = acsTransID ? byAcsId.get(acsTransID) : undefined;
    if (t?.transStatus !== 'C') return res.status(404).send('No challenge to answer');
    res.type('html').send(`<!doctype html><title>3-D Secure</title>
<h1>Confirm the purchase of ${t.purchaseAmount} ${t.purchaseCurrency} (minor units)</h1>
<form method="post" action="/three_ds_server/acs/challenge/${t.acsTransID}/complete"><button>Confirm</button></form>
<form method="post" action="/three_ds_server/acs/challenge/${t.acsTransID}/fail"><button>Cancel</button></form>`);
  };
  router.get('/acs/challenge', (req, res) => challengePage(req.query.creq, res));
  router.post('/acs/challenge', (req, res) => challengePage(req.body?.creq, res));

  router.post('/acs/challenge/:acsTransID/:answer', (req, res) => {
    const t = byAcsId.get(req.params.acsTransID);
    if (t?.transStatus !== 'C' || !['complete', 'fail'].includes(req.params.answer)) return res.status(404).send('Nothing to answer');
    const completed = req.params.answer === 'complete';
    if (completed) Object.assign(t, AUTHENTICATED, { authenticationValue: randomUUID() });
    else Object.assign(t, { transStatus: 'N', transStatusReason: '01', eci: '07' });
    // The ACS sends the CRes to the requestor's notification URL (the merchant's page); the result is read from the 3DS server.
    if (t.notificationURL) return res.redirect(303, t.notificationURL);
    res.send(`Authentication ${completed ? 'completed' : 'failed'}`);
  });

  const reset = () => {
    transactions.clear();
    byAcsId.clear();
  };
  /** The authentications, so a result (or a challenge) asked for before a restart is read after it. */
  const saved = keptState({ transactions: records<Transaction>('threeDSServerTransID') });
  const state = {
    save: () => ({ transactions: [...transactions.values()] }),
    load: (raw: unknown) => {
      reset();
      for (const t of saved.parse(raw).transactions) {
        transactions.set(t.threeDSServerTransID, t);
        byAcsId.set(t.acsTransID, t);
      }
    },
  };
  return { router, transactions, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const s = threeDsServerRouter(idem, publicUrl);
  return { router: s.router, reset: s.reset, state: s.state, views: { transactions: () => [...s.transactions.values()] } };
};
