// Spend limits (DESIGN §16): pricing, the periods counted, whose spend a call is, and the ledger that
// checks before each model call and counts after it.
export { costUsd, type Pricing, type Tokens } from './cost.js';
export { dayOf, monthOf, runOf, RUN_TOTAL_KEPT_MS, type Period } from './periods.js';
export { SPEND_LIMIT_REACHED, type SpendAccount, type SpendFamily } from './spend-account.js';
export { SpendLedger, THRESHOLD, type SpendLedgerOptions, type SpendSummary, type TokenUsage } from './spend-ledger.js';
