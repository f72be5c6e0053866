// Offset pagination reads and skips every entry before the page; past this many, a cursor or a narrower filter is
// the way on (GET /payments/list pages by cursor with no limit).
export const MAX_LIST_OFFSET = 10_000;
