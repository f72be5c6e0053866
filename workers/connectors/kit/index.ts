// The connector kit: everything a connector imports from outside its own folder (kit/README.md has the recipe).
// A connector may also import a kit module directly (kit/answer.ts...); both are the same code.
export { defineConnector, defineManifest, definitionProblem } from './define.ts';
export type { Connector, CredentialsOf, Flow, FlowName, Flows, Manifest, NotificationFlow, ProviderNotification, Session, TokenFlow } from './define.ts';
export type { ProviderRequest, ProviderResponse } from './http.ts';
export { UNIFIED } from './errors.ts';
export { maybeAnswer, readAnswer, readValue, UnexpectedAnswer } from './answer.ts';
export { errorOutcome, outcomeTable, states, unifiedTable } from './outcome.ts';
export type { Outcome, OutcomeKind, UnifiedReason } from './outcome.ts';
export { inUnit, major, majorString, minorOf, taxRatePercent } from './money.ts';
export { captureInvoice, defined, int, lineTax, linesOf, obj, perUnit, str, taxShare, text, trimmed } from './order.ts';
export type { Obj, OrderLine } from './order.ts';
export { readBody, readPart, unreadable } from './notification.ts';
export type { Unreadable } from './notification.ts';
export { proofHeader, signBody, verifyNotification, verifySignature } from './verify.ts';
export { environment, inSandbox, notificationUrl } from './session.ts';
export type { Environment } from './session.ts';
export { ProviderUnavailable } from './http.ts';
