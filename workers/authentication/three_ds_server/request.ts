// Our authenticate operation as an EMV 3DS AReq to the 3DS server (see services/provider-sandbox/providers/three_ds_server/imitation.ts).
import { config } from '../../../lib/config.ts';
import { exponentOf } from '../../../lib/money.ts';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Currency } from '../../../lib/schemas/common.ts';
import type { ProviderRequest } from '../../connectors/kit/http.ts';
import type { z } from 'zod';

const DEVICE_CHANNEL = { APP: '01', BRW: '02' } as const;

export function toRequest(job: ConnectorJob, apiKey: string): ProviderRequest {
  const headers = { authorization: `Bearer ${apiKey}` };
  const a = job.authentication;
  if (!a) throw new Error(`authenticate job ${job.operation_id} carries no authentication data`);
  // A status sync reads the transaction's result (after a challenge); before the 3DS server answered, the AReq is
  // sent again with the same Idempotency-Key, which returns the same transaction.
  if (job.mode === 'sync' && job.connector_transaction_id) {
    return { method: 'GET', path: `/three_ds_server/v1/authentications/${job.connector_transaction_id}`, headers };
  }
  const b = a.browser_info;
  const s = a.sdk_information;
  return {
    method: 'POST',
    path: '/three_ds_server/v1/authentications',
    idempotencyKey: job.operation_id,
    headers,
    body: {
      messageCategory: '01',
      deviceChannel: DEVICE_CHANNEL[a.device_channel],
      threeDSCompInd: a.threeds_method_comp_ind,
      threeDSRequestorTransID: a.authentication_id,
      purchaseAmount: job.amount,
      purchaseCurrency: job.currency,
      purchaseExponent: exponentOf(job.currency as z.infer<typeof Currency>),
      cardholder: { email: job.customer_email },
      threeDSRequestorURL: config.threeDsRequestorUrl,
      notificationURL: job.return_url,
      ...(b
        ? {
            browserInformation: {
              browserUserAgent: b.user_agent ?? undefined,
              browserAcceptHeader: b.accept_header ?? undefined,
              browserLanguage: b.language ?? undefined,
              browserColorDepth: b.color_depth ?? undefined,
              browserScreenHeight: b.screen_height ?? undefined,
              browserScreenWidth: b.screen_width ?? undefined,
              browserTZ: b.time_zone ?? undefined,
              browserJavaEnabled: b.java_enabled ?? undefined,
              browserJavascriptEnabled: b.java_script_enabled ?? undefined,
              browserIP: b.ip_address ?? undefined,
            },
          }
        : {}),
      ...(s
        ? {
            sdkInformation: {
              sdkAppID: s.sdk_app_id,
              sdkEncData: s.sdk_enc_data,
              sdkEphemPubKey: s.sdk_ephem_pub_key,
              sdkTransID: s.sdk_trans_id,
              sdkReferenceNumber: s.sdk_reference_number,
              sdkMaxTimeout: String(s.sdk_max_timeout).padStart(2, '0'),
            },
          }
        : {}),
    },
  };
}
