// Ratepay's Payment API 2.0 shapes, written from Ratepay's published examples (fixtures/, sources in
// fixtures/SOURCES.md and the README's Sources table). Requests are what we send; answers are parsed with these, and
// an answer that does not parse is an unknown outcome (UnexpectedAnswer: synced later, never guessed).
import { z } from 'zod';

// ---- requests ---------------------------------------------------------------------------------------------------

/** An item or special item (Postman "Authorize transaction" shop_baskets[].items[]; createTransaction ItemDto). */
export const RatepayItem = z.object({
  article_number: z.string(),
  name: z.string(),
  description: z.string().optional(),
  category: z.string().optional(),
  quantity: z.number().int().min(1),
  unit: z.string().optional(),
  tax_rate: z.number().min(0),
  gross_unit_price: z.number(),
  net_unit_price: z.number(),
  gross_total_price: z.number(),
  net_total_price: z.number(),
  gross_unit_discount: z.number().optional(),
  net_unit_discount: z.number().optional(),
});
export const RatepayVat = z.object({ tax_rate: z.number(), net_amount: z.number(), tax_amount: z.number() });

/** What a basket and every follow-up carry: items (a part of the order) or the amount alone (docs FAQ: refunds "line-item or amount-based"). */
const BasketLines = {
  items: z.array(RatepayItem).optional(),
  special_items: z.array(RatepayItem).optional(),
  vats: z.array(RatepayVat).optional(),
};

/** createTransaction ShopBasketDto: partner_shop_id 1..255, shop_transaction_id 1..127, gross_amount > 0 (decimals). */
export const RatepayShopBasket = z.object({
  partner_shop_id: z.string().min(1).max(255),
  shop_transaction_id: z.string().min(1).max(127).optional(),
  gross_amount: z.number().positive(),
  ...BasketLines,
});

/** billing_address / delivery.address: city at least 2 non-blank characters, ISO 3166-1 alpha-2 country. */
export const RatepayAddress = z.object({
  street: z.string().min(1),
  street_number: z.string().optional(),
  street_addition: z.string().optional(),
  zip_code: z.string(),
  city: z.string(),
  country_code: z.string().regex(/^[A-Z]{2}$/),
});

/** The buyer: a person (B2C) or a company (B2B). person = title, first_name, last_name, date_of_birth (YYYY-MM-DD);
 * contact.phone is a plain string in every Ratepay example ("+49 177 4445555"). */
export const RatepayBuyer = z.object({
  person: z.object({ title: z.string().optional(), first_name: z.string(), last_name: z.string(), date_of_birth: z.string() }).optional(),
  company: z.object({ name: z.string(), vat_id: z.string().optional() }).optional(),
  billing_address: RatepayAddress,
  contact: z.object({ email: z.string(), phone: z.string().optional() }),
  language: z.string().length(2),
  shop_buyer_id: z.string().optional(),
});

/** POST /v2/transactions (createTransaction; Postman "Authorize transaction [Open Invoice - B2C|B2B]"). */
export const RatepayAuthorizationRequest = z.object({
  buyer: RatepayBuyer,
  currency: z.string().regex(/^[A-Z]{3}$/),
  delivery: z
    .object({
      first_name: z.string(),
      last_name: z.string(),
      company: z.string().optional(),
      address: RatepayAddress,
    })
    .optional(),
  device: z.object({ token: z.string(), source_ip_address: z.string().optional() }),
  partner_transaction_id: z.string().min(1).max(50),
  partner_operation_id: z.string().max(255),
  payment_method: z.object({ payment_option: z.literal('OPEN_INVOICE'), transfer_type: z.literal('BANK_TRANSFER') }),
  shop_baskets: z.array(RatepayShopBasket).length(1),
});

/** POST .../captures | .../cancellations | .../refunds (captureTransaction: gross_amount required; partner_invoice_id
 * 0..50, partner_operation_id 0..255, partner_shop_id 1..255, shop_transaction_id 1..127). */
export const RatepayFollowUpRequest = z.object({
  partner_shop_id: z.string().min(1).max(255),
  shop_transaction_id: z.string().min(1).max(127).optional(),
  gross_amount: z.number().positive(),
  partner_operation_id: z.string().max(255).optional(),
  partner_invoice_id: z.string().max(50).optional(),
  ...BasketLines,
});

/** POST https://oauth.ratepay.com/oauth/token (Authentication API createOAuthToken; Postman "Request OAuth token"). */
export const RatepayTokenRequest = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  audience: z.string(),
  grant_type: z.literal('client_credentials'),
});

// ---- answers ----------------------------------------------------------------------------------------------------

/** HAL links: Ratepay lists them per relation (self, authorizations, ...); of the follow-ups' lists we read whether
 * the transaction has a capture (`captures`: an array of links like the sample's `authorizations`; UNVERIFIED). */
const Link = z.object({ href: z.string() });
const Links = z.looseObject({ self: Link.optional(), captures: z.array(Link).optional() });

/** A decline: one category (one HTTP status each) and one or more reasons (docs: Decline Categories; the transaction
 * read's `decline`). */
export const RatepayDeclineObject = z.object({ category: z.string().min(1), reasons: z.array(z.string()) });

/**
 * The transaction: the authorization's answer (minimal: `_links.self`, `ratepay_transaction_id`; with `Prefer:
 * return=representation` the full resource) and the read (GET /v2/transactions/{id}). Ratepay's read has no status:
 * it carries `decline` when the transaction was declined, the links of its follow-ups, `authorization_expires`, and
 * (changelog 2025-10-13) the authorization's result, accepted, declined or OTP required (`result`: field name and
 * spelling UNVERIFIED).
 */
export const RatepayTransaction = z.object({
  ratepay_transaction_id: z.string().min(1),
  _links: Links.optional(),
  created: z.string().optional(),
  authorization_expires: z.string().optional(),
  decline: RatepayDeclineObject.optional(),
  result: z.string().optional(),
  payment_details: z.unknown().optional(),
});
export type RatepayTransaction = z.infer<typeof RatepayTransaction>;

/** The follow-ups' answers: their id (the Postman test scripts read ratepay_capture_id, ratepay_cancellation_id,
 * ratepay_refund_id; the cancellation list sample shows {_links, created, ratepay_cancellation_id}). */
export const RatepayCapture = z.object({ ratepay_capture_id: z.string().min(1), _links: Links.optional(), created: z.string().optional() });
export const RatepayCancellation = z.object({ ratepay_cancellation_id: z.string().min(1), _links: Links.optional(), created: z.string().optional() });
export const RatepayRefund = z.object({ ratepay_refund_id: z.string().min(1), _links: Links.optional(), created: z.string().optional() });

/** A 4xx answer: the decline (and the transaction's id, which Ratepay generates for declined transactions too). The
 * envelope around `decline` is UNVERIFIED (no published 4xx example); `message` is read when present. */
export const RatepayDecline = z.object({
  ratepay_transaction_id: z.string().optional(),
  decline: RatepayDeclineObject,
  message: z.string().optional(),
});

/** The token (createOAuthToken 200 sample: {access_token, expires_in: 1800, token_type: "Bearer"}). */
export const RatepayToken = z.object({ access_token: z.string().min(1), expires_in: z.number().positive(), token_type: z.string() });
/** The OAuth server's refusal (401 "Invalid credentials") and the API's 401: body UNVERIFIED (OAuth 2.0 {error, error_description}). */
export const OAuthError = z.object({ error: z.string().min(1), error_description: z.string().optional() });
